"""The coalesced stream path (partyhub/rooms/relay/streams.py): a room's items gathered for a tick,
checked in one call, stored, then relayed in one `stream` frame per socket that also
acknowledges the socket's own items."""
import json

import pytest
from channels.db import database_sync_to_async

from partyhub.gamekit import TABLE, Rejected, Relay
from partyhub.rooms.models import StreamItem
from partyhub.rooms.relay import fanout, streams
from partyhub.rooms.store import strokes
from partyhub.rooms.write import services
from tests.rooms.transport.test_consumers import table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_items_left_queued():
    """Items a test left queued would be stored in the next test's database (their room gone)."""
    yield
    strokes._queue.clear()


async def started(n=3):
    code, tv, phones = await table(n)
    await tv.act({"type": "start", "game": "count", "options": {}})
    for c in [tv, *phones]:
        await c.until(lambda v: v["room"]["phase"] == "playing")
    return code, tv, phones


def doodle(x):
    return {"type": "doodle", "points": [[x, x]]}


async def stored():
    await database_sync_to_async(strokes.flush)()
    return await database_sync_to_async(
        lambda: list(StreamItem.objects.order_by("id").values_list("seat", "data")))()


async def frames_until(client, pred, limit=200):
    """Receive until `pred(frames so far)`; returns the stream frames received."""
    got = []
    for _ in range(limit):
        if pred(got):
            return got
        f = await client.recv()
        if f["t"] in ("stream", "error"):
            got.append(f)
    raise AssertionError(f"not reached: {got}")


class Fake:
    """A socket of the room as the tick sees it: its seat, its frames, its errors."""

    def __init__(self, code, seat=None):
        self.code, self.texts, self.errors = code, [], []
        self.actor = type("Actor", (), {"seat": seat})()

    async def room_stream(self, event):
        self.texts.append(json.loads(event["text"]))

    async def _error(self, code, ref, message=None):
        self.errors.append((code, ref))


async def test_one_tick_is_one_frame_per_socket_with_every_item_and_each_senders_acks():
    code, tv, phones = await started()
    seat_a, seat_b = phones[0].seat, phones[1].seat
    a, b, screen = Fake(code, seat_a), Fake(code, seat_b), Fake(code)
    await fanout.attach(a, code, seat_a.player_id, seat_a.player_id)
    await fanout.attach(b, code, seat_b.player_id, seat_b.player_id)
    await fanout.attach(screen, code, TABLE, None)
    try:
        streams.offer(a, "a1", doodle(0.1))
        streams.offer(b, "b1", doodle(0.2))
        streams.offer(a, "a2", {"type": "doodle", "points": []})     # the rules refuse it
        streams.offer(a, "a3", doodle(0.3))
        await streams.tick(code)          # the tick, without waiting for its timer
    finally:
        for c, v, p in ((a, seat_a.player_id, seat_a.player_id), (b, seat_b.player_id, seat_b.player_id),
                        (screen, TABLE, None)):
            await fanout.detach(c, code, v, p)
    relayed = [{"t": "doodle", "d": {"seat": s.player_id, "points": [[x, x]]}}
               for s, x in ((seat_a, 0.1), (seat_b, 0.2), (seat_a, 0.3))]
    assert screen.texts == [{"t": "stream", "d": {"items": relayed, "ack": []}}]
    # the senders are not receivers of a doodle: a frame with their acknowledgements only
    assert a.texts == [{"t": "stream", "d": {"items": [], "ack": ["a1", "a3"]}}]
    assert b.texts == [{"t": "stream", "d": {"items": [], "ack": ["b1"]}}]
    assert a.errors == [("bad_points", "a2")] and not b.errors and not screen.errors
    assert await stored() == [(seat_a.player_id, doodle(0.1)), (seat_b.player_id, doodle(0.2)),
                              (seat_a.player_id, doodle(0.3))]
    assert not streams._waiting


