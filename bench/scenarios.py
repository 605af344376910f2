"""The bench scenarios of issue 8. Each returns a dict of figures (see bench/report.py)."""
from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path

from bench.load import EchoTarget, LoadGen, PartyhubTarget, ahttp, now, ws_base
from bench.profile import summarize_profile
from bench.servers import ROOT, Postgres, Server, cpu_seconds, redis_flush, rss_bytes, scratch_dir
from bench.stats import summarize

REDIS_PH = "redis://127.0.0.1:6379/13?socket_timeout=30"      # bench-only Redis databases (tests use others)
REDIS_BARE = "redis://127.0.0.1:6379/14?socket_timeout=30"
REDIS_OLD = "redis://127.0.0.1:6379/12?socket_timeout=30"      # partyhub-old: --baseline's server
KINDS = ("partyhub", "bare", "raw")
KINDS_REDIS = ("partyhub", "bare", "bare-pubsub", "raw")   # scenario 2: both channels_redis layers
KINDS_PRODUCTION = ("partyhub", "bare-pubsub")               # scenario 7: the layer partyhub runs on


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def start_servers(kind: str, work: Path, procs: int = 1, redis: bool = False, pg: Postgres | None = None,
                  baseline: Path | None = None):
    """`kind` partyhub-old: partyhub as the checkout `baseline` has it (python -m bench --baseline),
    with a database and a Redis database of its own."""
    env, root = {}, ROOT
    if kind.startswith("partyhub"):
        if kind == "partyhub-old":
            root, work = baseline, work / "old"
            work.mkdir(parents=True, exist_ok=True)
        env["DATABASE_URL"] = pg.url if pg else f"sqlite:///{work / 'bench.sqlite3'}"
        if redis:
            url = REDIS_OLD if kind == "partyhub-old" else REDIS_PH
            env["REDIS_URL"] = url
            redis_flush(url)
    elif kind.startswith("bare") and redis:
        env["BENCH_REDIS_URL"] = REDIS_BARE
        env["BENCH_LAYER"] = "pubsub" if kind == "bare-pubsub" else "core"
        redis_flush(REDIS_BARE)
    n = 1 if kind == "raw" else procs
    servers = [Server(kind.removesuffix("-old"), work, env, root=root) for _ in range(n)]
    servers[0].migrate()
    for s in servers:
        s.start()
    return servers


def target_for(kind: str, servers, phones: int, frame_bytes: int, routed: bool = False):
    bases = [s.base for s in servers]
    if kind.startswith("partyhub"):
        return PartyhubTarget(bases, phones, routed=routed)
    return EchoTarget(kind, bases, phones, frame_bytes, routed=routed)


async def latency_suite(a, sizes, procs=1, redis=False, pg_url=None, kinds=KINDS, routed=False) -> dict:
    """Scenarios 1, 2 and 7: the same load against partyhub and the baselines; `routed`: every
    socket of a room on one of the processes (bench.load.place), else a room's sockets split.

    Every server is up at once and measured in alternating rounds (only the measured one has
    its senders running), so noise from a shared machine falls on all of them alike."""
    res = {}
    work = scratch_dir()
    pgs = {k: Postgres(pg_url).create() for k in kinds if k.startswith("partyhub") and pg_url}
    servers = {}
    try:
        for kind in kinds:
            servers[kind] = start_servers(kind, work, procs, redis, pgs.get(kind), getattr(a, "baseline_root", None))
        for n in sizes:
            log(f"{n} room(s) x {a.phones + 1} sockets, {procs} process(es){' over Redis' if redis else ''}: "
                f"{', '.join(kinds)} in {a.rounds} alternating rounds")
            res[str(n)] = await _measure_all(a, servers, n, routed)
            for kind, r in res[str(n)].items():
                if "error" in r:
                    continue
                log(f"  {kind}: p50 {r['p50']} p99 {r['p99']} max {r['max']} ms, lost {r['lost']}, "
                    f"server cpu {r['server_cpu_pct']}%")
    finally:
        for group in servers.values():
            for s in group:
                s.stop()
        for pg in pgs.values():
            pg.drop()
    return res


