"""Throwaway Redis servers for tests: a master, its replicas and Redis Sentinels, each its own
`redis-server` process in a folder of its own (tests/test_redisconf.py on loopback,
tests/deploy/test_multihost.py inside network namespaces: `prefix` runs the command there).

`redis-server --sentinel` is Debian's `redis-sentinel` (the same binary).
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
MASTER_NAME = "partyhub"


def available() -> bool:
    return os.access(REDIS_SERVER, os.X_OK)


class RedisProcess:
    """One redis-server (or sentinel), configured by a file in `folder`."""

    def __init__(self, folder: Path, host: str, port: int, lines: list[str], *, sentinel=False,
                 prefix: tuple[str, ...] = ()):
        self.folder, self.host, self.port, self.sentinel = folder, host, port, sentinel
        self.prefix = prefix
        folder.mkdir(parents=True, exist_ok=True)
        self.conf = folder / ("sentinel.conf" if sentinel else "redis.conf")
        self.conf.write_text("\n".join([
            f"bind {host}", f"port {port}", "protected-mode no", f"dir {folder}",
            f"logfile {folder / 'log'}", "daemonize no", *lines]) + "\n")
        self.proc: subprocess.Popen | None = None

    def start(self, wait=10.0) -> RedisProcess:
        cmd = [REDIS_SERVER, str(self.conf)] + (["--sentinel"] if self.sentinel else [])
        self.proc = subprocess.Popen([*self.prefix, *cmd], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        end = time.monotonic() + wait
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break
            try:
                if self.client().ping():
                    return self
            except Exception:
                time.sleep(0.05)
        raise RuntimeError(f"redis at {self.address} did not start: {self.log()}")

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def client(self):
        import redis
        return redis.Redis(self.host, self.port, socket_timeout=2, socket_connect_timeout=2)

    def log(self) -> str:
        try:
            return (self.folder / "log").read_text()[-2000:]
        except OSError:
            return "(no log)"

    def kill(self):
        """SIGKILL, as a crash: no save, no goodbye to the replicas."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


def master(folder: Path, host: str, port: int, prefix=()) -> RedisProcess:
    return RedisProcess(folder, host, port, ['save ""', "appendonly no"], prefix=prefix)


def replica(folder: Path, host: str, port: int, of: RedisProcess, prefix=()) -> RedisProcess:
    return RedisProcess(folder, host, port, ['save ""', "appendonly no", f"replicaof {of.host} {of.port}",
                                             "replica-priority 100"], prefix=prefix)


def sentinel(folder: Path, host: str, port: int, watched: RedisProcess, quorum=1, prefix=(),
             down_ms=1000) -> RedisProcess:
    """A sentinel watching `watched` as MASTER_NAME: down after `down_ms` without an answer, a
    failover abandoned (and tried again) after 4 s."""
    return RedisProcess(folder, host, port, [
        f"sentinel monitor {MASTER_NAME} {watched.host} {watched.port} {quorum}",
        f"sentinel down-after-milliseconds {MASTER_NAME} {down_ms}",
        f"sentinel failover-timeout {MASTER_NAME} 4000",
        f"sentinel parallel-syncs {MASTER_NAME} 1"], sentinel=True, prefix=prefix)


def master_address(sentinels: list[RedisProcess]) -> str | None:
    """host:port of the master as the first sentinel that answers names it."""
    for s in sentinels:
        try:
            host, port = s.client().execute_command("SENTINEL", "get-master-addr-by-name", MASTER_NAME)
            return f"{host.decode()}:{int(port)}"
        except Exception:
            continue
    return None


def wait_until(check, seconds: float, what: str, step=0.1):
    end = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(step)


def replica_in_sync(r: RedisProcess) -> bool:
    info = r.client().info("replication")
    return info.get("role") == "slave" and info.get("master_link_status") == "up"
