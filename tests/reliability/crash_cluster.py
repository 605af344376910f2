"""Two daphne processes over PostgreSQL and a Redis of the test's own: restart that Redis, or
kill -9 one process, in the middle of a game played by bots.

The Redis is a separate `redis-server` on a free port started here (never the machine's
shared one), so `redis-cli shutdown nosave` and starting it again touch nothing else.
Players know both URLs and take the other one when a connection fails, as behind a proxy.
"""
from __future__ import annotations

import asyncio
import shutil
import subprocess
import time

from tests.conftest import need
from tests.liveserver import Conn, Daphne, free_port, room_with_players
from tests.reliability.crash_client import (Player, PostgresLog, check_acknowledged, quiesce,
                                            release, settle)

GAME, OPTIONS = "jinx", {"pick_seconds": 5, "next_turn_seconds": 1}


class PrivateRedis:
    def __init__(self, tmp_path):
        need(shutil.which("redis-server") is not None and shutil.which("redis-cli") is not None,
             "redis-server is not installed (apt-get install redis-server)")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = open(tmp_path / f"redis-{self.port}.log", "ab")
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--daemonize", "no"], stdout=self.log, stderr=self.log)
        for _ in range(100):
            if self.cli("ping") == "PONG":
                return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not come up")

    def cli(self, *args) -> str:
        r = subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True,
                           text=True, timeout=10)
        return r.stdout.strip()

    def shutdown(self):
        self.cli("shutdown", "nosave")
        self.proc.wait(10)

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


async def cluster_game(tmp_path, pg_url, what: str) -> dict:
    """what: "redis" (restart Redis mid-game) or "kill" (kill -9 process A mid-game)."""
    redis = PrivateRedis(tmp_path).start()
    env = {"DATABASE_URL": pg_url, "REDIS_URL": redis.url, "TIMEKEEPER_INTERVAL": "0.1"}
    a_app = f"partyhub-a-{redis.port}"     # A's sessions, to see them end after its kill
    a = Daphne(tmp_path, {**env, "PGAPPNAME": a_app}).migrate().start()
    b = Daphne(tmp_path, env).start()
    log = PostgresLog(pg_url)
    players, figures = [], {"what": what}
    try:
        room, seats = room_with_players(a.base, ["P0", "P1", "P2", "P3"])
        code, host = room["code"], room["host_token"]
        tv = await Conn(a.base, code, host).open()
        players = [Player([a.base, b.base] if i % 2 == 0 else [b.base, a.base], code,
                          s["token"], s["player_id"], 100 + i).start() for i, s in enumerate(seats)]
        await tv.wait(lambda v: all(p["connected"] for p in v["room"]["players"]))
        await tv.act({"type": "start", "game": GAME, "options": OPTIONS})
        await tv.wait(lambda v: (v["game"] or {}).get("phase") == "race", timeout=30)
        while sum(len(p.acked()) for p in players) < 8:
            await asyncio.sleep(0.05)

        if what == "redis":
            redis.shutdown()
            await asyncio.sleep(1.0)        # the game goes on meanwhile, each process alone
            redis.start()
            figures["redis_down_seconds"] = 1.0
            # every socket's channel receive failed with Redis: the TV reconnects like the rest
            tv = await Conn(a.base, code, host).open()
        else:
            on_a = [p for p in players if p.bases_used and p.bases_used[-1] == a.base]
            a.kill()
            # A's last statements may still commit in its sessions; once those have ended
            # the fate of its players' unanswered actions is final. No await since the kill:
            # they are settled before they reconnect.
            log.wait_ended(a_app)
            settle(log, code, on_a)
            tv = await Conn(b.base, code, host).open()
            for p in on_a:
                await p.wait(lambda v, p=p: p.bases_used[-1] == b.base and p.ws is not None)
            figures["moved_to_b"] = len(on_a)
            assert all(p.bases_used[-1] == b.base for p in players)
        acked = sum(len(p.acked()) for p in players)
        figures["acked_before"] = acked

        # the game goes on: more actions acknowledged, and every socket of both processes
        # comes to the same newest version (the fan-out between processes works again)
        end = time.monotonic() + 40
        while sum(len(p.acked()) for p in players) < acked + 12:
            assert time.monotonic() < end, "the game did not go on"
            await asyncio.sleep(0.1)
        await quiesce(tv, players, timeout=20)
        figures["acked_checked"] = check_acknowledged(log, code, players)
        # one more action from a player on each process reaches everyone
        release(players)
        await asyncio.sleep(1.5)
        v = await quiesce(tv, players, timeout=20)
        figures["version"] = v
        figures["acked_total"] = check_acknowledged(log, code, players)
        figures["reconnects"] = sum(p.connects - 1 for p in players)
        return figures
    finally:
        for p in players:
            await p.stop()
        a.kill()
        b.kill()
        redis.kill()