async def _measure_all(a, servers: dict, rooms: int, routed: bool = False) -> dict:
    gens, rss0, setup, windows, profs, errors = {}, {}, {}, {}, {}, {}
    try:
        for kind, group in servers.items():
            rss0[kind] = sum(rss_bytes(s.pid) for s in group)
            gens[kind] = LoadGen(target_for(kind, group, a.phones, a.frame_bytes, routed), rate=a.rate)
            gens[kind].paused = True
            try:
                setup[kind] = await asyncio.wait_for(gens[kind].add_rooms(rooms), 90)
            except Exception as e:   # noqa: BLE001 - a server that cannot hold the rooms is a figure
                log(f"  {kind}: FAILED to set up {rooms} rooms: {e}")
                errors[kind] = f"{type(e).__name__}: {str(e)[:300]}"
                await gens.pop(kind).close()
                continue
            windows[kind] = []
        per = a.seconds / a.rounds
        for i in range(a.rounds):
            for kind, gen in gens.items():
                group = servers[kind]
                gen.paused = False
                await asyncio.sleep(a.warmup if i == 0 else 1.0)
                prof = None
                if a.profile and kind == "partyhub" and i == 0:
                    prof = a.workdir / f"profile-{kind}-{rooms}-{int(time.time())}.txt"
                    group[0].profile_start(prof, per)
                windows[kind].append(await gen.window(per, [s.pid for s in group]))
                if prof:
                    group[0].profile_stop()
                    profs[kind] = summarize_profile(prof)
                gen.paused = True
        out = {kind: {"error": e} for kind, e in errors.items()}
        for kind, gen in gens.items():
            group = servers[kind]
            r = gen.figures(windows[kind])
            rss1 = sum(rss_bytes(s.pid) for s in group)
            r.update({"setup_s": round(setup[kind], 2), "rss_mb": round(rss1 / 2 ** 20, 1),
                      "rss_per_room_kb": round((rss1 - rss0[kind]) / 1024 / rooms, 1),
                      "client_errors": len(gen.errors), "skipped": gen.skipped})
            if kind in profs:
                r["profile"] = profs[kind]
            out[kind] = r
        return out
    finally:
        for gen in gens.values():
            await gen.close()


async def capacity(a, kinds=("partyhub", "bare"), steps=(5, 10, 20, 30, 40, 50, 60, 80, 100),
                   limit_ms=100.0) -> dict:
    """Scenario 6: add rooms step by step (same server, rooms kept) until p99 > limit."""
    out = {}
    for kind in kinds:
        work = scratch_dir()
        servers = start_servers(kind, work)
        gen = LoadGen(target_for(kind, servers, a.phones, a.frame_bytes), rate=a.rate)
        rows, best = [], 0
        try:
            for n in steps:
                if n > a.max_rooms:
                    break
                await gen.add_rooms(n - len(gen.rooms))
                await asyncio.sleep(a.warmup)
                prof = None
                if a.profile and kind == "partyhub":
                    prof = a.workdir / f"profile-capacity-{n}-{int(time.time())}.txt"
                    servers[0].profile_start(prof, a.cap_seconds)
                r = gen.figures([await gen.window(a.cap_seconds, [s.pid for s in servers])])
                if prof:
                    servers[0].profile_stop()
                    r["profile"] = summarize_profile(prof)
                r["rss_mb"] = round(rss_bytes(servers[0].pid) / 2 ** 20, 1)
                rows.append(r)
                ok = r["p99"] is not None and r["p99"] <= limit_ms and r["lost"] == 0
                log(f"capacity {kind}: {n} rooms p50 {r['p50']} p99 {r['p99']} ms lost {r['lost']} "
                    f"cpu {r['server_cpu_pct']}% -> {'ok' if ok else 'over'}")
                if not ok:
                    break
                best = n
        finally:
            await gen.close()
            for s in servers:
                s.stop()
        out[kind] = {"rooms": best, "steps": rows}
    return out


