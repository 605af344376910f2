"""Rooms that come and go: does one server process's memory stay flat? (issue 14)

    python -m bench.room_churn                       # 2,000 short games on this checkout
    python -m bench.room_churn --baseline-root DIR   # the same on DIR's code first (another
                                                     # commit, checked out), in the same run

Each short game is what a party does with a room it never comes back to: a room is created,
its TV connects, three phones join and connect, the TV starts a game (the four games in
turn), and everybody leaves. One daphne serves it as `make run` does (SQLite, the in-memory
channel layer), with the room caches' idle expiry set to `--cache-idle` seconds.

Memory is the daphne process's RSS, read (median of 5 readings) once the idle expiry and a
sweep have passed, after the first half of the games and after the second. The figure is
the growth over the second half: after the first half every cache, allocator arena and lazy
import is warm, so what the second half adds is what rooms nobody uses cost for good.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

from bench.load import ahttp
from bench.servers import ROOT, Server, rss_bytes, scratch_dir
from tests.liveserver import Conn

GAMES = ("jinx", "association", "sketch", "klepka")
PLAYERS = 3


async def short_game(base: str, game: str) -> None:
    status, room = await ahttp("POST", base + "/api/rooms", {})
    assert status == 201, room
    code = room["code"]
    tv = await Conn(base, code, room["host_token"]).open(timeout=30)
    phones = []
    try:
        for i in range(PLAYERS):
            status, seat = await ahttp("POST", f"{base}/api/rooms/{code}/join", {"name": f"P{i}"})
            assert status == 201, seat
            phones.append(await Conn(base, code, seat["token"]).open(timeout=30))
        await tv.wait(lambda v: sum(p["connected"] for p in v["room"]["players"]) == PLAYERS, 30)
        await tv.act({"type": "start", "game": game, "options": {}})
        await tv.wait(lambda v: v["room"]["phase"] == "playing", 30)
    finally:
        for c in [tv, *phones]:
            await c.close()


async def play(base: str, games: int, parallel: int) -> float:
    """`games` short games, `parallel` at a time; returns the seconds it took."""
    t0, queue = time.monotonic(), asyncio.Queue()
    for n in range(games):
        queue.put_nowait(GAMES[n % len(GAMES)])

    async def worker():
        while not queue.empty():
            await short_game(base, queue.get_nowait())
    await asyncio.gather(*(worker() for _ in range(parallel)))
    return time.monotonic() - t0


async def settled_rss(pid: int, wait: float) -> int:
    """RSS once the idle expiry and a sweep have passed: the median of 5 readings."""
    await asyncio.sleep(wait)
    readings = []
    for _ in range(5):
        readings.append(rss_bytes(pid))
        await asyncio.sleep(0.5)
    return int(statistics.median(readings))


async def measure(root: Path, games: int, parallel: int, cache_idle: float, workdir: Path) -> dict:
    env = {"PARTYHUB_ROOM_CACHE_IDLE_SECONDS": str(cache_idle), "LOG_LEVEL": "ERROR"}
    server = Server("partyhub", workdir / root.name, env, root=root).migrate().start()
    wait = cache_idle + 2 * 2.0 + 1     # the idle expiry, then the timekeeper's sweep (2 s)
    try:
        start = rss_bytes(server.pid)
        first_s = await play(server.base, games // 2, parallel)
        half = await settled_rss(server.pid, wait)
        second_s = await play(server.base, games - games // 2, parallel)
        end = await settled_rss(server.pid, wait)
    finally:
        server.stop()
    mib = 1024 * 1024
    return {"root": str(root), "games": games, "parallel": parallel, "cache_idle_s": cache_idle,
            "rss_start_mib": round(start / mib, 1), "rss_half_mib": round(half / mib, 1),
            "rss_end_mib": round(end / mib, 1),
            "growth_second_half_mib": round((end - half) / mib, 2),
            "kib_per_room_second_half": round((end - half) / 1024 / (games - games // 2), 2),
            "seconds": [round(first_s, 1), round(second_s, 1)]}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.room_churn", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--parallel", type=int, default=8)
    p.add_argument("--cache-idle", type=float, default=3.0)
    p.add_argument("--baseline-root", type=Path, help="measure this checkout's code first")
    p.add_argument("--json", type=Path, help="also write the figures here")
    a = p.parse_args(argv)
    workdir = scratch_dir()
    results = []
    for root in ([a.baseline_root.resolve()] if a.baseline_root else []) + [ROOT]:
        results.append(asyncio.run(measure(root, a.games, a.parallel, a.cache_idle, workdir)))
        print(json.dumps(results[-1]), flush=True)
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
