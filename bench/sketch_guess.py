"""Sketch: the bytes each socket receives for one guess in a guessing round (issue 17).

    python -m bench.sketch_guess                          # 8 players, 8 and 16 drawn boards
    python -m bench.sketch_guess --root /tmp/main-copy    # the same against another checkout

An outside client of the public protocol against one daphne (SQLite in a scratch folder): a TV
and 8 phones. In the drawing round the phones put words on 8 (or 16) boards in all and draw
each with `--points` points (stroke batches of 200, paced inside the stream budget). When the
guessing round comes, one phone makes a wrong guess, then another the right one (the word is
read from the drawer's own view); for each, every socket's received bytes are counted (the
frames' UTF-8 payloads, no compression offered) from the send until every socket holds the
new version and nothing more comes for `--quiet` seconds. Last, a phone and the TV reconnect:
the bytes of their first frames show every drawing coming again. With `--cpu-guesses N`, N
more wrong guesses are timed first: the server's CPU time per guess (/proc) and the wall time
until every socket has its view. The client resolves the
drawing references of `blobs` frames (partyhub/blobs.py) when the server sends them; against
a server without them it reads whole views.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import time
import uuid
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.jinx_latency import post  # noqa: E402
from bench.servers import Server, cpu_seconds, machine, scratch_dir  # noqa: E402
from partyhub.blobs import Held  # noqa: E402

PLAYERS = 8
BATCH = 200


class Sock:
    """One socket: the newest view (drawings resolved), and every frame's bytes."""

    def __init__(self, base, code, token, name):
        self.url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}?token={token}"
        self.name, self.token = name, token
        self.view, self.version, self.held = None, -1, Held()
        self.bytes, self.frames, self.kinds = 0, 0, {}
        self.changed = asyncio.Event()

    async def open(self):
        self.ws = await websockets.connect(self.url, max_size=2 ** 24, compression=None,
                                           open_timeout=30, ping_interval=None)
        self.reader = asyncio.create_task(self._read())
        await self.wait(lambda v: True)
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
                f = self.held.take(json.loads(raw))
                self.bytes += size
                self.frames += 1
                self.kinds[f["t"]] = self.kinds.get(f["t"], 0) + size
                if f["t"] == "view" and f["v"] > self.version:
                    self.version, self.view = f["v"], f["d"]
                self.changed.set()
        except websockets.ConnectionClosed:
            pass

    def mark(self):
        self.bytes, self.frames, self.kinds = 0, 0, {}

    async def wait(self, pred, timeout=60):
        end = time.monotonic() + timeout
        while not (self.view is not None and pred(self.view)):
            if time.monotonic() > end:
                raise TimeoutError(f"{self.name}: v{self.version}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                pass

    async def act(self, d):
        await self.ws.send(json.dumps({"t": "act", "id": uuid.uuid4().hex[:12], "d": d}))

    async def close(self):
        await self.ws.close()
        self.reader.cancel()


def scribble(board: int, points: int, seed: int) -> list:
    """`points` points of a wavy line on `board`, as stroke batches of at most 200 points."""
    pts = [[round(0.5 + 0.45 * math.cos((i + seed * 97) / 23) * math.sin(i / 61), 3),
            round(0.5 + 0.45 * math.sin((i + seed * 31) / 17), 3)] for i in range(points)]
    return [{"type": "stroke", "board": board, "points": pts[k:k + BATCH], "color": "#000",
             "width": 4, **({"join": True} if k else {})} for k in range(0, points, BATCH)]


async def quiet(socks, version, seconds):
    """Until every socket holds `version` or newer and no frame came for `seconds`."""
    for s in socks:
        await s.wait(lambda v, s=s: s.version >= version)
    while True:
        before = sum(s.frames for s in socks)
        await asyncio.sleep(seconds)
        if sum(s.frames for s in socks) == before:
            return


async def scenario(base, boards, points, round_seconds, quiet_s, pid=None, cpu_guesses=0):
    room = post(base + "/api/rooms", {})
    code = room["code"]
    tv = await Sock(base, code, room["host_token"], "tv").open()
    phones = []
    for i in range(PLAYERS):
        seat = post(f"{base}/api/rooms/{code}/join", {"name": f"P{i}"})
        phones.append(await Sock(base, code, seat["token"], f"P{i}").open())
    await tv.act({"type": "start", "game": "sketch", "options": {"round_seconds": round_seconds}})
    for p in phones:
        await p.wait(lambda v: (v.get("game") or {}).get("phase") == "drawing")
    drawn = []                                          # (phone, board)
    for k in range(boards):
        drawn.append((phones[k % PLAYERS], k // PLAYERS))
    for p, b in drawn:
        word = next(a["word"] for a in p.view["actions"] if a["type"] == "draw" and a["board"] == b)
        await p.act({"type": "draw", "board": b, "word": word})
        await p.wait(lambda v, b=b: v["game"]["you"]["boards"][b]["word"] is not None)
    for n, (p, b) in enumerate(drawn):
        for batch in scribble(b, points, n):
            await p.act(batch)
            await asyncio.sleep(1 / 40)                 # inside the stream budget (60/s)
    await tv.wait(lambda v: v["game"]["phase"] == "guessing", timeout=round_seconds + 30)
    socks = [tv] + phones
    await quiet(socks, tv.version, quiet_s)
    sizes = sorted(len(json.dumps(b["strokes"], separators=(",", ":")))
                   for b in tv.view["game"]["boards"] if b.get("strokes"))
    out = {"boards": boards, "points": points, "drawing_bytes": sizes,
           "tv_view": len(json.dumps({"t": "view", "v": tv.version, "d": tv.view},
                                     ensure_ascii=False, separators=(",", ":")).encode())}
    guesser = phones[-1] if boards < PLAYERS else phones[0]
    owner, board = next((p, b) for p, b in drawn if p is not guesser)
    owner_id = owner.view["you"]["id"]
    if cpu_guesses:         # the server's CPU time per wrong guess, each seen by every socket
        t0, c0 = time.perf_counter(), cpu_seconds(pid)
        # a player has 5 wrong guesses per board per round (issue 31): the guesses go round
        # every (guesser, drawn board) pair but the one measured below, 5 to a pair
        pairs = [(g, p.view["you"]["id"], b) for p, b in drawn for g in phones
                 if g is not p and (g, p, b) != (guesser, owner, board)]
        assert cpu_guesses <= 5 * len(pairs), "more wrong guesses than the table allows"
        for k in range(cpu_guesses):
            v0 = tv.version
            g, who, b = pairs[k % len(pairs)]
            await g.act({"type": "guess", "player": who, "board": b, "text": f"no{k}"})
            for s in socks:
                await s.wait(lambda v, s=s: s.version > v0)
        out["cpu_ms_per_guess"] = (cpu_seconds(pid) - c0) * 1000 / cpu_guesses
        out["wall_ms_per_guess"] = (time.perf_counter() - t0) * 1000 / cpu_guesses
        await quiet(socks, tv.version, quiet_s)
    for label, text in (("wrong", "zzz-not-it"), ("right", owner.view["game"]["you"]["boards"][board]["word"])):
        for s in socks:
            s.mark()
        v0 = tv.version
        await guesser.act({"type": "guess", "player": owner_id, "board": board, "text": text})
        await quiet(socks, v0 + 1, quiet_s)
        out[label] = {"tv": tv.bytes, "players": [p.bytes for p in phones],
                      "kinds": {s.name: dict(s.kinds) for s in socks}}
    again = {}
    for s in (tv, phones[1]):
        await s.close()
        fresh = await Sock(base, code, s.token, s.name).open()
        await quiet([fresh], fresh.version, quiet_s)
        missing = fresh.held.missing
        held = sum(1 for b in fresh.view["game"]["boards"] if b.get("strokes"))
        again[s.name] = {"bytes": fresh.bytes, "boards_with_drawing": held, "unresolved": len(missing)}
        await fresh.close()
    out["reconnect"] = again
    for s in socks:
        if s not in (tv, phones[1]):
            await s.close()
    return out


def kib(n):
    return f"{n / 1024:.1f}"


def table(results, label):
    lines = [f"#### {label}", "",
             "| drawn boards | points a board | TV view | guess | TV KiB | phones KiB (min / max) | reconnect: TV KiB / phone KiB |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        for g in ("wrong", "right"):
            ps = r[g]["players"]
            lines.append(f"| {r['boards']} | {r['points']} | {kib(r['tv_view'])} KiB | {g} | "
                         f"{kib(r[g]['tv'])} | {kib(min(ps))} / {kib(max(ps))} | "
                         f"{kib(r['reconnect']['tv']['bytes'])} / {kib(r['reconnect']['P1']['bytes'])} |")
    for r in results:
        if "cpu_ms_per_guess" in r:
            lines.append(f"\n{r['boards']} boards: server CPU {r['cpu_ms_per_guess']:.2f} ms a wrong guess, "
                         f"{r['wall_ms_per_guess']:.1f} ms until all 9 sockets have it")
    return "\n".join(lines)


async def main(args):
    work = scratch_dir()
    server = Server("partyhub", work / "guess", {"TIMEKEEPER_INTERVAL": "0.1"}, root=Path(args.root))
    server.migrate().start()
    try:
        results = []
        for boards in args.boards:
            results.append(await scenario(server.base, boards, args.points, args.round_seconds,
                                          args.quiet, server.pid, args.cpu_guesses))
    finally:
        server.stop()
    print(table(results, f"{args.label} ({args.root})"))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "root": args.root,
                                               "results": results}, indent=1))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose server code runs")
    ap.add_argument("--label", default="this checkout")
    ap.add_argument("--boards", type=lambda s: [int(x) for x in s.split(",")], default=[8, 16])
    ap.add_argument("--points", type=int, default=1000, help="points drawn on each board")
    ap.add_argument("--round-seconds", type=int, default=12)
    ap.add_argument("--quiet", type=float, default=0.4)
    ap.add_argument("--cpu-guesses", type=int, default=0,
                    help="also time this many wrong guesses: the server's CPU ms per guess")
    ap.add_argument("--json", help="also write the figures to this file")
    asyncio.run(main(ap.parse_args()))
