"""Benchmark of sketch's drawing streams: many rooms of drawers sending stroke batches.

Run: .venv/bin/python bench/sketch_strokes.py [--rooms 10] [--drawers 8] [--rate 20]
                                              [--seconds 10] [--url http://host:port]
                                              [--root CHECKOUT] [--profile OUT] [--json OUT]
Issue 6 asks for 10 rooms x 8 drawers x 20 batches a second for a minute: --seconds 60.
Without --url it starts its own daphne (SQLite in a temporary directory) from this checkout,
or from --root (another commit's code, for old and new run alternately on one machine);
--profile attaches py-spy to it for the sending time and prints where the CPU went.

Each drawer puts words on its six boards and sends `stroke` batches (3 points each) at
`rate` per second, a new line every 10 batches, moving to the next board every 100. It
measures the acknowledgement time of every batch: the frame that acknowledges it arriving
back (a `stream` frame naming the batch's id in `ack`; before issue 17, the `stroke` relay
frame carrying the id). That frame is also where the stroke is seen: during a drawing round
a stroke goes to the drawer's own screens only (the TV sees the drawings in the guessing
round's view), so "seen" = acknowledged. It also counts the frames each drawer receives.
When the sending stops the drawing round runs out; the TV's view of the guessing round holds
every board as the server absorbed it, and its points are compared with what was sent
(lost = acknowledged but not in the absorbed boards; extra = absorbed but never acknowledged,
which must be 0 too). It also times the reveal: from the drawing round's end (its deadline) to
each socket holding the guessing round's view with every drawing (the TV's is the "stroke on
the TV" of issue 17; the timekeeper ticks every 0.1 s here). Prints a table; also the view
sizes.
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

from bench.profile import summarize_profile  # noqa: E402
from bench.servers import Server  # noqa: E402
from partyhub.blobs import Held  # noqa: E402
from tests.liveserver import http  # noqa: E402

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
        self.accepted: dict = {}        # board -> points of acknowledged batches
        self.board_of: dict = {}        # ref -> board
        self.batches = 0
        self.frames = 0                 # stream frames received (relays and acknowledgements)
        self.got_view = asyncio.Event()
        self.round_end = None           # the drawing round's deadline (server epoch ms)
        self.shown_at = None            # when the guessing round's view (every drawing) came

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
                    phase = (f["d"].get("game") or {}).get("phase")
                    if phase == "drawing" and f["d"].get("deadline"):
                        self.round_end = f["d"]["deadline"]
                    elif phase == "guessing" and self.shown_at is None:
                        self.shown_at = time.time() * 1000    # same machine: the server's clock
                    self.got_view.set()
                elif f["t"] == "stream":        # one frame a tick: items and acknowledgements
                    self.frames += 1
                    for ref in f["d"].get("ack", ()):
                        self._ack(ref, now)
                elif f["t"] == "stroke":        # the frame before issue 17: one per batch
                    self.frames += 1
                    self._ack(f.get("id"), now)
                elif f["t"] == "error":
                    code = f["d"].get("code")
                    self.errors[code] = self.errors.get(code, 0) + 1
                    self.sent_at.pop(f["d"].get("ref"), None)
                    self.board_of.pop(f["d"].get("ref"), None)
        except websockets.ConnectionClosed:
            pass

    def _ack(self, ref, now):
        sent = self.sent_at.pop(ref, None)
        board = self.board_of.pop(ref, None)
        if board is not None:
            self.accepted[board] = self.accepted.get(board, 0) + POINTS
        if sent is not None:
            self.acks.append((now - sent) * 1000)

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
        # the words are committed (and every view of them sent) before the first stroke
        while not all(b.get("word") for b in self.view["game"]["you"]["boards"]):
            self.got_view.clear()
            await asyncio.wait_for(self.got_view.wait(), 60)

    async def settled(self):
        """Until no view has come for a second: the room's views of the words are all out."""
        while True:
            self.got_view.clear()
            try:
                await asyncio.wait_for(self.got_view.wait(), 1.0)
            except asyncio.TimeoutError:
                return

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
            self.board_of[ref] = board
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
                   "options": {"round_seconds": max(5, math.ceil(seconds + 30))}})
    return code, tv, ds


