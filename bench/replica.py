"""What one replica holds on the production path (issue 30, part 5; docs/scaling.md).

    python -m bench.replica                           # steps of 25..150 rooms, three 6 s windows each
    python -m bench.replica --steps 20,40 --windows 1 --json /tmp/replica.json

One daphne process (partyhub.edge, as the image runs it) on PostgreSQL and Redis with
channels_redis's pub/sub layer, as compose and the chart run it. Rooms of a TV and 8 phones,
each room playing at 2 actions/s (bench/load.py: the count game's `say`, every action a view
to each of the 9 sockets), are added step by step, the rooms kept, until the p99 of
"action sent -> the last socket of the room holds the view it made" passes 100 ms or an
action is lost. In each step's window: the latency, the server's CPU and memory, and what
PostgreSQL and Redis did per action (bench/costs.py). Run it on a machine and a Redis and
PostgreSQL nothing else uses meanwhile.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys

from bench.costs import Costs, per, tables, top_redis
from bench.load import LoadGen, PartyhubTarget
from bench.scenarios import REDIS_PH, log, start_servers
from bench.servers import Postgres, machine, rss_bytes, scratch_dir

LIMIT_MS = 100.0


async def steps(a) -> dict:
    pg = Postgres(a.pg).create()
    servers = []
    try:
        servers = start_servers("partyhub", scratch_dir(), 1, redis=True, pg=pg)
        gen = LoadGen(PartyhubTarget([servers[0].base], a.phones), rate=a.rate)
        costs = Costs(a.pg, pg.name, REDIS_PH)
        rows, best, sizes = [], 0, {}
        try:
            for n in a.steps:
                await gen.add_rooms(n - len(gen.rooms))
                await asyncio.sleep(a.warmup)
                before = costs.snap()
                ws = [await gen.window(a.seconds, [servers[0].pid]) for _ in range(a.windows)]
                r = gen.figures(ws)
                r["window_p99"] = [gen.figures([w])["p99"] for w in ws]
                r["rss_mb"] = round(rss_bytes(servers[0].pid) / 2 ** 20, 1)
                r["per_action"] = per(before, costs.snap(), r["actions"])
                r["actions_s"] = round(r["actions"] / r["seconds"], 1)
                rows.append(r)
                ok = r["p99"] is not None and r["p99"] <= LIMIT_MS and r["lost"] == 0
                c = r["per_action"]
                log(f"{n} rooms ({r['sockets']} sockets, {r['actions_s']} actions/s): p50 {r['p50']} "
                    f"p99 {r['p99']} ms (windows {r['window_p99']}), lost {r['lost']}, cpu {r['server_cpu_pct']}%, rss {r['rss_mb']} MB; "
                    f"per action: {c.get('pg_xact_commit', 0)} commits, {c['pg_rows_written']} rows written, "
                    f"{c.get('pg_wal_bytes', 0)} WAL bytes; Redis {c['redis_calls']} calls ({top_redis(c)}), "
                    f"{c.get('redis_bytes_out', 0)} bytes out -> {'ok' if ok else 'over'}")
                if not ok:
                    break
                best = n
            sizes = tables(pg.url)
        finally:
            await gen.close()
    finally:
        for s in servers:
            s.stop()
        pg.drop()
    return {"machine": machine(), "rooms_held": best, "limit_ms": LIMIT_MS, "steps": rows, "tables": sizes,
            "load": {"phones": a.phones, "rate": a.rate, "seconds": a.seconds}}


def table(res: dict) -> str:
    """The steps as a markdown table (docs/scaling.md)."""
    lines = ["| rooms | sockets | actions/s | p50 / p99 ms | lost | server CPU | RSS MB | PG commits / rows written / WAL bytes per action | Redis calls per action (most called) | Redis bytes out per action |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in res["steps"]:
        c = r["per_action"]
        lines.append(f"| {r['rooms']} | {r['sockets']} | {r['actions_s']} | {r['p50']} / {r['p99']} | {r['lost']} "
                     f"| {r['server_cpu_pct']}% | {r['rss_mb']} | {c.get('pg_xact_commit', 0)} / {c['pg_rows_written']} "
                     f"/ {c.get('pg_wal_bytes', 0):g} | {c['redis_calls']} ({top_redis(c, 3)}) | {c.get('redis_bytes_out', 0):g} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m bench.replica", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", default="25,50,75,100,125,150", help="room counts, rising")
    p.add_argument("--phones", type=int, default=8)
    p.add_argument("--rate", type=float, default=2.0, help="actions per second per room")
    p.add_argument("--seconds", type=float, default=6.0, help="each measurement window")
    p.add_argument("--windows", type=int, default=3, help="windows in each step (its figures: all of them)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds between adding a step's rooms and measuring")
    p.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres",
                   help="admin URL; a fresh database is made for the run and dropped after")
    p.add_argument("--json", help="also write the figures here")
    a = p.parse_args(argv)
    a.steps = [int(x) for x in a.steps.split(",") if x]
    res = asyncio.run(steps(a))
    print(f"\none replica holds {res['rooms_held']} rooms at p99 <= {LIMIT_MS:g} ms\n")
    print(table(res))
    print("\ntables at the end (rows, bytes with indexes, bytes a row):")
    for name, (n, size) in res["tables"].items():
        print(f"  {name}: {n} rows, {size} bytes, {size // max(n, 1)} bytes a row")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
