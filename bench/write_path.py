"""The write path alone: `services.room_apply` of one game action, in-process, no sockets.

  python -m bench.write_path                       # SQLite file database
  python -m bench.write_path --pg postgres://postgres@127.0.0.1:5432/postgres
  python -m bench.write_path --profile             # cProfile's top functions too

A room of 8 seats playing the test game; each action is a `say` (the bench's action). On
PostgreSQL it measures three paths in alternating blocks: the locked transaction (BEGIN,
SELECT ... FOR UPDATE, the write, COMMIT), the unlocked conditional write that game actions
take there after reading the row, and the same write decided on the room as this process
last committed it, without the read, as a socket's action is when no newer version has
reached its process (docs/decisions.md, "The write path"). Prints p50 / p90 / p99 in ms.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup(database_url: str, data: str) -> None:
    os.environ.update({"DATABASE_URL": database_url, "PARTYHUB_DATA": data,
                       "PARTYHUB_EXTRA_APPS": "tests.testgame",
                       "DJANGO_SETTINGS_MODULE": "partyhub.settings"})
    sys.path.insert(0, str(ROOT))
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)


def _pct(xs, q):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(len(xs) * q))], 3)


def measure(actions: int, blocks: int, profile: bool) -> dict:
    from partyhub.rooms.store import rows
    from partyhub.rooms.write import services
    from partyhub.rooms.access.selectors import Actor
    room, _ = services.room_create()
    seats = [services.seat_join(room.code, f"P{i}")[1] for i in range(8)]
    services.room_apply(room.code, Actor("tv"), None,
                        {"type": "start", "game": "count", "options": {"target": 100}})
    actors = [Actor("player", s) for s in seats]
    unlocked = rows.unlocked_writes()
    # name -> (whether the unlocked write is taken, the `known` version passed)
    paths = ({"unlocked": (lambda: True, None), "committed": (lambda: True, -1),
              "locked": (lambda: False, None)} if unlocked else {"locked": (None, None)})
    times = {name: [] for name in paths}
    n = 0
    prof = None
    if profile:
        import cProfile
        prof = cProfile.Profile()
    for _ in range(blocks):
        for name, (switch, known) in paths.items():
            if switch is not None:
                rows.unlocked_writes = switch
            for _ in range(actions // blocks):
                n += 1
                t = time.perf_counter()
                if prof:
                    prof.enable()
                # the live bench's key shape (bench/load.py): "a55" reads "ass" to family mode's
                # filter (digits as letters, issue 31), and was refused at the 55th action
                services.room_apply(room.code, actors[n % 8], f"a{n}", {"type": "say", "text": f"b0n{n}"},
                                    known=known)
                if prof:
                    prof.disable()
                times[name].append((time.perf_counter() - t) * 1000)
    out = {name: {"n": len(xs), "p50": _pct(xs, .5), "p90": _pct(xs, .9), "p99": _pct(xs, .99)}
           for name, xs in times.items()}
    if prof:
        import io
        import pstats
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(25)
        out["profile"] = buf.getvalue()
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.write_path", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pg", help="PostgreSQL admin URL: a scratch database is created and dropped")
    p.add_argument("--url", help="use this database URL as it is (default: a scratch SQLite file)")
    p.add_argument("--actions", type=int, default=1200)
    p.add_argument("--blocks", type=int, default=6, help="alternations of the paths")
    p.add_argument("--profile", action="store_true")
    a = p.parse_args(argv)
    data = tempfile.mkdtemp(prefix="partyhub-writepath-")
    if a.pg:
        from bench.servers import Postgres
        pg = Postgres(a.pg).create()
        try:
            # a child process, so Django is set up once per database
            return subprocess.call([sys.executable, "-m", "bench.write_path", "--url", pg.url,
                                    "--actions", str(a.actions), "--blocks", str(a.blocks)]
                                   + (["--profile"] if a.profile else []), cwd=ROOT)
        finally:
            pg.drop()
    _setup(a.url or f"sqlite:///{data}/bench.sqlite3", data)
    return _report(measure(a.actions, a.blocks, a.profile))


def _report(res: dict) -> int:
    from django.db import connection
    print(f"room_apply on {connection.vendor} (ms)")
    for name, r in res.items():
        if name != "profile":
            print(f"  {name:9s} n={r['n']:5d}  p50 {r['p50']:7.3f}  p90 {r['p90']:7.3f}  p99 {r['p99']:7.3f}")
    if "profile" in res:
        print(res["profile"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