async def join_storm(a, joins=500, seconds=10.0, per_room=10) -> dict:
    """Scenario 4: `joins` joins (HTTP join + socket until its first view) spread over `seconds`."""
    work = scratch_dir()
    servers = start_servers("partyhub", work)
    base = servers[0].base
    socks, fails, lat, http_lat = [], [], [], []
    try:
        codes = []
        for _ in range((joins + per_room - 1) // per_room):
            status, room = await ahttp("POST", base + "/api/rooms", {})
            if status != 201:
                raise RuntimeError(f"room create {status} {room}")
            codes.append(room["code"])
        import websockets
        import json

        async def one(i, at):
            await asyncio.sleep(max(0, at - now()))
            t0 = now()
            code = codes[i // per_room]
            try:
                status, seat = await ahttp("POST", f"{base}/api/rooms/{code}/join", {"name": f"J{i}"})
                if status != 201:
                    fails.append(f"http {status} {seat}")
                    return
                http_lat.append(now() - t0)
                ws = await websockets.connect(ws_base(base) + f"/ws/rooms/{code}?token={seat['token']}",
                                              open_timeout=20, compression=None, ping_interval=None)
                socks.append(ws)
                while True:
                    f = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if f.get("t") == "view" and f["d"]["you"]["id"] == seat["player_id"]:
                        break
                lat.append(now() - t0)
            except Exception as e:   # noqa: BLE001 - a failure is the figure
                fails.append(f"{type(e).__name__}: {e}")

        prof = a.workdir / f"profile-joins-{int(time.time())}.txt" if a.profile else None
        if prof:
            servers[0].profile_start(prof, seconds)
        t0 = now()
        cpu0 = cpu_seconds(servers[0].pid)
        await asyncio.gather(*(one(i, t0 + i * seconds / joins) for i in range(joins)))
        took = now() - t0
        cpu = cpu_seconds(servers[0].pid) - cpu0
        if prof:
            servers[0].profile_stop()
        await asyncio.sleep(1)
        still_open = sum(1 for ws in socks if ws.state.name == "OPEN")
        return {"joins": joins, "spread_s": seconds, "took_s": round(took, 2), "failures": len(fails),
                "failure_samples": fails[:5], "open_after": still_open,
                "join_ms": summarize([x * 1000 for x in lat]),
                "http_ms": summarize([x * 1000 for x in http_lat]),
                "server_cpu_pct": round(100 * cpu / took, 1),
                **({"profile": summarize_profile(prof)} if prof else {})}
    finally:
        await asyncio.gather(*(ws.close() for ws in socks), return_exceptions=True)
        servers[0].stop()


async def kill_restart(a, rooms=50, load_s=5.0) -> dict:
    """Scenario 5: kill -9 the daphne of `rooms` live rooms (SQLite file DB), start it again on
    the same port, and time until every client holds the room's current version again."""
    work = scratch_dir()
    servers = start_servers("partyhub", work)
    srv = servers[0]
    gen = LoadGen(target_for("partyhub", servers, a.phones, a.frame_bytes), rate=a.rate, reconnect=True)
    try:
        await gen.add_rooms(rooms)
        await asyncio.sleep(load_s)
        gen.paused = True                       # no new actions: the current version is fixed
        await asyncio.sleep(0.5)
        t_kill = now()
        srv.kill()
        srv.proc = None
        t_restart0 = now()
        srv.start()
        t_up = now()
        conns = [c for r in gen.rooms for c in r.conns]

        codes = [r.conns[0].url.split("/ws/rooms/")[1].split("?")[0] for r in gen.rooms]

        def committed() -> dict:
            db = sqlite3.connect(work / "bench.sqlite3")
            try:
                return dict(db.execute("SELECT code, version FROM rooms_room").fetchall())
            finally:
                db.close()

        def converged():
            for r in gen.rooms:
                for c in r.conns:
                    if c.ws is None or c.opened_at is None or c.opened_at < t_kill or c.viewed_at is None:
                        return False
                if len({c.version for c in r.conns}) != 1:
                    return False
            # Every socket reopened and the sockets of each room agree; that is not enough:
            # a reconnect's own write may still be on its way to them.
            versions = committed()
            return all(c.version == versions.get(code) for r, code in zip(gen.rooms, codes) for c in r.conns)

        while not converged():
            if now() - t_kill > 60:
                break
            await asyncio.sleep(0.01)
        t_all = now()
        back = sum(1 for c in conns if c.opened_at and c.opened_at >= t_kill and c.viewed_at)
        versions = committed()
        on_current = sum(1 for r, code in zip(gen.rooms, codes) for c in r.conns if c.version == versions.get(code))
        reopen = sorted((c.viewed_at - t_kill) for c in conns if c.viewed_at and c.opened_at >= t_kill)
        return {"rooms": rooms, "sockets": len(conns), "restart_s": round(t_up - t_restart0, 2),
                "recovered_s": round(t_all - t_kill, 2), "back": back, "on_current_version": on_current,
                "reconnect_ms": summarize([x * 1000 for x in reopen])}
    finally:
        await gen.close()
        srv.stop()


def sketch_hook(args: list) -> dict:
    """Scenario 3 lives in bench/sketch_strokes.py (another worker's); run it if present."""
    import subprocess
    import sys
    path = Path(__file__).with_name("sketch_strokes.py")
    if not path.exists():
        return {"skipped": "bench/sketch_strokes.py is not there yet"}
    r = subprocess.run([sys.executable, "-m", "bench.sketch_strokes", *args], cwd=path.parent.parent,
                       env={**os.environ, "PYTHONPATH": str(path.parent.parent)})
    return {"exit": r.returncode}