async def main(args):
    server = None
    base = args.url
    if base is None:
        tmp = tempfile.mkdtemp(prefix="sketch-bench-")
        root = Path(args.root).resolve() if args.root else Path(__file__).resolve().parent.parent
        server = Server("partyhub", Path(tmp), {"TIMEKEEPER_INTERVAL": "0.1"}, root=root).migrate().start()
        base = server.base
    try:
        rooms = [await room(base, args.drawers, args.seconds) for _ in range(args.rooms)]
        everyone = [d for _, _, ds in rooms for d in ds]
        await asyncio.gather(*(d.prepare() for d in everyone))
        await asyncio.gather(*(d.settled() for d in everyone))
        profiled = bool(server and args.profile and server.profile_start(Path(args.profile), args.seconds))
        cpu0 = server and server_cpu(server)
        mine0 = time.process_time()
        t0 = time.perf_counter()
        await asyncio.gather(*(d.draw(args.seconds, args.rate) for d in everyone))
        elapsed = time.perf_counter() - t0
        cpu = server and (server_cpu(server) - cpu0) / elapsed
        args.client_cpu = (time.process_time() - mine0) / elapsed
        if profiled:
            server.profile_stop()
        end = time.monotonic() + 60                        # the last answers (ack or error)
        while any(d.sent_at for d in everyone) and time.monotonic() < end:
            await asyncio.sleep(0.2)
        # the server's CPU for everything it answered (acknowledged or refused): robust to a
        # busy machine, where the latencies say more about the neighbours than the server
        answered = sum(len(d.acks) + sum(d.errors.values()) for d in everyone)
        args.cpu_per_k = server and 1000 * (server_cpu(server) - cpu0) / max(1, answered)
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
        report(args, rooms, everyone, finals, elapsed, cpu)
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


def server_cpu(server) -> float:
    from bench.servers import cpu_seconds
    return cpu_seconds(server.pid)


