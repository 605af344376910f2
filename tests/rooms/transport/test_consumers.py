"""The WebSocket transport: views per viewer, errors with codes, replacement, kicks, limits."""
import json

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async

from partyhub.rooms.transport.consumers import RoomConsumer
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


async def table(n=3):
    code, host, seats = await database_sync_to_async(make_room)(n)
    tv = Client(code, host)
    assert await tv.open() is True
    phones = []
    for s in seats:
        c = Client(code, s.token)
        assert await c.open() is True
        c.seat = s
        phones.append(c)
    await tv.until(lambda v: all(p["connected"] for p in v["room"]["players"]))
    return code, tv, phones


async def test_each_viewer_gets_the_envelope_with_its_own_role():
    code, tv, phones = await table()
    assert set(tv.view) == {"room", "you", "game", "deadline", "actions"}
    assert tv.view["you"] == {"role": "tv", "id": None}
    await phones[0].until(lambda v: True)
    assert phones[0].view["you"] == {"role": "player", "id": phones[0].seat.player_id, "language": "en"}
    audience = Client(code)
    assert await audience.open() is True
    assert audience.view["you"]["role"] == "audience" and audience.view["actions"] == []
    assert any(a["type"] == "start" for a in tv.view["actions"])
    await phones[0].until(lambda v: any(a["type"] == "start" for a in v["actions"]))   # the VIP
    assert not any(a["type"] == "start" for a in phones[1].view["actions"])


async def test_a_started_game_shows_each_player_only_its_own_secret():
    code, tv, phones = await table()
    await tv.act({"type": "start", "game": "count", "options": {"target": 5}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    for p in phones:
        await p.until(lambda v: v["room"]["phase"] == "playing")
    assert "secret" not in tv.view["game"]
    secrets = {p.seat.player_id: p.view["game"]["secret"] for p in phones}
    for p in phones:
        text = json.dumps(p.view)
        assert all(f'"secret":{v}' not in text or k == p.seat.player_id for k, v in secrets.items()
                   if v != secrets[p.seat.player_id])


@pytest.mark.parametrize("raw,code", [
    ("{not json", "bad_frame"),
    ("[1,2]", "bad_frame"),
    ('{"t": "act", "d": "x"}', "bad_frame"),
    ('{"t": "act", "id": "1", "d": {"type": "fly"}}', "bad_action"),   # no game declares it
    ('{"t": "act", "id": "1", "d": {"type": "add", "n": 1}}', "no_game_running"),
])
async def test_malformed_frames_get_an_error_and_the_socket_stays_open(raw, code):
    _, tv, phones = await table(2)
    await phones[0].drain()
    v = phones[0].version
    await phones[0].send(raw)
    err = await phones[0].error()
    assert err["t"] == "error" and err["d"]["code"] == code and err["d"]["message"]
    await phones[0].send({"t": "ping", "d": {"c": 1}})
    assert (await phones[0].recv())["t"] == "pong"
    assert phones[0].version == v


async def test_an_illegal_action_gets_an_error_with_its_ref_and_nobody_else_notices():
    _, tv, phones = await table(3)
    await tv.act({"type": "start", "game": "count", "options": {}})
    for p in phones:
        await p.until(lambda v: v["room"]["phase"] == "playing")
    await tv.drain()
    for p in phones:
        await p.drain()
    ref = await phones[1].act({"type": "add", "n": 1})
    err = await phones[1].error()
    assert err["d"] == {**err["d"], "code": "not_your_turn", "ref": ref}
    for other in (tv, phones[0], phones[2]):
        assert await other.comm.receive_nothing(timeout=0.2)


async def test_an_oversize_frame_is_refused():
    _, _, phones = await table(1)
    await phones[0].send({"t": "act", "id": "x", "d": {"type": "say", "text": "x" * 70000}})
    assert (await phones[0].error())["d"]["code"] == "frame_too_large"


async def test_a_flooding_socket_is_throttled_then_closed(settings):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, "frames_per_second": 1, "frames_burst": 3}
    _, tv, phones = await table(2)
    for _ in range(10):
        await phones[0].send("{bad")
    codes = []
    while True:
        f = await phones[0].recv()
        if f["t"] == "_closed":
            break
        if f["t"] == "error":
            codes.append(f["d"]["code"])
    assert "flood" in codes and f["code"] == 4008
    await phones[1].send({"t": "ping", "d": {"c": 1}})
    while (await phones[1].recv())["t"] != "pong":
        pass


async def test_a_second_connection_with_the_same_token_replaces_the_first():
    code, tv, phones = await table(2)
    again = Client(code, phones[0].seat.token)
    assert await again.open() is True
    assert again.view["you"]["id"] == phones[0].seat.player_id
    closed = await phones[0].next_view()
    while closed["t"] != "_closed":
        closed = await phones[0].next_view()
    assert closed["code"] == 4000


async def test_a_forged_token_and_a_foreign_origin_are_refused():
    code, tv, phones = await table(1)
    assert await Client(code, "forged").open() == 4003
    evil = [(b"origin", b"http://evil.example"), (b"host", b"testserver")]
    assert await Client(code, phones[0].seat.token, headers=evil).open() is not True


async def test_a_kicked_player_is_told_closed_and_cannot_reconnect():
    code, tv, phones = await table(2)
    await tv.act({"type": "kick", "player": phones[1].seat.player_id})
    got = []
    while not got or got[-1]["t"] != "_closed":
        got.append(await phones[1].recv())
    assert any(f["t"] == "kicked" for f in got)
    await tv.until(lambda v: len(v["room"]["players"]) == 1)
    assert await Client(code, phones[1].seat.token).open() == 4003


async def test_a_reload_comes_back_to_the_same_seat_and_state():
    code, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "count", "options": {}})
    await phones[0].until(lambda v: v["room"]["phase"] == "playing")
    await phones[0].act({"type": "add", "n": 2})
    await phones[0].until(lambda v: v["game"]["total"] == 2)
    secret = phones[0].view["game"]["secret"]
    await phones[0].close()
    back = Client(code, phones[0].seat.token)
    assert await back.open() is True
    assert back.view["game"]["secret"] == secret and back.view["room"]["players"][0]["score"] == 2


