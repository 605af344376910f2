"""The load generator: N rooms, each a TV connection and M phones, through the public protocol.

Every room sends `rate` actions per second (open loop, round-robin over its phones). Each
action is timestamped when sent and again when the *last* connection of the room holds a
view that reflects it: that difference is "action -> last screen updated".

Targets (protocol adapters):
- PartyhubTarget: HTTP create + join, sockets with tokens, the TV starts the test game
  "count"; the action is `say` (accepted from any player at any time, it changes every
  viewer's view). A view reflects an action when its `game.said` holds the action's text,
  or when its version is at least the version in which any socket first saw it (`said`
  keeps the last 5 only; views of one room are totally ordered by `v`).
- EchoTarget: the bare-Channels and raw-websockets baselines; the frame sent (padded to
  `frame_bytes`) comes back to every socket of the room, matched by its id.
"""
from __future__ import annotations

import asyncio
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor

import websockets

from bench.stats import summarize
from tests.liveserver import http

now = time.perf_counter
_POOL = ThreadPoolExecutor(48, thread_name_prefix="bench-http")


async def ahttp(method, url, body=None, timeout=20):
    return await asyncio.get_running_loop().run_in_executor(_POOL, lambda: http(method, url, body, timeout=timeout))


def ws_base(base: str) -> str:
    return base.replace("http", "ws", 1)


# ---------------------------------------------------------------- targets

def place(room: int, socket: int, servers: int, routed: bool) -> int:
    """Which server socket `socket` (0: the TV) of room `room` connects to. Split: a room's
    sockets go round the servers (as nginx's round robin spreads them); routed: every socket
    of a room on one server (as the proxy's hash on the room's code puts them), rooms spread
    over the servers."""
    return room % servers if routed else (room + socket) % servers


class PartyhubTarget:
    name = "partyhub"
    parses_versions = True
    greets = True           # every socket gets its view on connect

    def __init__(self, bases, phones=8, game="count", routed=False):
        self.bases, self.phones, self.game, self.routed = list(bases), phones, game, routed

    async def make_room(self, idx: int) -> list:
        nb = len(self.bases)
        status, room = await ahttp("POST", self.bases[idx % nb] + "/api/rooms", {})
        if status != 201:
            raise RuntimeError(f"room create: {status} {room}")
        code = room["code"]
        urls = [ws_base(self.bases[idx % nb]) + f"/ws/rooms/{code}?token={room['host_token']}"]
        for j in range(self.phones):
            base = self.bases[place(idx, j + 1, nb, self.routed)]
            status, seat = await ahttp("POST", f"{base}/api/rooms/{code}/join", {"name": f"P{j}"})
            if status != 201:
                raise RuntimeError(f"join: {status} {seat}")
            urls.append(ws_base(base) + f"/ws/rooms/{code}?token={seat['token']}")
        return urls

    async def ready(self, room) -> None:
        tv = room.conns[0]
        await tv.ws.send(json.dumps({"t": "act", "id": f"start{room.idx}",
                                     "d": {"type": "start", "game": self.game, "options": {"target": 100}}}))
        await room.wait_all(lambda c: c.phase == "playing", 30)

    def action(self, key: str) -> str:
        return '{"t":"act","id":"%s","d":{"type":"say","text":"%s"}}' % (key, key)

    def parse(self, conn, raw):
        f = json.loads(raw)
        if f.get("t") != "view":
            return None, ()
        d = f["d"]
        conn.phase = d["room"]["phase"]
        game = d.get("game") or {}
        return f["v"], [s[1] for s in game.get("said", ())]


class EchoTarget:
    parses_versions = False
    greets = False          # the baselines send nothing on connect

    def __init__(self, name, bases, phones=8, frame_bytes=600, routed=False):
        self.name, self.bases, self.phones, self.frame_bytes = name, list(bases), phones, frame_bytes
        self.routed = routed

    async def make_room(self, idx: int) -> list:
        nb = len(self.bases)
        return [ws_base(self.bases[place(idx, j, nb, self.routed)]) + f"/ws/r{idx}" for j in range(self.phones + 1)]

    async def ready(self, room) -> None:
        return None

    def action(self, key: str) -> str:
        head = '{"t":"act","id":"%s","d":{"type":"say","text":"%s"},"p":"' % (key, key)
        return head + "x" * max(0, self.frame_bytes - len(head) - 2) + '"}'

    def parse(self, conn, raw):
        f = json.loads(raw)
        conn.phase = "playing"
        return None, (f["id"],)


