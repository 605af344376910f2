"""A bot soak: several rooms, each playing one game back to back ("again") with
partyhub.bots, on one daphne over PostgreSQL and Redis. Samples the daphne process's RSS
(/proc/<pid>/status VmRSS) and the database's connections (pg_stat_activity for the test
database) every `every` seconds.

Warm-up: the first `warmup` seconds are not judged (imports, word lists and dictionaries
loaded on first use, caches and the first game of each kind). The baseline is the median
RSS of the samples in the `window` seconds after the warm-up; the end is the median of the
last `window` seconds. Growth = end / baseline - 1.
"""
from __future__ import annotations

import asyncio
import random
import statistics
import time

from partyhub.bots import client as botclient
from tests.liveserver import Conn, Daphne, http

ROOMS = [("count", 3, {"target": 12}), ("sketch", 3, {"round_seconds": 5}),
         ("jinx", 4, {"pick_seconds": 3, "next_turn_seconds": 1}),
         ("klepka", 3, {"table": "6x8", "reveal_seconds": 0}),
         ("association", 3, {"target_score": 6, "submit_seconds": 5, "vote_seconds": 5, "reveal_seconds": 2})]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def db_connections(admin_url: str, name: str) -> int:
    import psycopg
    with psycopg.connect(admin_url, autocommit=True) as db:
        return db.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                          (name,)).fetchone()[0]


async def _room(base, game, players, options, seed, stats):
    status, room = http("POST", base + "/api/rooms", {})
    assert status == 201, room
    code = room["code"]
    tv = await Conn(base, code, room["host_token"]).open()
    rnd = random.Random(seed)
    tasks = []
    for i in range(players):
        seat = await botclient.join(base, code, rnd)
        tasks.append(asyncio.create_task(botclient.play(base, code, seat["token"], random.Random(seed * 100 + i),
                                                   think=(0.05, 0.3))))
    await tv.wait(lambda v: sum(p["connected"] for p in v["room"]["players"]) == players)
    await tv.act({"type": "start", "game": game, "options": options})
    try:
        while True:
            await tv.wait(lambda v: v["room"]["phase"] == "playing", timeout=30)
            await tv.wait(lambda v: v["room"]["phase"] == "over", timeout=3600)
            stats[game] = stats.get(game, 0) + 1
            await tv.act({"type": "again"})
    finally:
        for t in tasks:
            t.cancel()


async def soak(tmp_path, pg_url, admin_url, redis_url, seconds, warmup, window, every=2.0) -> dict:
    name = pg_url.rsplit("/", 1)[1]
    env = {"DATABASE_URL": pg_url, "REDIS_URL": redis_url, "PARTYHUB_JOINS_PER_MINUTE": "1000",
           "PARTYHUB_ROOMS_PER_MINUTE": "1000", "TIMEKEEPER_INTERVAL": "0.1"}
    server = Daphne(tmp_path, env).migrate().start()
    stats, samples, rooms = {}, [], []
    try:
        rooms = [asyncio.create_task(_room(server.base, g, n, o, i + 1, stats))
                 for i, (g, n, o) in enumerate(ROOMS)]
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            await asyncio.sleep(every)
            for r in rooms:
                if r.done() and r.exception():
                    raise r.exception()
            samples.append((round(time.monotonic() - t0, 1), rss_kib(server.proc.pid),
                            db_connections(admin_url, name)))
        judged = [s for s in samples if s[0] >= warmup]
        base = statistics.median(s[1] for s in judged if s[0] < warmup + window)
        end = statistics.median(s[1] for s in samples if s[0] >= samples[-1][0] - window)
        return {"seconds": seconds, "warmup": warmup, "window": window, "rooms": len(ROOMS),
                "games_finished": dict(stats), "rss_start_kib": samples[0][1],
                "rss_baseline_kib": base, "rss_end_kib": end, "rss_max_kib": max(s[1] for s in samples),
                "growth": round(end / base - 1, 4),
                "db_connections_max": max(s[2] for s in samples),
                "db_connections_after_warmup": sorted({s[2] for s in judged}),
                "samples": len(samples)}
    finally:
        for r in rooms:
            r.cancel()
        if rooms:
            await asyncio.wait(rooms, timeout=10)   # never wait on a task that ignores its cancel
        server.kill()
