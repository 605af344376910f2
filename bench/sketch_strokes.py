"""Benchmark of sketch's drawing streams: many rooms of drawers sending stroke batches.

Run: .venv/bin/python bench/sketch_strokes.py [--rooms 10] [--drawers 8] [--rate 20]
                                              [--seconds 10] [--url http://host:port]
Issue 6 asks for 10 rooms x 8 drawers x 20 batches a second for a minute: --seconds 60.
Without --url it starts its own daphne (SQLite in a temporary directory).

Each drawer puts words on its six boards and sends `stroke` batches (3 points each) at
`rate` per second, a new line every 10 batches, moving to the next board every 100. It
measures the acknowledgement time of every batch: the relay frame of its own stroke (the
platform relays a stroke to the drawer's own screens) arriving back with the batch's id.
When the sending stops the drawing round runs out; the TV's view of the guessing round holds
every board as the server absorbed it, and its points are compared with what was sent
(lost = sent but not in the absorbed boards). Prints a table; also the view sizes.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import websockets  # noqa: E402

from partyhub.blobs import Held  # noqa: E402
from tests.liveserver import Daphne, http  # noqa: E402

POINTS = 3


class Drawer:
    def __init__(self, base, code, seat):
        self.url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}?token={seat['token']}"
        self.id = seat["player_id"]
        self.view = None
        self.held = Held()
        self.sent_at: dict = {}
        self.acks: list = []
        self.errors: dict = {}
        self.points: dict = {}          # board -> points sent
        self.batches = 0
        self.got_view = asyncio.Event()

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=2 ** 24, open_timeout=30)
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.got_view.wait(), 30)

    async def _read(self):
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                f = self.held.take(json.loads(raw))    # a view's drawings: its blobs frame
                if f["t"] == "view":
                    self.view = f["d"]
                    self.got_view.set()
                elif f["t"] == "stroke":
                    sent = self.sent_at.pop(f.get("id"), None)
                    if sent is not None:
                        self.acks.append((now - sent) * 1000)
                elif f["t"] == "error":
                    code = f["d"].get("code")
                    self.errors[code] = self.errors.get(code, 0) + 1
                    self.sent_at.pop(f["d"].get("ref"), None)
        except websockets.ConnectionClosed:
            pass

    async def send(self, d):
        ref = uuid.uuid4().hex[:12]
        await self.ws.send(json.dumps({"t": "act", "id": ref, "d": d}))
        return ref

    async def prepare(self):
        while not (self.view and self.view["game"] and self.view["game"]["phase"] == "drawing"):
            self.got_view.clear()
            await asyncio.wait_for(self.got_view.wait(), 30)
        words = [a["word"] for a in self.view["actions"] if a.get("type") == "draw" and a["board"] == 0]
        for board in range(6):
            await self.send({"type": "draw", "board": board, "word": words[board]})
        await asyncio.sleep(1.0)       # the words are committed before the first stroke

    async def draw(self, seconds, rate):
        period = 1.0 / rate
        start = time.perf_counter()
        k = 0
        while True:
            due = start + k * period
            if due - start >= seconds:
                break
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            board = (k // 100) % 6
            pts = [[round(0.5 + 0.4 * math.cos((k * POINTS + i) / 7), 3),
                    round(0.5 + 0.4 * math.sin((k * POINTS + i) / 5), 3)] for i in range(POINTS)]
            ref = uuid.uuid4().hex[:12]
            self.sent_at[ref] = time.perf_counter()
            await self.ws.send(json.dumps({"t": "act", "id": ref, "d": {
                "type": "stroke", "board": board, "points": pts, "color": "#000", "width": 4,
                "join": k % 10 != 0}}))
            self.points[board] = self.points.get(board, 0) + POINTS
            self.batches += 1
            k += 1


async def room(base, drawers, seconds):
    status, r = http("POST", base + "/api/rooms", {})
    assert status == 201, r
    code = r["code"]
    seats = []
    for i in range(drawers):
        status, seat = http("POST", f"{base}/api/rooms/{code}/join", {"name": f"D{i}"})
        assert status == 201, seat
        seats.append(seat)
    tv = Drawer(base, code, {"token": r["host_token"], "player_id": "@table"})
    await tv.open()
    ds = [Drawer(base, code, s) for s in seats]
    for d in ds:
        await d.open()
    await tv.send({"type": "start", "game": "sketch",
                   "options": {"round_seconds": max(5, math.ceil(seconds + 6))}})
    return code, tv, ds


async def main(args):
    server = None
    base = args.url
    if base is None:
        tmp = tempfile.mkdtemp(prefix="sketch-bench-")
        server = Daphne(tmp, {"PARTYHUB_ROOMS_PER_MINUTE": "1000", "PARTYHUB_JOINS_PER_MINUTE": "10000",
                              "PARTYHUB_SOCKETS_PER_ADDRESS": "1000000",
                              "TIMEKEEPER_INTERVAL": "0.1"}).migrate().start()
        base = server.base
    try:
        rooms = [await room(base, args.drawers, args.seconds) for _ in range(args.rooms)]
        everyone = [d for _, _, ds in rooms for d in ds]
        await asyncio.gather(*(d.prepare() for d in everyone))
        t0 = time.perf_counter()
        await asyncio.gather(*(d.draw(args.seconds, args.rate) for d in everyone))
        elapsed = time.perf_counter() - t0
        await asyncio.sleep(2.0)                           # the last acknowledgements
        finals = []
        for code, tv, ds in rooms:                         # the round runs out: absorbed boards
            end = time.monotonic() + args.seconds + 30
            while not (tv.view["game"] and tv.view["game"]["phase"] == "guessing"):
                if time.monotonic() > end:
                    raise SystemExit(f"room {code}: the guessing round never came")
                tv.got_view.clear()
                try:
                    await asyncio.wait_for(tv.got_view.wait(), 5)
                except asyncio.TimeoutError:
                    pass
            finals.append((tv, ds))
        report(args, rooms, everyone, finals, elapsed)
        for _, tv, ds in rooms:
            for d in [tv] + ds:
                await d.ws.close()
    finally:
        if server:
            server.kill()


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(math.ceil(q * len(values))) - 1)]


def report(args, rooms, everyone, finals, elapsed):
    acks = [a for d in everyone for a in d.acks]
    sent = sum(d.batches for d in everyone)
    errors: dict = {}
    for d in everyone:
        for k, v in d.errors.items():
            errors[k] = errors.get(k, 0) + v
    points_sent = points_absorbed = lost = 0
    for tv, ds in finals:
        boards = {(b["player"], b["board"]): b for b in tv.view["game"]["boards"]}
        for d in ds:
            for board, n in d.points.items():
                got = sum(len(s["p"]) // 2 for s in boards[(d.id, board)].get("strokes", []))
                points_sent += n
                points_absorbed += got
                lost += max(0, n - got)
    tv_view = len(json.dumps({"t": "view", "d": finals[0][0].view}, ensure_ascii=False,
                             separators=(",", ":")).encode())
    rows = [
        ("rooms x drawers", f"{args.rooms} x {args.drawers}"),
        ("batches/s per drawer (target)", f"{args.rate}"),
        ("sending time", f"{elapsed:.1f} s (target {args.seconds} s)"),
        ("batches sent", f"{sent} ({sent / elapsed:.0f}/s overall)"),
        ("acknowledged", f"{len(acks)} ({sent - len(acks)} missing)"),
        ("ack p50 / p95 / p99 / max", f"{pct(acks, .5):.1f} / {pct(acks, .95):.1f} / "
                                      f"{pct(acks, .99):.1f} / {max(acks or [0]):.1f} ms"),
        ("refused", json.dumps(errors) if errors else "none"),
        ("points sent", str(points_sent)),
        ("points absorbed at round end", str(points_absorbed)),
        ("lost points", str(lost)),
        ("TV view, guessing round", f"{tv_view / 1024:.0f} KiB for {sum(len(d.points) for d in everyone) // len(finals)} drawn boards"),
    ]
    width = max(len(k) for k, _ in rows)
    print()
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    print()
    if lost or sent != len(acks):
        print("LOST STROKES" if lost else "MISSING ACKNOWLEDGEMENTS")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=10)
    ap.add_argument("--drawers", type=int, default=8)
    ap.add_argument("--rate", type=float, default=20.0)
    ap.add_argument("--seconds", type=float, default=10.0, help="sending time (issue 6: 60)")
    ap.add_argument("--url", default=None, help="a running server instead of a fresh daphne")
    asyncio.run(main(ap.parse_args()))