# ---------------------------------------------------------------- connections and rooms

def backoff_delay(attempt: int, rnd: random.Random) -> float:
    """frontend/static/common/socket.js: 400 ms doubling (cap 15 s), equal jitter."""
    base = min(15.0, 0.4 * 2 ** min(attempt - 1, 6))
    return base / 2 + rnd.random() * base / 2


class Conn:
    def __init__(self, gen, room, idx: int, url: str):
        self.gen, self.room, self.idx, self.url = gen, room, idx, url
        self.bit = 1 << idx
        self.ws = None
        self.version = -1
        self.phase = None
        self.opened_at = None       # perf_counter of the newest successful open
        self.viewed_at = None       # first frame after that open
        self.got_frame = asyncio.Event()
        self.task = None
        self.rnd = random.Random(hash(url))

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=2 ** 22, open_timeout=20,
                                           compression=None, ping_interval=None)
        self.opened_at, self.viewed_at = now(), None
        self.task = asyncio.create_task(self._run())

    async def _run(self):
        attempt = 0
        while True:
            try:
                async for raw in self.ws:
                    t = now()
                    self.gen.frames_out += 1
                    self.gen.bytes_out += len(raw)
                    v, keys = self.gen.target.parse(self, raw)
                    if v is not None and v > self.version:
                        self.version = v
                    if self.viewed_at is None:
                        self.viewed_at = t
                    self.room.on_frame(self, v, keys, t)
                    self.got_frame.set()
            except websockets.ConnectionClosed:
                pass
            except Exception as e:   # noqa: BLE001 - counted, the connection is retried
                self.gen.errors.append(f"{type(e).__name__}: {e}")
            self.ws = None
            if not self.gen.reconnect or self.gen.closing:
                return
            while not self.gen.closing:
                attempt += 1
                await asyncio.sleep(backoff_delay(attempt, self.rnd))
                try:
                    self.ws = await websockets.connect(self.url, max_size=2 ** 22, open_timeout=5,
                                                       compression=None, ping_interval=None)
                    self.opened_at, self.viewed_at, attempt = now(), None, 0
                    self.gen.reconnects += 1
                    break
                except (OSError, websockets.InvalidHandshake, asyncio.TimeoutError):
                    continue
            if self.ws is None:
                return


class Pending:
    __slots__ = ("t0", "mask", "left", "first_v")

    def __init__(self, t0, left):
        self.t0, self.mask, self.left, self.first_v = t0, 0, left, None


class Room:
    def __init__(self, gen, idx: int, urls: list):
        self.gen, self.idx = gen, idx
        self.conns = [Conn(gen, self, i, u) for i, u in enumerate(urls)]
        self.pending: dict = {}
        self.sender = None

    async def wait_all(self, pred, timeout: float) -> None:
        end = now() + timeout
        for c in self.conns:
            while not pred(c):
                if now() > end:
                    raise TimeoutError(f"room {self.idx}: connection {c.idx} never got there "
                                       f"(phase {c.phase}, v {c.version}, open {c.ws is not None}); "
                                       f"others: {[(x.phase, x.version) for x in self.conns]}")
                c.got_frame.clear()
                try:
                    await asyncio.wait_for(c.got_frame.wait(), max(0.01, end - now()))
                except asyncio.TimeoutError:
                    pass

    def on_frame(self, conn, v, keys, t) -> None:
        pending = self.pending
        if not pending:
            return
        for key in keys:
            p = pending.get(key)
            if p is not None:
                if v is not None and (p.first_v is None or v < p.first_v):
                    p.first_v = v
                self._mark(key, p, conn.bit, t)
        if v is not None and pending:
            for key, p in list(pending.items()):
                if p.first_v is not None and v >= p.first_v:
                    self._mark(key, p, conn.bit, t)

    def _mark(self, key, p, bit, t) -> None:
        if p.mask & bit:
            return
        p.mask |= bit
        p.left -= 1
        if p.left == 0:
            del self.pending[key]
            self.gen.samples.append((p.t0, t - p.t0))

    async def send_loop(self, rate: float) -> None:
        phones = self.conns[1:] or self.conns
        period = 1.0 / rate
        rnd = random.Random(self.idx)
        t = now() + rnd.random() * period
        k = 0
        while not self.gen.closing:
            delay = t - now()
            if delay > 0:
                await asyncio.sleep(delay)
            t += period
            if now() - t > period:          # the client fell behind: skip, never burst
                t = now() + period
                self.gen.skipped += 1
            if self.gen.paused:
                continue
            conn = phones[k % len(phones)]
            k += 1
            if conn.ws is None:
                self.gen.skipped += 1
                continue
            key = f"b{self.idx}n{k}"
            self.pending[key] = Pending(now(), len(self.conns))
            try:
                await conn.ws.send(self.gen.target.action(key))
                self.gen.frames_in += 1
            except websockets.ConnectionClosed:
                self.pending.pop(key, None)
                self.gen.skipped += 1