def report(args, rooms, everyone, finals, elapsed, cpu=None):
    acks = [a for d in everyone for a in d.acks]
    sent = sum(d.batches for d in everyone)
    errors: dict = {}
    for d in everyone:
        for k, v in d.errors.items():
            errors[k] = errors.get(k, 0) + v
    points_sent = points_absorbed = lost = extra = 0
    for tv, ds in finals:
        boards = {(b["player"], b["board"]): b for b in tv.view["game"]["boards"]}
        for d in ds:
            for board, n in d.points.items():
                got = sum(len(s["p"]) // 2 for s in boards[(d.id, board)].get("strokes", []))
                points_sent += n
                points_absorbed += got
                ok = d.accepted.get(board, 0)
                lost += max(0, ok - got)
                extra += max(0, got - ok)
    tv_view = len(json.dumps({"t": "view", "d": finals[0][0].view}, ensure_ascii=False,
                             separators=(",", ":")).encode())
    # the round's end -> a socket holds the guessing round's view with every drawing resolved
    # (its blobs frame came first): the TVs, and every socket of the rooms
    shown_tv = [tv.shown_at - tv.round_end for tv, _ in finals if tv.shown_at and tv.round_end]
    shown_all = [d.shown_at - d.round_end for tv, ds in finals for d in [tv, *ds]
                 if d.shown_at and d.round_end]
    rows = [
        ("rooms x drawers", f"{args.rooms} x {args.drawers}"),
        ("batches/s per drawer (target)", f"{args.rate}"),
        ("sending time", f"{elapsed:.1f} s (target {args.seconds} s)"),
        ("batches sent", f"{sent} ({sent / elapsed:.0f}/s overall)"),
        ("acknowledged", f"{len(acks)} ({sent - len(acks)} missing)"),
        ("ack p50 / p95 / p99 / max", f"{pct(acks, .5):.1f} / {pct(acks, .95):.1f} / "
                                      f"{pct(acks, .99):.1f} / {max(acks or [0]):.1f} ms"),
        ("refused", json.dumps(errors) if errors else "none"),
        ("stream frames per drawer per second", f"{sum(d.frames for d in everyone) / len(everyone) / elapsed:.1f}"),
        ("server CPU per 1000 batches answered", "-" if not getattr(args, "cpu_per_k", None)
                                                 else f"{args.cpu_per_k:.2f} s"),
        ("CPU while sending: server / this client", ("-" if cpu is None else f"{100 * cpu:.0f}%")
                                                    + f" / {100 * getattr(args, 'client_cpu', 0):.0f}%"),
        ("points sent", str(points_sent)),
        ("points absorbed at round end", str(points_absorbed)),
        ("points acknowledged", str(sum(n for d in everyone for n in d.accepted.values()))),
        ("lost points (acknowledged, not absorbed)", str(lost)),
        ("extra points (absorbed, not acknowledged)", str(extra)),
        ("round end -> TV holds every drawing: p50 / max", f"{pct(shown_tv, .5):.0f} / {max(shown_tv or [0]):.0f} ms "
                                                          f"({len(shown_tv)} TVs)"),
        ("round end -> every socket holds them: p50 / p99 / max", f"{pct(shown_all, .5):.0f} / {pct(shown_all, .99):.0f} / "
                                                                 f"{max(shown_all or [0]):.0f} ms ({len(shown_all)} sockets)"),
        ("TV view, guessing round", f"{tv_view / 1024:.0f} KiB for {sum(len(d.points) for d in everyone) // len(finals)} drawn boards"),
    ]
    width = max(len(k) for k, _ in rows)
    print()
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    print()
    if lost:
        print("LOST STROKES")
    if extra:
        print("ABSORBED STROKES THAT WERE NEVER ACKNOWLEDGED")
    if sent != len(acks) + sum(errors.values()):
        print("UNANSWERED BATCHES")
    if args.profile:
        prof = summarize_profile(Path(args.profile))
        print("profile (py-spy, % of busy samples):", json.dumps(prof.get("buckets", prof)))
        for name, share in prof.get("self", [])[:10]:
            print(f"    {share:5.1f}%  {name}")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "rooms": args.rooms, "drawers": args.drawers, "rate": args.rate, "seconds": elapsed,
            "sent": sent, "acked": len(acks), "p50": pct(acks, .5), "p95": pct(acks, .95),
            "p99": pct(acks, .99), "max": max(acks or [0]), "refused": errors, "lost": lost, "extra": extra,
            "points_sent": points_sent, "points_absorbed": points_absorbed, "cpu": cpu,
            "client_cpu": getattr(args, "client_cpu", None), "cpu_per_k": getattr(args, "cpu_per_k", None),
            "frames_per_drawer_s": sum(d.frames for d in everyone) / len(everyone) / elapsed,
            "shown_tv_ms": shown_tv, "shown_all_p50": pct(shown_all, .5),
            "shown_all_p99": pct(shown_all, .99), "shown_all_max": max(shown_all or [0])}))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=10)
    ap.add_argument("--drawers", type=int, default=8)
    ap.add_argument("--rate", type=float, default=20.0)
    ap.add_argument("--seconds", type=float, default=10.0, help="sending time (issue 6: 60)")
    ap.add_argument("--url", default=None, help="a running server instead of a fresh daphne")
    ap.add_argument("--root", default=None, help="run the server from this checkout (old code)")
    ap.add_argument("--profile", default=None, help="py-spy raw profile of the server to this file")
    ap.add_argument("--json", default=None, help="also write the figures here")
    asyncio.run(main(ap.parse_args()))
