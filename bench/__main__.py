"""`make bench` / `python -m bench`: the platform bench of issue 8.

  python -m bench                       # the suite (a few minutes on 2 cores), writes docs/performance.md
  python -m bench --scenario 1 --rooms 1,10 --seconds 10
  python -m bench --scenario 2          # 2 daphne over Redis + PostgreSQL (needs both running)
  python -m bench --scenario 4          # join storm: 500 joins in 10 s
  python -m bench --scenario 5          # kill -9 with 50 live rooms, time to recover
  python -m bench --scenario 6          # capacity: rooms at p99 <= 100 ms, partyhub vs bare Channels
  python -m bench --scenario 7          # the production path (issue 30): 2 daphne, Redis + PostgreSQL,
                                        # rooms routed to one process and split, vs bare-pubsub
  python -m bench --scenario 3          # sketch strokes (bench/sketch_strokes.py, another module)
  python -m bench --profile ...         # attach py-spy to the partyhub server in each window
  python -m bench --scenario 1 --baseline 0e25e41 --no-docs   # and partyhub-old: that commit's
                                        # partyhub, measured in turn with this one (issue 29)

Every latency is "action sent -> the last socket of the room holds a view reflecting it".
"""
from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from bench import report, scenarios
from bench.servers import ROOT, machine, scratch_dir

SUITE = ("1", "2", "4", "5", "6", "3")


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenario", action="append", choices=["1", "2", "3", "4", "5", "6", "7"],
                   help="run only these (repeatable); default: the suite")
    p.add_argument("--rooms", default="1,10", help="room counts for scenarios 1 and 2")
    p.add_argument("--phones", type=int, default=8, help="phones per room (plus one TV)")
    p.add_argument("--rate", type=float, default=2.0, help="actions per second per room")
    p.add_argument("--seconds", type=float, default=12.0, help="measurement time per server and size")
    p.add_argument("--warmup", type=float, default=2.0)
    p.add_argument("--rounds", type=int, default=3,
                   help="scenarios 1/2: alternate the servers this many times within --seconds")
    p.add_argument("--frame-bytes", type=int, default=600, help="baseline frame size")
    p.add_argument("--servers", default="",
                   help="for scenarios 1 and 2 (default partyhub,bare,raw; scenario 2 adds bare-pubsub)")
    p.add_argument("--cap-seconds", type=float, default=6.0, help="window of each capacity step")
    p.add_argument("--max-rooms", type=int, default=100, help="capacity search stops here")
    p.add_argument("--joins", type=int, default=500)
    p.add_argument("--join-seconds", type=float, default=10.0)
    p.add_argument("--kill-rooms", type=int, default=50)
    p.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432/postgres",
                   help="admin URL; a fresh database is created per run and dropped after")
    p.add_argument("--profile", action="store_true", help="py-spy the partyhub server")
    p.add_argument("--strokes-args", default="", help="arguments for bench/sketch_strokes.py")
    p.add_argument("--json", help="also write the raw figures here")
    p.add_argument("--baseline", metavar="REV",
                   help="scenarios 1 and 2: also measure partyhub as git revision REV has it (partyhub-old, "
                        "a worktree in the scratch folder), in the same alternating rounds as this checkout's")
    p.add_argument("--no-docs", action="store_true", help="do not touch docs/performance.md")
    a = p.parse_args(argv)
    a.workdir = scratch_dir()
    a.sizes = [int(x) for x in a.rooms.split(",") if x]
    a.kinds = tuple(k for k in a.servers.split(",") if k) or None
    a.baseline_root = baseline(a.baseline, a.workdir) if a.baseline else None
    return a


def baseline(rev: str, workdir: Path) -> Path:
    """A detached worktree of `rev` (its code, run with this checkout's interpreter and packages)."""
    where = workdir / f"baseline-{rev}"
    if not where.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), rev],
                       check=True, capture_output=True)
    return where


def with_old(a, kinds):
    return tuple(kinds) + (("partyhub-old",) if a.baseline_root else ())


async def run(a) -> dict:
    todo = a.scenario or SUITE
    res = {"machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M %Z"),
           "command": "python -m bench " + " ".join(shlex.quote(x) for x in sys.argv[1:]),
           "load": {"phones": a.phones, "rate": a.rate, "seconds": a.seconds,
                    "frame_bytes": a.frame_bytes}}
    if "1" in todo:
        res["s1"] = await scenarios.latency_suite(a, a.sizes, kinds=with_old(a, a.kinds or scenarios.KINDS))
    if "2" in todo:
        res["s2"] = await scenarios.latency_suite(a, [n for n in a.sizes if n > 1] or a.sizes,
                                                  procs=2, redis=True, pg_url=a.pg,
                                                  kinds=with_old(a, a.kinds or scenarios.KINDS_REDIS))
    if "7" in todo:
        res["s7"] = {placement: await scenarios.latency_suite(
            a, [n for n in a.sizes if n > 1] or a.sizes, procs=2, redis=True, pg_url=a.pg,
            kinds=with_old(a, a.kinds or scenarios.KINDS_PRODUCTION), routed=placement == "routed")
            for placement in ("routed", "split")}
    if "4" in todo:
        scenarios.log(f"join storm: {a.joins} joins in {a.join_seconds} s")
        res["s4"] = await scenarios.join_storm(a, a.joins, a.join_seconds)
        scenarios.log(f"  {res['s4']['failures']} failures, join p99 {res['s4']['join_ms']['p99']} ms")
    if "5" in todo:
        scenarios.log(f"kill -9 with {a.kill_rooms} live rooms")
        res["s5"] = await scenarios.kill_restart(a, a.kill_rooms)
        scenarios.log(f"  all back on the current version after {res['s5']['recovered_s']} s")
    if "6" in todo:
        res["s6"] = await scenarios.capacity(a)
    if "3" in todo:
        res["s3"] = scenarios.sketch_hook(shlex.split(a.strokes_args))
    return res


def main(argv=None) -> int:
    a = parse(sys.argv[1:] if argv is None else argv)
    try:
        res = asyncio.run(run(a))
    finally:
        if a.baseline_root:
            subprocess.run(["git", "-C", str(a.baseline_root), "worktree", "remove", "--force", str(a.baseline_root)],
                           capture_output=True)
    platform = set(res) & {"s1", "s2", "s3", "s4", "s5", "s6"}
    text = report.render(res) if platform else ""
    prod = report.render_production(res) if "s7" in res else ""
    print(text + prod)
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1, default=str))
    if not a.no_docs:
        if platform:
            report.write_docs(text)
        if prod:
            report.write_section(report.PROD_START, report.PROD_END, prod)
    return 0


if __name__ == "__main__":
    sys.exit(main())
