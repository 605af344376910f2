"""One person, one voter (issue 31): the voter cap of a ballot, `again` and the open ballot,
the audience pass's lifetime, revocation and names, hidden names out of the tallies, and a
slow Redis that delays a vote but never the event loop. Over real sockets (the count game)."""
import asyncio
import json
import types

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from partyhub.rooms.access import audiencepass, selectors
from partyhub.rooms.core import tallies
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.gateway import registry
from tests.rooms.relay.test_audience import audience_pass, fresh_tallies  # noqa: F401 (an autouse fixture)
from tests.rooms.transport.test_consumers import table
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


def join(code, name):
    r = HttpClient().post(f"/api/rooms/{code}/join", json.dumps({"name": name}),
                          content_type="application/json", HTTP_ORIGIN="http://testserver")
    assert r.status_code == 201, r.content
    return r.json()


async def playing(n=2):
    code, tv, phones = await table(n)
    await tv.act({"type": "start", "game": "count", "options": {"target": 30}})
    await tv.until(lambda v: v["room"]["phase"] == "playing")
    return code, tv, phones


async def with_pass(code, name="Zoe"):
    status, p = await database_sync_to_async(audience_pass)(code, name)
    assert status == 201, p
    fan = Client(code, p["token"])
    assert await fan.open() is True
    fan.pass_ = p
    return fan


async def answer(client, ref, timeout=3):
    """The `mine` or `error` answering `ref`, or the close that came instead."""
    while True:
        f = await client.recv(timeout)
        if f["t"] == "_closed" or (f["t"] in ("mine", "error") and f["d"].get("ref") == ref):
            return f


async def vote(client, n):
    return await answer(client, await client.act({"type": "predict", "n": n}))


def limits(settings, **changed):
    settings.PARTYHUB_LIMITS = {**settings.PARTYHUB_LIMITS, **changed}


# ---------------------------------------------------------------- the voters of a ballot

async def test_a_full_ballot_refuses_a_new_voter_and_lets_the_others_change_their_vote(settings):
    limits(settings, voters_per_ballot=2)
    code, tv, phones = await playing()
    first, second, third = Client(code), Client(code), Client(code)
    for c in (first, second, third):
        assert await c.open() is True
    assert (await vote(first, 1))["t"] == "mine"
    assert (await vote(second, 1))["t"] == "mine"
    refused = await vote(third, 2)
    assert refused["t"] == "error" and refused["d"]["code"] == "ballot_full"
    changed = await vote(first, 3)          # a voter already in may change its mind
    assert changed["t"] == "mine" and changed["d"]["votes"] == {"n": 3}
    seq, entries = tallies.entries(code, 1, "t0")
    assert len(entries) == 2 and seq == 3


async def test_the_tally_counts_anonymous_voters_apart():
    code, tv, phones = await playing()
    fan = await with_pass(code)
    anon = [Client(code) for _ in range(3)]
    for c in anon:
        assert await c.open() is True
        assert (await vote(c, 2))["t"] == "mine"
    assert (await vote(fan, 2))["t"] == "mine"
    while True:
        f = await tv.recv()
        if f["t"] == "tally" and f["d"]["seq"] == 4:
            break
    assert f["d"]["voters"] == 4 and f["d"]["anonymous"] == 3


@pytest.mark.redis
def test_the_redis_vote_is_capped_and_refuses_a_stale_look(redis_server, settings):
    settings.REDIS_URL = redis_server
    tallies.reset()
    t = tallies.backend()
    t.forget("CAPS")
    assert t.vote("CAPS", 1, "t0", "a1", "Zoe", "n", 1, seen=0, cap=2).status == "ok"
    assert t.vote("CAPS", 1, "t0", "c2", None, "n", 2, seen=0, cap=2).n == 1
    assert t.vote("CAPS", 1, "t0", "c3", None, "n", 2, seen=0, cap=2).status == "full"
    # a voter's other socket changed its votes since this one looked: nothing recorded
    stale = t.vote("CAPS", 1, "t0", "a1", "Zoe", "n", 3, seen=0, cap=2)
    assert (stale.status, stale.votes, stale.n) == ("changed", {"n": 1}, 1)
    again = t.vote("CAPS", 1, "t0", "a1", "Zoe", "n", 3, seen=1, cap=2)
    assert (again.status, again.seq, again.votes) == ("ok", 3, {"n": 3})
    assert t.entries("CAPS", 1, "t0") == (3, {"a1": {"name": "Zoe", "votes": {"n": 3}},
                                              "c2": {"name": None, "votes": {"n": 2}}})
    t.forget("CAPS")