class LoadGen:
    def __init__(self, target, rate: float = 2.0, reconnect: bool = False):
        self.target, self.rate, self.reconnect = target, rate, reconnect
        self.rooms: list = []
        self.samples: list = []     # (t_sent, latency_s)
        self.frames_in = self.frames_out = self.bytes_out = 0
        self.skipped = self.reconnects = 0
        self.errors: list = []
        self.closing = self.paused = False

    async def add_rooms(self, n: int, concurrency: int = 6) -> float:
        """Create n rooms, connect every socket, start the game and the senders; returns seconds."""
        t0 = now()
        sem = asyncio.Semaphore(concurrency)
        first = len(self.rooms)

        async def one(idx):
            async with sem:
                room = Room(self, idx, await self.target.make_room(idx))
                for c in room.conns:
                    await c.open()
                if self.target.greets:
                    await room.wait_all(lambda c: c.viewed_at is not None, 30)
                await self.target.ready(room)
                return room

        new = await asyncio.gather(*(one(first + i) for i in range(n)))
        for room in new:
            room.sender = asyncio.create_task(room.send_loop(self.rate))
        self.rooms.extend(new)
        return now() - t0

    def sockets(self) -> int:
        return sum(len(r.conns) for r in self.rooms)

    async def window(self, seconds: float, pids=(), drain: float = 3.0) -> dict:
        """Measure for `seconds`; actions sent in the window are waited for up to `drain` s."""
        from bench.servers import cpu_seconds
        a = now()
        fin, fout, bout = self.frames_in, self.frames_out, self.bytes_out
        cpu0 = {p: cpu_seconds(p) for p in pids}
        me0 = time.process_time()
        await asyncio.sleep(seconds)
        b = now()
        fin, fout, bout = self.frames_in - fin, self.frames_out - fout, self.bytes_out - bout
        cpu = {p: cpu_seconds(p) - cpu0[p] for p in pids}
        me = time.process_time() - me0
        end = b + drain
        while now() < end and any(p.t0 < b for r in self.rooms for p in r.pending.values()):
            await asyncio.sleep(0.05)
        lat = [x * 1000 for t, x in self.samples if a <= t < b]
        lost = sum(1 for r in self.rooms for p in r.pending.values() if a <= p.t0 < b)
        return {"lat": lat, "lost": lost, "wall": b - a, "fin": fin, "fout": fout, "bout": bout,
                "cpu": sum(cpu.values()), "me": me}

    def figures(self, windows: list) -> dict:
        """Merge measurement windows (rounds) into one row of figures."""
        lat = [x for w in windows for x in w["lat"]]
        tot = {k: sum(w[k] for w in windows) for k in ("lost", "wall", "fin", "fout", "bout", "cpu", "me")}
        wall = tot["wall"] or 1e-9
        out = summarize(lat)
        out.update({
            "rooms": len(self.rooms), "sockets": self.sockets(), "seconds": round(wall, 2),
            "actions": len(lat) + tot["lost"], "lost": tot["lost"],
            "frames_in_s": round(tot["fin"] / wall, 1), "frames_out_s": round(tot["fout"] / wall, 1),
            "frame_bytes_out": round(tot["bout"] / tot["fout"]) if tot["fout"] else 0,
            "server_cpu_pct": round(100 * tot["cpu"] / wall, 1),
            "client_cpu_pct": round(100 * tot["me"] / wall, 1),
        })
        return out

    async def close(self) -> None:
        self.closing = True
        for r in self.rooms:
            if r.sender:
                r.sender.cancel()
        conns = [c for r in self.rooms for c in r.conns]
        await asyncio.gather(*(c.ws.close() for c in conns if c.ws is not None), return_exceptions=True)
        for c in conns:
            if c.task:
                c.task.cancel()
        await asyncio.gather(*(c.task for c in conns if c.task), return_exceptions=True)