async def test_stream_items_are_relayed_to_the_table_and_absorbed_later():
    code, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "count", "options": {}})
    await phones[0].until(lambda v: v["room"]["phase"] == "playing")
    await tv.drain()
    await phones[0].act({"type": "doodle", "points": [[0.1, 0.2]]})
    f = await tv.recv()
    assert f["t"] == "stream" and [i["t"] for i in f["d"]["items"]] == ["doodle"]
    assert f["d"]["items"][0]["d"]["points"] == [[0.1, 0.2]] and f["d"]["ack"] == []
    await phones[0].act({"type": "doodle", "points": "nope"})     # not a list: the platform
    assert (await phones[0].error())["d"]["code"] == "bad_action"
    await phones[0].act({"type": "doodle", "points": []})         # a list the rules refuse
    assert (await phones[0].error())["d"]["code"] == "bad_points"
    await phones[0].act({"type": "add", "n": 1})
    await tv.until(lambda v: v["game"]["doodles"] == 1)


async def test_the_timekeeper_fires_a_deadline_and_everyone_sees_it():
    code, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "count", "options": {"turn_seconds": 1}})
    v = await tv.until(lambda v: v["room"]["phase"] == "playing")
    assert v["deadline"] is not None
    await tv.until(lambda v: v["game"]["total"] == 1, timeout=4)


async def test_ping_answers_with_the_server_clock():
    _, tv, _ = await table(1)
    await tv.send({"t": "ping", "d": {"c": 123}})
    pong = await tv.recv()
    assert pong["t"] == "pong" and pong["d"]["c"] == 123 and pong["d"]["s"] > 1.7e12


async def test_an_unknown_room_refuses_the_socket():
    assert await Client("ZZZZ").open() is not True