def test_the_memory_vote_is_capped_and_refuses_a_stale_look():
    t = tallies.MemoryTallies()
    assert t.vote("CAPS", 1, "t0", "a1", "Zoe", "n", 1, seen=0, cap=1).status == "ok"
    assert t.vote("CAPS", 1, "t0", "c2", None, "n", 2, seen=0, cap=1).status == "full"
    assert t.vote("CAPS", 1, "t0", "a1", "Zoe", "n", 3, seen=0, cap=1).status == "changed"
    assert t.vote("CAPS", 1, "t0", "a1", "Zoe", "n", 3, seen=1, cap=1).votes == {"n": 3}
    t.forget("CAPS")        # a socket that saw votes the tally no longer holds: judged again
    assert t.vote("CAPS", 1, "t0", "a1", "Zoe", "n", 3, seen=2, cap=1) == tallies.Vote("changed", None, {}, 0)


# ---------------------------------------------------------------- `again` and the ballot

async def test_a_failing_again_leaves_the_open_ballot_open(monkeypatch):
    code, tv, phones = await playing()
    fan = await with_pass(code)
    assert (await vote(fan, 2))["t"] == "mine"
    monkeypatch.setattr(registry.get("count"), "max_players", 2)
    await database_sync_to_async(join)(code, "Late")       # a third seat: too many for a deal
    await tv.drain()
    ref = await tv.act({"type": "again"})
    err = await tv.error()
    assert (err["d"]["code"], err["d"]["ref"]) == ("player_count", ref)
    # the game goes on and its ballot still counts (the old code had closed it already)
    assert (await vote(fan, 3))["t"] == "mine"
    assert tallies.entries(code, 1, "t0")[1][fan.pass_["audience_id"]]["votes"] == {"n": 3}
    phone = next(p for p in phones if p.seat.player_id == tv.view["game"]["turn"])
    await phone.act({"type": "add", "n": 3})
    await tv.until(lambda v: v["game"]["audience"])
    assert tv.view["game"]["audience"][0]["right"] == ["Zoe"]


# ---------------------------------------------------------------- the audience pass

async def test_a_pass_expires(monkeypatch):
    code, tv, phones = await playing()
    fan = await with_pass(code)
    assert fan.pass_["expires"] > 0
    later = fan.pass_["expires"] / 1000 + 1
    monkeypatch.setattr(audiencepass, "time", types.SimpleNamespace(time=lambda: later))
    f = await vote(fan, 1)          # an open socket's pass ends: refused, and the socket closed
    assert f["t"] == "error" and f["d"]["code"] == "pass_expired"
    assert (await fan.error())["t"] == "_closed"
    again = Client(code, fan.pass_["token"])
    assert await again.open() == 4003       # opens nothing now


async def test_the_host_revokes_the_passes():
    code, tv, phones = await playing()
    fan = await with_pass(code)
    assert {"type": "revoke_passes"} in tv.view["actions"]
    await phones[0].act({"type": "revoke_passes"})
    assert (await phones[0].error())["d"]["code"] == "not_allowed"
    await tv.act({"type": "revoke_passes"})
    await tv.next_view()
    f = await vote(fan, 1)
    assert f["t"] == "error" and f["d"]["code"] == "pass_revoked"
    assert (await fan.error())["t"] == "_closed"
    assert await Client(code, fan.pass_["token"]).open() == 4003
    fresh = await with_pass(code)           # a new pass is one "Watch" away
    assert (await vote(fresh, 1))["t"] == "mine"


def test_a_pass_is_never_made_for_a_seats_or_a_barred_name():
    from tests.rooms.helpers import make_room
    code, host, seats = make_room(2)          # P1, P2
    for name in ("P1", "p1", "  P2 "):
        status, body = audience_pass(code, name)
        assert (status, body["error"]["code"]) == (409, "name_taken"), name
    from partyhub.rooms.write import services
    from partyhub.rooms.access.selectors import Actor
    services.room_apply(code, Actor("tv"), None, {"type": "kick", "player": seats[1].player_id})
    status, body = audience_pass(code, "P2")
    assert (status, body["error"]["code"]) == (403, "name_kicked")
    assert audience_pass(code, "Zoe")[0] == 201


