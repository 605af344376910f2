"""The audience plays along (partyhub/rooms/relay/audience.py, tallies.py): over real sockets."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from partyhub.rooms.core import tallies
from tests.rooms.helpers import make_room
from tests.rooms.transport.test_consumers import table
from tests.rooms.access.test_family import BAD
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_tallies():
    tallies.reset()
    yield
    tallies.reset()


def audience_pass(code, name="Zoe"):
    r = HttpClient().post(f"/api/rooms/{code}/audience", json.dumps({"name": name}),
                          content_type="application/json", HTTP_ORIGIN="http://testserver")
    return r.status_code, r.json()


async def playing(n=2, **options):
    """A room of n phones playing count, its TV, and an audience member with a pass."""
    code, tv, phones = await table(n)
    await tv.act({"type": "start", "game": "count", "options": {"target": 30, **options}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    status, p = await database_sync_to_async(audience_pass)(code)
    assert status == 201
    fan = Client(code, p["token"])
    assert await fan.open() is True
    fan.pass_ = p
    return code, tv, phones, fan


async def frame(client, kind, timeout=3):
    while True:
        f = await client.recv(timeout)
        if f["t"] in (kind, "_closed"):
            return f


async def test_an_audience_pass_votes_and_gets_its_own_votes_back():
    code, tv, phones, fan = await playing()
    assert fan.view["you"] == {"role": "audience", "id": None}
    assert fan.view["room"]["audience_play"] is True
    assert fan.view["room"]["audience_ballot"] == "t0"      # the open ballot, named in every view
    assert {"type": "predict", "n": 2} in fan.view["actions"]
    assert not any(a["type"] == "predict" for a in phones[0].view["actions"])
    ref = await fan.act({"type": "predict", "n": 2})
    mine = await frame(fan, "mine")
    assert mine["d"] == {"ballot": "t0", "votes": {"n": 2}, "ref": ref, "reply": {"n": 2, "changed": False},
                         "seq": 1}
    tally = await frame(tv, "tally")
    assert tally["d"]["ballot"] == "t0" and tally["d"]["voters"] == 1 and tally["d"]["seq"] >= 1


async def room_row(code):
    from partyhub.rooms.models import Event, Room
    def read():
        room = Room.objects.get(code=code)
        return room.version, Event.objects.filter(room=room).count()
    return await database_sync_to_async(read)()


async def turn_over(tv, phones, amount):
    """The player whose turn it is adds `amount`; the views show the ballot folded."""
    folded = len(tv.view["game"]["audience"])
    turn = tv.view["game"]["turn"]
    phone = next(p for p in phones if p.seat.player_id == turn)
    await phone.act({"type": "add", "n": amount})
    await tv.until(lambda v: len(v["game"]["audience"]) > folded)
    return tv.view["game"]["audience"][-1]


async def test_a_changed_vote_counts_once_and_the_fold_is_one_write_per_phase():
    code, tv, phones, fan = await playing()
    others = [Client(code) for _ in range(3)]        # anonymous voters
    for o in others:
        assert await o.open() is True
    await fan.act({"type": "predict", "n": 1})
    await frame(fan, "mine")
    ref = await fan.act({"type": "predict", "n": 3})     # changes its mind
    mine = await frame(fan, "mine")
    assert mine["d"]["votes"] == {"n": 3} and mine["d"]["reply"]["changed"] is True and mine["d"]["ref"] == ref
    for o in others:
        await o.act({"type": "predict", "n": 3})
        assert (await frame(o, "mine"))["d"]["votes"] == {"n": 3}
    before = await room_row(code)
    await asyncio.sleep(0.3)
    assert await room_row(code) == before, "no database write per vote"
    seq, entries = tallies.entries(code, 1, "t0")
    assert seq == 5 and len(entries) == 4
    folded = await turn_over(tv, phones, 3)
    assert folded == {"ballot": "t0", "n": 3, "votes": {"3": 4}, "voters": 4, "right": ["", "", "", "Zoe"]}
    version, events = await room_row(code)
    assert version == before[0] + 1, "the add and the fold are one write"
    # the action, its `counted` event and the fold's `audience_closed`: no event per vote
    assert events == before[1] + 3


async def test_refusals_have_their_codes_and_count_nothing():
    code, tv, phones, fan = await playing()
    cases = [
        (phones[0], {"type": "predict", "n": 1}, "not_audience"),
        (tv, {"type": "predict", "n": 1}, "not_audience"),
        (fan, {"type": "predict", "n": "two"}, "bad_action"),
        (fan, {"type": "predict", "n": 7}, "bad_number"),         # the game's own code
    ]
    for client, d, code_ in cases:
        await client.drain()
        ref = await client.act(d)
        err = await client.error()
        assert (err["d"]["code"], err["d"]["ref"]) == (code_, ref), d
    await tv.act({"type": "pause"})
    await fan.until(lambda v: v["room"]["paused"])
    assert fan.view["actions"] == []
    await fan.act({"type": "predict", "n": 1})
    assert (await fan.error())["d"]["code"] == "paused"
    await tv.act({"type": "end"})
    await fan.until(lambda v: v["room"]["phase"] == "lobby")
    await fan.act({"type": "predict", "n": 1})
    assert (await fan.error())["d"]["code"] == "no_game_running"
    assert tallies.entries(code, 1, "t0") == (0, {})


async def test_the_host_turns_the_audience_off():
    code, tv, phones, fan = await playing()
    assert any(a["type"] == "settings" and "audience" in a for a in tv.view["actions"])
    await tv.act({"type": "settings", "audience": False})
    await fan.until(lambda v: v["room"]["audience_play"] is False)
    assert fan.view["room"]["audience_ballot"] is None     # nothing open while the host says no
    assert fan.view["actions"] == []
    await fan.act({"type": "predict", "n": 2})
    assert (await fan.error())["d"]["code"] == "audience_off"
    await tv.act({"type": "settings", "audience": True})
    await fan.until(lambda v: v["room"]["audience_play"] is True and v["actions"])
    await fan.act({"type": "predict", "n": 2})
    assert (await frame(fan, "mine"))["d"]["votes"] == {"n": 2}


async def test_a_flood_of_votes_meets_the_audience_bucket_and_not_the_frames_one():
    code, tv, phones, fan = await playing()
    for _ in range(12):     # a burst of 10; a third flood would close the socket
        await fan.act({"type": "predict", "n": 2})
    kinds = []
    for _ in range(12):
        f = await fan.recv()
        while f["t"] not in ("mine", "error"):
            f = await fan.recv()
        kinds.append(f["d"]["code"] if f["t"] == "error" else "mine")
    assert kinds.count("mine") >= 10 and kinds.count("flood") >= 1, kinds
    assert set(kinds) == {"mine", "flood"}
    await fan.send({"t": "ping", "d": {"c": 1}})     # other frames still pass
    assert (await frame(fan, "pong"))["t"] == "pong"
    assert len(tallies.entries(code, 1, "t0")[1]) == 1


async def test_a_vote_after_the_close_is_refused_and_never_counted():
    code, tv, phones, fan = await playing()
    await fan.act({"type": "predict", "n": 1})
    await frame(fan, "mine")
    # Another process folds the ballot while this one's snapshot still shows it open.
    assert tallies.close(code, 1, "t0") == {fan.pass_["audience_id"]: {"name": "Zoe", "votes": {"n": 1}}}
    ref = await fan.act({"type": "predict", "n": 2})
    err = await fan.error()
    assert (err["d"]["code"], err["d"]["ref"]) == ("no_ballot", ref)
    assert tallies.entries(code, 1, "t0")[1][fan.pass_["audience_id"]]["votes"] == {"n": 1}
    # the write that ends the phase folds the entries frozen at the close
    folded = await turn_over(tv, phones, 2)
    assert folded["votes"] == {"1": 1} and folded["right"] == []


async def test_a_spectator_seat_votes_under_its_name():
    code, tv, phones, fan = await playing()
    from django.test import Client as Http
    r = await database_sync_to_async(lambda: Http().post(
        f"/api/rooms/{code}/join", json.dumps({"name": "Spec"}), content_type="application/json",
        HTTP_ORIGIN="http://testserver"))()
    assert r.status_code == 201
    spec = Client(code, r.json()["token"])
    assert await spec.open() is True
    assert spec.view["you"]["role"] == "audience" and spec.view["you"]["id"] == r.json()["player_id"]
    assert {"type": "predict", "n": 1} in spec.view["actions"]
    await spec.act({"type": "predict", "n": 1})
    assert (await frame(spec, "mine"))["d"]["votes"] == {"n": 1}
    folded = await turn_over(tv, phones, 1)
    assert folded["right"] == ["Spec"]


async def test_a_pass_is_the_same_voter_after_a_reconnect():
    code, tv, phones, fan = await playing()
    await fan.act({"type": "predict", "n": 2})
    await frame(fan, "mine")
    await fan.close()
    again = Client(code, fan.pass_["token"])
    assert await again.open() is True
    mine = await frame(again, "mine")
    assert mine["d"] == {"ballot": "t0", "votes": {"n": 2}, "ref": None, "reply": {}}
    await again.act({"type": "predict", "n": 3})
    await frame(again, "mine")
    seq, entries = tallies.entries(code, 1, "t0")
    assert list(entries) == [fan.pass_["audience_id"]] and entries[fan.pass_["audience_id"]]["votes"] == {"n": 3}


async def test_the_tally_reaches_the_tv_coalesced_and_nobody_else():
    code, tv, phones, fan = await playing()
    anon = Client(code)
    assert await anon.open() is True
    for c in [tv, anon, fan] + phones:
        await c.drain()
    for n in (1, 2, 3, 1, 2):
        await fan.act({"type": "predict", "n": n})
        await anon.act({"type": "predict", "n": n})
    await asyncio.sleep(0.5)
    for c in [tv, anon, fan] + phones:
        await c.drain()
    tallies_seen = [f["d"] for f in tv.frames if f["t"] == "tally"]
    assert 1 <= len(tallies_seen) <= 4, tallies_seen     # 10 votes, frames at most every 0.1 s
    assert tallies_seen[-1]["seq"] == 10 and tallies_seen[-1]["voters"] == 2
    assert tallies_seen[-1]["summary"] == {"voters": 2}
    for c in [anon, fan] + phones:
        assert not any(f["t"] == "tally" for f in c.frames)


async def test_a_tv_that_connects_mid_ballot_gets_the_current_tally():
    code, tv, phones, fan = await playing()
    await fan.act({"type": "predict", "n": 2})
    await frame(fan, "mine")
    host = tv.comm.scope["query_string"].decode().split("token=", 1)[1]
    second = Client(code, host)
    assert await second.open() is True
    tally = await frame(second, "tally")
    assert tally["d"]["ballot"] == "t0" and tally["d"]["voters"] == 1 and tally["d"]["seq"] == 1


async def test_the_timer_and_the_end_close_the_ballot_too():
    code, tv, phones, fan = await playing(turn_seconds=1)
    await fan.act({"type": "predict", "n": 1})
    await frame(fan, "mine")
    await tv.until(lambda v: v["game"]["audience"], timeout=5)      # the timer adds 1
    assert tv.view["game"]["audience"][0]["right"] == ["Zoe"]
    ballot = f"t{tv.view['game']['total']}"
    await fan.act({"type": "predict", "n": 3})
    await frame(fan, "mine")
    await tv.act({"type": "end"})
    await tv.until(lambda v: v["room"]["phase"] == "lobby")
    assert tallies.record(code, 1, ballot, "x", None, "n", 1) is None     # dropped, closed


def test_the_memory_tallies_are_bounded():
    t = tallies.MemoryTallies()
    for turn in range(10):
        assert t.vote("ROOM", 1, f"t{turn}", "v", None, "n", 1).seq == 1
        t.close("ROOM", 1, f"t{turn}")
    assert t.held() == {"ROOM": tallies.CLOSED_KEEP}
    assert t.close("ROOM", 1, "t9") == {"v": {"name": None, "votes": {"n": 1}}}    # a retried close
    assert t.vote("ROOM", 1, "t9", "w", None, "n", 1).status == "closed"
    t.vote("GONE", 1, "t0", "v", None, "n", 1)
    assert t.sweep(["ROOM"]) == 1 and set(t.held()) == {"ROOM"}
    t.forget("ROOM")
    assert t.held() == {}


@pytest.mark.django_db(transaction=True)
def test_a_closed_or_forgotten_room_forgets_its_tallies():
    from partyhub.rooms.store import store
    tallies.record("ABCD", 1, "t0", "v", None, "n", 1)
    store.forget("ABCD")
    assert tallies.entries("ABCD", 1, "t0") == (0, {})
    tallies.record("ABCE", 1, "t0", "v", None, "n", 1)
    store.sweep([])     # not in the room cache: nothing keeps its tallies
    assert tallies.entries("ABCE", 1, "t0") == (0, {})


@pytest.mark.redis
def test_the_redis_tallies_count_once_refuse_after_the_close_and_forget(redis_server, settings):
    settings.REDIS_URL = redis_server
    tallies.reset()
    t = tallies.backend()
    assert isinstance(t, tallies.RedisTallies)
    t.forget("RDIS")
    assert t.vote("RDIS", 1, "t0", "a1", "Zoe", "n", 1).seq == 1
    assert t.vote("RDIS", 1, "t0", "a1", "Zoe", "n", 3).seq == 2
    assert t.vote("RDIS", 1, "t0", "c2", None, "card", "x").seq == 3
    assert t.votes_seen("RDIS", 1, "t0", "a1") == ({"n": 3}, 2)
    assert t.entries("RDIS", 1, "t0") == (3, {"a1": {"name": "Zoe", "votes": {"n": 3}},
                                              "c2": {"name": None, "votes": {"card": "x"}}})
    closed = t.close("RDIS", 1, "t0")
    assert closed == t.close("RDIS", 1, "t0") and len(closed) == 2
    assert t.vote("RDIS", 1, "t0", "a1", "Zoe", "n", 2).status == "closed"
    assert t.votes_seen("RDIS", 1, "t0", "a1") == ({"n": 3}, 2)
    t.forget("RDIS")
    assert t.entries("RDIS", 1, "t0") == (0, {})


def test_the_audience_pass_endpoint():
    code, _, _ = make_room(1)
    status, p = audience_pass(code, "  Zoe   Q ")
    assert status == 201 and p["name"] == "Zoe Q" and p["audience_id"].startswith("a") and len(p["audience_id"]) == 11
    assert audience_pass(code, "")[1]["error"]["code"] == "bad_name"
    assert audience_pass("ZZZZ")[0] == 404
    assert audience_pass(code, BAD)[1]["error"]["code"] == "not_family_friendly"
    from partyhub.rooms.access import audiencepass, selectors
    actor = selectors.actor_for(code, p["token"])
    assert actor.role == "audience" and actor.seat is None and actor.voter.voter == (p["audience_id"], "Zoe Q")
    other, _, _ = make_room(1)
    with pytest.raises(Exception):
        selectors.actor_for(other, p["token"])      # another room's pass opens nothing there
    assert audiencepass.read(p["token"] + "x", 1) is None


async def test_unreachable_tallies_refuse_votes_and_never_stall_the_game(monkeypatch):
    code, tv, phones, fan = await playing()

    def away(*args):
        raise ConnectionError("Redis is away")
    for verb in ("avote", "aentries", "avotes", "close"):
        monkeypatch.setattr(tallies.backend(), verb, away)
    ref = await fan.act({"type": "predict", "n": 1})
    err = await fan.error()
    assert (err["d"]["code"], err["d"]["ref"]) == ("no_ballot", ref)
    folded = await turn_over(tv, phones, 1)
    assert folded["voters"] == 0 and tv.view["game"]["total"] == 1


def test_an_audience_type_is_never_also_an_action_type():
    from partyhub.gamekit import integer
    from partyhub.rooms.gateway import registry

    class Clash:
        id, streams, actions_schema = "clash", frozenset(), {"predict": {"n": integer()}}
    class Clash2:
        id, streams, actions_schema = "clash2", frozenset(), {}
        audience_schema = {"add": {"n": integer()}}
    for game in (Clash(), Clash2()):
        with pytest.raises(ValueError):
            registry.register(game)
    assert "predict" in registry.audience_kinds() and registry.get("clash") is None


async def test_a_game_dealt_again_drops_the_open_ballot():
    code, tv, phones, fan = await playing()
    await fan.act({"type": "predict", "n": 2})
    await frame(fan, "mine")
    await tv.act({"type": "again"})
    await tv.until(lambda v: v["room"]["game_no"] == 2)
    assert tallies.record(code, 1, "t0", "x", None, "n", 1) is None        # closed, unfolded
    assert tv.view["game"]["audience"] == []
    await fan.until(lambda v: v["room"]["game_no"] == 2)
    ref = await fan.act({"type": "predict", "n": 3})
    assert (await frame(fan, "mine"))["d"] == {"ballot": "t0", "votes": {"n": 3}, "ref": ref,
                                               "reply": {"n": 3, "changed": False}, "seq": 1}
    assert tallies.entries(code, 2, "t0")[0] == 1


async def test_a_game_whose_audience_watches_refuses_votes_as_no_ballot():
    """klepka declares no audience play: an audience action is `no_ballot`, not a claim that
    no game runs, and the audience is offered nothing."""
    code, tv, phones = await table(2)
    await tv.act({"type": "start", "game": "klepka", "options": {}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    status, p = await database_sync_to_async(audience_pass)(code)
    fan = Client(code, p["token"])
    assert await fan.open() is True
    assert fan.view["actions"] == [] and fan.view["room"]["audience_ballot"] is None
    await fan.act({"type": "predict", "n": 1})
    assert (await fan.error())["d"]["code"] == "no_ballot"


async def test_the_log_carries_the_fold_so_the_state_is_the_rules_replay():
    """`audience_closed` follows the move that closed the ballot, with its entries."""
    code, tv, phones, fan = await playing()
    await fan.act({"type": "predict", "n": 2})
    await frame(fan, "mine")
    await turn_over(tv, phones, 2)
    from partyhub.rooms.models import Event, Room

    def logged():
        room = Room.objects.get(code=code)
        return [(e.type, e.data) for e in Event.objects.filter(room=room).order_by("id")]
    events = await database_sync_to_async(logged)()
    i = next(i for i, (t, _) in enumerate(events) if t == "audience_closed")
    assert events[i - 1][0] == "action"
    voter = fan.pass_["audience_id"]
    assert events[i][1] == {"ballot": "t0", "entries": {voter: {"name": "Zoe", "votes": {"n": 2}}}}