async def test_a_repeated_action_id_over_the_socket_is_applied_once_and_answered():
    _, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "count", "options": {}})
    await phones[1].until(lambda v: v["room"]["phase"] == "playing")
    await phones[1].act({"type": "say", "text": "once"}, ref="r1")
    await phones[1].until(lambda v: len(v["game"]["said"]) == 1)
    await phones[1].act({"type": "say", "text": "once"}, ref="r1")
    err = await phones[1].error()
    assert err["d"]["code"] == "duplicate_action" and err["d"]["ref"] == "r1"
    assert len(phones[1].view["game"]["said"]) == 1


async def test_an_action_after_the_game_ended_is_refused():
    _, tv, phones = await table(1)
    await tv.act({"type": "start", "game": "count", "options": {"target": 3}})
    await phones[0].until(lambda v: v["room"]["phase"] == "playing")
    await phones[0].act({"type": "add", "n": 3})
    await phones[0].until(lambda v: v["room"]["phase"] == "over")
    await phones[0].act({"type": "add", "n": 1})
    assert (await phones[0].error())["d"]["code"] == "game_over"


async def test_stream_items_pending_when_the_host_ends_the_game_are_in_its_final_state():
    from partyhub.rooms.access import selectors
    code, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "count", "options": {}})
    await phones[0].until(lambda v: v["room"]["phase"] == "playing")
    for n in range(3):
        await phones[0].act({"type": "doodle", "points": [[0.1 * n, 0.2]]})
    await tv.until(lambda v: True)
    while sum(len(f["d"]["items"]) for f in tv.frames if f["t"] == "stream") < 3:
        await tv.recv()
    await tv.act({"type": "end"})
    await tv.until(lambda v: v["room"]["phase"] == "lobby")
    room = await database_sync_to_async(selectors.room_get)(code)
    assert room.state["doodles"] == 3


async def _watchers(tv, n, timeout=4):
    """Waits until the TV's latest `watchers` frame says n."""
    def latest():
        return next((f["d"]["n"] for f in reversed(tv.frames) if f["t"] == "watchers"), None)
    while latest() != n:
        await tv.recv(timeout)


async def test_the_tv_counts_audience_passes_once_and_anonymous_sockets_each():
    """The TV's "n watching" counted only spectator seats. Passes (one per pass, however many
    tabs) and anonymous audience sockets count too; seats and the TV do not."""
    from partyhub.rooms.access import audiencepass
    code, tv, phones = await table(2)
    await _watchers(tv, 0)
    anonymous = [Client(code), Client(code)]
    for c in anonymous:
        assert await c.open() is True
    await _watchers(tv, 2)
    token = (await database_sync_to_async(audiencepass.issue)(code, "Olena"))["token"]
    tabs = [Client(code, token), Client(code, token)]
    for c in tabs:
        assert await c.open() is True
    await _watchers(tv, 3)
    second_tv = Client(code, tv.comm.scope["query_string"].decode().split("=", 1)[1])
    assert await second_tv.open() is True
    await _watchers(second_tv, 3)      # on connect
    await tabs[0].close()
    await anonymous[0].close()
    await _watchers(tv, 2)
    for c in (tabs[1], anonymous[1], second_tv, tv, *phones):
        await c.close()


async def test_an_answer_to_a_socket_in_its_closing_handshake_is_dropped_not_raised():
    """autobahn refuses a frame on a socket that is closing (Disconnected) until daphne hears it
    is gone: the refusal of an action under way then (a stopping replica: the stack's log had
    game_over's error raising in its handler) must not end the consumer with a traceback."""
    sock, sent = RoomConsumer(), []

    async def closing(message):
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")
    sock.base_send = closing
    await sock._error("game_over", "r1")
    assert json.loads(sent[0]["text"])["d"]["code"] == "game_over"

    async def broken(message):
        raise RuntimeError("any other failure")
    sock.base_send = broken
    with pytest.raises(RuntimeError):
        await sock._error("game_over", "r2")