async def test_a_pass_stops_when_a_seat_takes_its_name():
    code, tv, phones = await playing()
    fan = await with_pass(code, "Zoe")
    await database_sync_to_async(join)(code, "ZOE")          # a spectator seat, the same name
    await tv.next_view()
    f = await vote(fan, 1)
    assert f["t"] == "error" and f["d"]["code"] == "name_taken"
    assert (await fan.error())["t"] == "_closed"
    with pytest.raises(ServiceError):
        await database_sync_to_async(selectors.actor_for)(code, fan.pass_["token"])


# ---------------------------------------------------------------- hidden names

async def test_a_hidden_name_is_in_no_tally_and_no_fold(monkeypatch):
    code, tv, phones = await playing()
    game = registry.get("count")
    # a summary that names its voters (as sketch's does)
    monkeypatch.setattr(game, "audience_summary",
                        lambda state, entries: {"names": sorted(e["name"] or "" for e in entries.values())})
    fan = await with_pass(code, "Rude Name")
    spec = Client(code, (await database_sync_to_async(join)(code, "Spec"))["token"])
    assert await spec.open() is True
    assert (await vote(fan, 2))["t"] == "mine"
    assert (await vote(spec, 2))["t"] == "mine"
    await tv.act({"type": "hide", "text": "rude  name"})
    spec_id = spec.view["you"]["id"]
    await tv.next_view()
    await tv.act({"type": "hide", "player": spec_id})        # renamed "Player 3"
    await tv.until(lambda v: all(p["name"] != "Spec" for p in v["room"]["players"]))
    await tv.drain()
    tv.frames.clear()
    assert (await vote(fan, 3))["t"] == "mine"      # a new tally frame goes out
    while True:
        f = await tv.recv()
        if f["t"] == "tally" and f["d"]["seq"] == 3:
            break
    assert f["d"]["summary"] == {"names": ["•••", "•••"]}, f
    phone = next(p for p in phones if p.seat.player_id == tv.view["game"]["turn"])
    await phone.act({"type": "add", "n": 2})
    await tv.until(lambda v: v["game"]["audience"])
    text = json.dumps(tv.frames, ensure_ascii=False)
    assert "Rude" not in text and "Spec" not in text
    from partyhub.rooms.models import Event, Room

    def logged():
        room = Room.objects.get(code=code)
        return [e.data for e in Event.objects.filter(room=room, type="audience_closed")]
    (closed,) = await database_sync_to_async(logged)()
    assert {e["name"] for e in closed["entries"].values()} == {"•••"}


# ---------------------------------------------------------------- a slow Redis

class Gate:
    """A TCP stand-in for Redis in front of the real one: it passes bytes both ways, but holds
    every reply while `open` is clear."""

    def __init__(self, target):
        self.target, self.open = target, asyncio.Event()
        self.open.set()
        self.held = asyncio.Event()        # a reply waits at the gate

    async def start(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection(*self.target)

        async def pipe(src, dst, gated):
            while data := await src.read(65536):
                if gated and not self.open.is_set():
                    self.held.set()
                    await self.open.wait()
                dst.write(data)
                await dst.drain()
            dst.close()
        await asyncio.gather(pipe(reader, up_writer, False), pipe(up_reader, writer, True),
                             return_exceptions=True)

    def close(self):
        self.server.close()


@pytest.mark.redis
async def test_a_slow_redis_delays_the_vote_and_never_the_event_loop(redis_server, settings):
    from urllib.parse import urlparse
    where = urlparse(redis_server)
    gate = Gate((where.hostname, where.port or 6379))
    port = await gate.start()
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/{(where.path or '/0').strip('/') or 0}"
    tallies.reset()
    try:
        await asyncio.to_thread(tallies.backend().forget, "SLOW")     # the gate serves on this loop
        gate.open.clear()           # Redis answers nothing from now on, until the gate opens
        voting = asyncio.ensure_future(tallies.vote("SLOW", 1, "t0", "c1", None, "n", 2, None, 0))
        await asyncio.wait_for(gate.held.wait(), 5)     # the vote's reply is held at the gate
        ticks = 0
        for _ in range(20):         # meanwhile the loop runs other coroutines
            await asyncio.sleep(0)
            ticks += 1
        assert ticks == 20 and not voting.done()
        gate.open.set()
        done = await asyncio.wait_for(voting, 5)
        assert done.status == "ok" and done.seq == 1
    finally:
        gate.open.set()
        await asyncio.to_thread(tallies.backend().forget, "SLOW")
        gate.close()
