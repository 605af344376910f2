"""Jinx: pick -> TV latency with many rooms at once against one daphne.

    python -m bench.jinx_latency                     # 1, 10, 30 rooms, 10 s each; prints a table
    python -m bench.jinx_latency --rooms 1,5 --seconds 5 --write   # and update docs/performance.md

Each room has a TV and five phones (the active player and four guessers) playing real turns:
the clue, then the guessers pick one after another (three wrong cards, then the target), the
1-second reveal, the next turn; a finished game is restarted with "again". The latency of a
pick is from the moment its frame is sent to the moment the TV's socket holds a view with that
finger on the card (or, for the right pick, the reveal). Client and server share the machine.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import uuid
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.servers import Server, cpu_seconds, machine, scratch_dir  # noqa: E402
from bench.stats import summarize  # noqa: E402
from bench.report import write_section  # noqa: E402

START, END = "<!-- jinx:start -->", "<!-- jinx:end -->"
PLAYERS = 5


def post(url, body):
    import urllib.request
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


class Sock:
    """A socket that keeps the newest view and wakes waiters on every frame."""

    def __init__(self, base, code, token, on_view=None):
        self.url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}?token={token}"
        self.view, self.v = None, -1
        self.changed = asyncio.Event()
        self.on_view = on_view

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=2 ** 22, open_timeout=30)
        self.task = asyncio.create_task(self._read())
        await self.until(lambda v: True)
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                f = json.loads(raw)
                if f["t"] == "view" and f["v"] > self.v:
                    self.v, self.view = f["v"], f["d"]
                    if self.on_view:
                        self.on_view(self.view, now)
                self.changed.set()
        except websockets.ConnectionClosed:
            pass

    async def until(self, pred, timeout=30):
        end = time.monotonic() + timeout
        while not (self.view is not None and pred(self.view)):
            self.changed.clear()
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(json.dumps(self.view)[:300])
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return self.view

    async def act(self, d):
        await self.ws.send(json.dumps({"t": "act", "id": uuid.uuid4().hex, "d": d}))

    async def close(self):
        await self.ws.close()


class Room:
    def __init__(self, base, rnd):
        self.base, self.rnd = base, rnd
        self.pending = {}        # (turn, slot) -> send time
        self.samples = []        # ms
        self.recording = False

    def tv_view(self, view, now):
        g = view.get("game")
        if not g or not self.pending:
            return
        seen = set()
        for slot, f in enumerate(g.get("fingers") or []):
            if f is not None:
                seen.add((g["turn"], slot))
        if g["phase"] in ("reveal", "over") and g.get("last"):
            seen |= {(g["last"]["turn"], p["slot"]) for p in g["last"]["picks"]}
        for key in list(self.pending):
            if key in seen:
                sent = self.pending.pop(key)
                if self.recording:
                    self.samples.append((now - sent) * 1000)

    async def setup(self):
        room = await asyncio.to_thread(post, self.base + "/api/rooms", {})
        self.code = room["code"]
        seats = []
        for i in range(PLAYERS):
            seats.append(await asyncio.to_thread(post, f"{self.base}/api/rooms/{self.code}/join",
                                                 {"name": f"p{i}"}))
        self.tv = await Sock(self.base, self.code, room["host_token"], self.tv_view).open()
        self.phones = {s["player_id"]: await Sock(self.base, self.code, s["token"]).open() for s in seats}
        await self.tv.act({"type": "start", "game": "jinx",
                           "options": {"first_player": "first_seat", "next_turn_seconds": 1}})

    async def play(self, stop):
        while time.monotonic() < stop:
            view = await self.tv.until(lambda v: v["room"]["phase"] == "over" or
                                       (v["game"] and v["game"]["phase"] == "clue"))
            if view["room"]["phase"] == "over":
                await self.tv.act({"type": "again"})
                await self.tv.until(lambda v: v["room"]["phase"] == "playing" and v["game"]["phase"] == "clue")
                continue
            turn, active = view["game"]["turn"], view["game"]["active"]
            a = await self.phones[active].until(lambda v: v["game"] and v["game"]["turn"] == turn and "target" in v["game"])
            target = a["game"]["target"]
            await self.phones[active].act({"type": "clue", "text": "bench"})
            guessers = [p for p in self.phones if p != active]
            for p in guessers:
                await self.phones[p].until(lambda v: v["game"] and v["game"]["phase"] == "race" and v["game"]["turn"] == turn)
            wrong = self.rnd.sample([s for s in range(9) if s != target], len(guessers) - 1)
            for p, slot in zip(guessers, wrong + [target]):
                self.pending[(turn, slot)] = time.perf_counter()
                await self.phones[p].act({"type": "pick", "slot": slot})
                await self.tv.until(lambda v, slot=slot: (turn, slot) not in self.pending)
            await self.tv.until(lambda v: v["game"] is None or v["game"]["turn"] != turn or v["room"]["phase"] == "over", 60)

    async def close(self):
        for s in [self.tv, *self.phones.values()]:
            await s.close()


async def measure(base, rooms, seconds, warmup, seed):
    rnd = random.Random(seed)
    rs = [Room(base, random.Random(rnd.random())) for _ in range(rooms)]
    for r in rs:
        await r.setup()
    stop = time.monotonic() + warmup + seconds
    tasks = [asyncio.create_task(r.play(stop)) for r in rs]
    await asyncio.sleep(warmup)
    for r in rs:
        r.recording = True
    await asyncio.gather(*tasks)
    for r in rs:
        await r.close()
    return [x for r in rs for x in r.samples]


def table(rows):
    head = "| rooms | sockets | picks | picks/s | p50 ms | p95 ms | p99 ms | max ms | server CPU |"
    lines = [head, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        s = r["stats"]
        lines.append(f"| {r['rooms']} | {r['rooms'] * (PLAYERS + 1)} | {s['n']} | {r['rate']:.1f} | "
                     f"{s['p50']} | {s['p95']} | {s['p99']} | {s['max']} | {r['cpu']:.0%} |")
    return "\n".join(lines)


def write_docs(text):
    write_section(START, END, f"{START}\n{text.rstrip()}\n{END}\n")


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.jinx_latency", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rooms", default="1,10,30")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--warmup", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--write", action="store_true", help="record the table in docs/performance.md")
    p.add_argument("--root", default=None, help="run the server from this checkout (old code)")
    p.add_argument("--profile", default=None,
                   help="py-spy each size's window to PREFIX-<rooms>.txt and print where the CPU went")
    args = p.parse_args(argv)
    load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
    server = Server("partyhub", scratch_dir() / "jinx",
                    root=Path(args.root).resolve() if args.root else ROOT).migrate().start()
    rows = []
    try:
        for n in [int(x) for x in args.rooms.split(",")]:
            t0, c0 = time.monotonic(), cpu_seconds(server.pid)
            if args.profile:
                server.profile_start(Path(f"{args.profile}-{n}.txt"), args.warmup + args.seconds)
            ms = asyncio.run(measure(server.base, n, args.seconds, args.warmup, args.seed))
            wall, cpu = time.monotonic() - t0, cpu_seconds(server.pid) - c0
            if args.profile:
                from bench.profile import summarize_profile
                server.profile_stop()
                print(f"{n} rooms, profile: {summarize_profile(Path(f'{args.profile}-{n}.txt'))}",
                      file=sys.stderr)
            rows.append({"rooms": n, "stats": summarize(ms), "rate": len(ms) / args.seconds,
                         "cpu": cpu / wall})
            print(f"{n} rooms: {summarize(ms)}", file=sys.stderr)
    finally:
        server.kill()
    m = machine()
    text = "\n".join([
        "## jinx", "",
        "Pick -> TV latency: from sending a `pick` frame to the TV's socket holding the view with "
        "that finger on the card (or the reveal, for the right pick). One daphne (SQLite, in-memory "
        "channel layer); each room is a TV and five phones playing real turns (clue, three wrong "
        f"picks and the right one, the 1 s reveal). {args.seconds:.0f} s per line after "
        f"{args.warmup:.0f} s of warm-up; the bench client runs on the same machine.", "",
        f"Machine: {m.get('cpu', '?')}, {m.get('nproc', '?')} cores, Python {m.get('python', '?')}. "
        f"Command: `python -m bench.jinx_latency --rooms {args.rooms} --seconds {args.seconds:g}"
        f"{' --write' if args.write else ''}`. Load average when it started: {load}.", "",
        table(rows), ""])
    print(text)
    if args.write:
        write_docs(text)
    return rows


if __name__ == "__main__":
    main()
