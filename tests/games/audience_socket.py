"""Shared by the games' audience socket tests: a room with seated players, the TV, audience
sockets with passes (and one anonymous), the frames each got, and the answers to votes."""
from __future__ import annotations

import json

from channels.db import database_sync_to_async
from django.test import Client as HttpClient

from partyhub.rooms.access import selectors
from partyhub.rooms.live import publish as publish_module
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client, drain_all


def audience_pass(code: str, name: str) -> str:
    r = HttpClient().post(f"/api/rooms/{code}/audience", data=json.dumps({"name": name}),
                          content_type="application/json")
    assert r.status_code == 201, r.content
    return r.json()["token"]


class Table:
    """tv, players {pid: Client}, audience {"zoe", "max" (passes), "anon"}."""

    async def open(self, players: int, names=("Zoe", "Max")):
        self.code, self.host, seats = await database_sync_to_async(make_room)(players)
        self.tv = Client(self.code, self.host)
        self.players = {s.player_id: Client(self.code, s.token) for s in seats}
        self.audience, self.tokens = {}, {}
        for name in names:
            token = await database_sync_to_async(audience_pass)(self.code, name)
            self.tokens[name.lower()] = token
            self.audience[name.lower()] = Client(self.code, token)
        self.audience["anon"] = Client(self.code)
        for c in self.all():
            assert await c.open() is True
        return self

    def all(self):
        return [self.tv, *self.players.values(), *self.audience.values()]

    async def drain(self):
        await drain_all(self.all(), ping=True)

    async def caught_up(self, *clients):
        """Each client has the TV's newest version (a busy machine may lag behind drain)."""
        for c in clients:
            await c.until(lambda v, c=c: c.version >= self.tv.version, timeout=5)

    async def start(self, game, options):
        await self.tv.act({"type": "start", "game": game, "options": options})
        # the deal's view on the TV, then on every socket (a drain alone waits for a quiet
        # moment, which a loaded machine can leave before the deal is out)
        refused = lambda: [f for f in self.tv.frames if f.get("t") == "error"]   # noqa: E731
        await self.tv.until(lambda v: v["room"]["phase"] == "playing" or refused(), timeout=10)
        assert self.tv.view["room"]["phase"] == "playing", (refused(), self.tv.view["room"])
        await self.caught_up(*self.all())
        await self.drain()

    async def tick(self):
        """Let the room's timer fall due now (as the timekeeper would)."""
        room = await database_sync_to_async(selectors.room_get)(self.code)
        if room.deadline_at is None:        # the room's own timekeeper was quicker
            await self.drain()
            return
        change = await database_sync_to_async(services.room_tick)(self.code, room.deadline_at)
        if change is not None:
            await publish_module.publish(change)
        await self.drain()

    async def close(self):
        for c in self.all():
            await c.close()


async def answer(c: Client, ref: str, timeout=3):
    """The `mine` or `error` frame answering the act `ref` (frames received before are kept)."""
    for f in c.frames:
        if f.get("t") in ("mine", "error") and (f.get("d") or {}).get("ref", f.get("ref")) == ref:
            return f
    while True:
        f = await c.recv(timeout)
        if f["t"] == "_closed":
            raise AssertionError(f"closed while waiting for {ref}")
        if f["t"] in ("mine", "error") and ((f.get("d") or {}).get("ref") == ref or f.get("ref") == ref):
            return f


async def tally(tv: Client, pred, timeout=3):
    """The first (newest) tally frame on the TV for which pred(d) holds."""
    for f in reversed(tv.frames):
        if f.get("t") == "tally" and pred(f["d"]):
            return f["d"]
    while True:
        f = await tv.recv(timeout)
        if f["t"] == "tally" and pred(f["d"]):
            return f["d"]


def frames_text(c: Client, until_over=True) -> list[str]:
    """Every frame the socket got, as JSON text, up to the first view of a finished game."""
    out = []
    for f in c.frames:
        if until_over and f.get("t") == "view" and f["d"]["room"]["phase"] == "over":
            break
        out.append(json.dumps(f, ensure_ascii=False))
    return out