async def test_over_sockets_every_accepted_item_is_stored_once_acked_once_and_absorbed():
    code, tv, phones = await started()
    sent, bad = {}, {}
    for i in range(12):
        p = phones[i % 3]
        if i % 5 == 4:
            bad[await p.act({"type": "doodle", "points": []})] = p.seat.player_id
        else:
            sent[await p.act(doodle(round(i / 20, 3)))] = (p.seat.player_id, round(i / 20, 3))
    tv_frames = await frames_until(tv, lambda got: sum(len(f["d"]["items"]) for f in got) >= len(sent))
    acks, errors = [], []
    for p in phones:
        me = p.seat.player_id
        mine = {r for r, (s, _) in sent.items() if s == me}
        mine_bad = {r for r, s in bad.items() if s == me}

        def answered(got, mine=mine, mine_bad=mine_bad):
            return ({r for f in got if f["t"] == "stream" for r in f["d"]["ack"]} >= mine
                    and {f["d"]["ref"] for f in got if f["t"] == "error"} >= mine_bad)
        got = await frames_until(p, answered)
        acks += [r for f in got if f["t"] == "stream" for r in f["d"]["ack"]]
        errors += [f["d"]["ref"] for f in got if f["t"] == "error"]
    assert sorted(acks) == sorted(sent)                      # each accepted batch acked exactly once
    items = [it for f in tv_frames for it in f["d"]["items"]]
    relayed = [(it["d"]["seat"], it["d"]["points"][0][0]) for it in items]

    def by_seat(pairs):     # each socket's items in its order (sockets race each other)
        return {seat: [x for s, x in pairs if s == seat] for seat, _ in pairs}
    assert by_seat(relayed) == by_seat(list(sent.values())) and len(relayed) == len(sent)
    assert len(tv_frames) <= len(items)
    assert sorted(errors) == sorted(bad) and not set(acks) & set(bad)   # refused: never acked
    assert all(it["d"]["points"] for it in items)            # nor relayed
    rows = await stored()
    assert rows == [(s, doodle(x)) for s, x in relayed]     # stored once, in the order relayed
    change = await database_sync_to_async(services.room_sync)(code)     # a locked write absorbs
    assert change.room.state["doodles"] == len(sent)
    assert await stored() == []


async def test_items_waiting_for_their_tick_when_the_round_ends_are_refused_not_absorbed():
    code, tv, phones = await started()
    seat = phones[0].seat
    a = Fake(code, seat)
    await fanout.attach(a, code, seat.player_id, seat.player_id)
    try:
        streams.offer(a, "early", doodle(0.1))
        await streams.tick(code)
        await tv.act({"type": "pause"})
        await tv.until(lambda v: v["room"].get("paused"))
        streams.offer(a, "late", doodle(0.2))      # came before the pause, checked after it
        await streams.tick(code)
    finally:
        await fanout.detach(a, code, seat.player_id, seat.player_id)
    assert a.texts == [{"t": "stream", "d": {"items": [], "ack": ["early"]}}]
    assert a.errors == [("paused", "late")]
    room = (await database_sync_to_async(services.room_sync)(code)).room
    assert room.state["doodles"] == 1


class Many:
    id = "many"

    def __init__(self, verdicts):
        self.verdicts, self.calls = verdicts, []

    def stream_many(self, state, items, now):
        self.calls.append(len(items))
        if isinstance(self.verdicts, Exception):
            raise self.verdicts
        return self.verdicts

    def stream(self, state, seat, action, now):
        if action.get("boom"):
            raise ValueError("malformed")
        return Relay({"seat": seat}, (seat,))


def test_the_rules_check_a_tick_in_one_call_and_a_crash_refuses_only_its_item():
    items = [("p1", {"type": "x"}), ("p2", {"type": "x", "boom": True})]
    one = Many([Relay({"n": 1}), Rejected("nope")])
    assert streams.rules_check(one, {}, items, 0) == [Relay({"n": 1}), Rejected("nope")]
    assert one.calls == [2]
    for bad in (ValueError("rules bug"), [Relay({})]):       # raises, or a wrong count: per item
        game = Many(bad)
        out = streams.rules_check(game, {}, items, 0)
        assert out[0] == Relay({"seat": "p1"}, ("p1",))
        assert isinstance(out[1], Rejected) and out[1].code == "bad_action"


async def test_a_frame_is_handled_without_a_hop_to_the_database_thread(monkeypatch):
    import channels.consumer
    hops = []

    async def recorded():
        hops.append(1)
    monkeypatch.setattr(channels.consumer, "aclose_old_connections", recorded)
    code, tv, phones = await started(2)
    before = len(hops)
    ref = await phones[0].act(doodle(0.5))
    got = await frames_until(phones[0], lambda got: any(ref in f["d"].get("ack", ()) for f in got))
    assert got and len(hops) == before == 0


async def test_another_processs_tick_reaches_this_processs_sockets_without_acks():
    screen, drawer = Fake("ZZTK"), Fake("ZZTK")
    await fanout.attach(screen, "ZZTK", TABLE, None)
    await fanout.attach(drawer, "ZZTK", "p1", "p1")
    try:
        await fanout.receive({"kind": "streams", "code": "ZZTK", "origin": "another process",
                              "items": {TABLE: '[{"t":"doodle","d":{"seat":"p1"}}]'}})
    finally:
        await fanout.detach(screen, "ZZTK", TABLE, None)
        await fanout.detach(drawer, "ZZTK", "p1", "p1")
    assert screen.texts == [{"t": "stream", "d": {"items": [{"t": "doodle", "d": {"seat": "p1"}}], "ack": []}}]
    assert drawer.texts == []
