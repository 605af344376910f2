"""Server processes for the bench: partyhub on daphne, bare Channels on daphne, the raw floor.

Each is started from this project's interpreter (the venv), on a free port, in its own
session, and measured through /proc (CPU ticks, RSS): psutil is not needed.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
BENCH_ENV = {
    "PARTYHUB_EXTRA_APPS": "tests.testgame",
    "PARTYHUB_JOINS_PER_MINUTE": "1000000",
    "PARTYHUB_ROOMS_PER_MINUTE": "1000000",
    # every socket of a bench comes from 127.0.0.1 (docs/security.md, the doors)
    "PARTYHUB_SOCKETS_PER_ADDRESS": "1000000",
    "PARTYHUB_SOCKETS_PER_ROOM": "1000000",
    "PARTYHUB_AUDIENCE_PER_MINUTE": "1000000",
    "PARTYHUB_LOOKUPS_PER_MINUTE": "1000000",
    "PARTYHUB_VOTERS_PER_BALLOT": "1000000",       # a bench's audience may be larger than a ballot's cap
    "PUBLIC_URL": "http://partyhub.bench",
    "LOG_LEVEL": "ERROR",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE


def machine() -> dict:
    mem = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "")
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "mem_gib": round(mem / 2 ** 30, 1), "cpu": model,
            "python": sys.version.split()[0]}


def _wait_tcp(port: int, proc, log: Path, wait: float) -> None:
    end = time.time() + wait
    while time.time() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"server did not come up: {log.read_text()[-2000:]}")


class Server:
    """One server process. kind: "partyhub" | "bare" | "bare-pubsub" | "raw"."""

    def __init__(self, kind: str, workdir: Path, env: dict | None = None, port: int | None = None,
                 root: Path = ROOT):
        """`root`: the checkout whose code the server runs (another commit's, for a baseline
        in the same run); this project's interpreter and packages either way."""
        self.kind, self.workdir, self.root = kind, Path(workdir), Path(root)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PYTHONPATH": str(self.root), "PORT": str(self.port),
                    "PARTYHUB_DATA": str(self.workdir), **BENCH_ENV, **(env or {})}
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        if kind.startswith("bare"):
            self.env["DJANGO_SETTINGS_MODULE"] = "bench.bare_settings"
        self.log = self.workdir / f"{kind}-{self.port}.log"
        self.proc = None
        self.profiler = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def command(self) -> list:
        if self.kind == "raw":
            return [sys.executable, "-m", "bench.raw_server", "--port", str(self.port)]
        app = "partyhub.asgi:application" if self.kind == "partyhub" else "bench.bare_channels:application"
        server = "partyhub.edge" if self.kind == "partyhub" else "daphne"
        return [sys.executable, "-m", server, "-b", "127.0.0.1", "-p", str(self.port), app]

    def migrate(self) -> "Server":
        if self.kind == "partyhub":
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=self.root,
                           env=self.env, check=True)
        return self

    def start(self, wait: float = 60) -> "Server":
        self.workdir.mkdir(parents=True, exist_ok=True)
        out = open(self.log, "ab")
        self.proc = subprocess.Popen(self.command(), cwd=self.root, env=self.env, stdout=out, stderr=out,
                                     start_new_session=True)
        _wait_tcp(self.port, self.proc, self.log, wait)
        if self.kind == "partyhub":   # the first request also starts the timekeeper
            end = time.time() + wait
            while True:
                try:
                    with urllib.request.urlopen(self.base + "/healthz", timeout=2) as r:
                        if r.status == 200:
                            break
                except OSError:
                    if time.time() > end:
                        raise
                time.sleep(0.05)
        return self

    def kill(self) -> None:
        """kill -9 (the process group: daphne and nothing else is in it)."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        self.profile_stop()
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    # -- profiling (py-spy, attached for a measurement window)
    def profile_start(self, out: Path, seconds: float) -> bool:
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        if not Path(spy).exists():
            return False
        self.profiler = subprocess.Popen(
            [spy, "record", "--pid", str(self.pid), "--format", "raw", "--rate", "200", "--gil",
             "--duration", str(max(1, int(seconds))), "--nonblocking", "-o", str(out)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return True

    def profile_stop(self, wait: float = 15) -> None:
        if self.profiler is not None:
            try:
                self.profiler.wait(wait)
            except subprocess.TimeoutExpired:
                self.profiler.send_signal(signal.SIGINT)
                self.profiler.wait(5)
            self.profiler = None


class Postgres:
    """A fresh database per run on the local PostgreSQL; dropped afterwards."""

    def __init__(self, admin_url: str = "postgres://postgres@127.0.0.1:5432/postgres"):
        self.admin_url = admin_url
        self.name = f"bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        self.url = admin_url.rsplit("/", 1)[0] + "/" + self.name

    def _exec(self, sql: str) -> None:
        import psycopg
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql)

    def create(self) -> "Postgres":
        self._exec(f'CREATE DATABASE "{self.name}"')
        return self

    def drop(self) -> None:
        try:
            self._exec(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        except Exception as e:   # noqa: BLE001 - reported, never fatal
            print(f"  (could not drop {self.name}: {e})", file=sys.stderr)


def scratch_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="partyhub-bench-"))


def redis_flush(url: str) -> None:
    """Empty the bench's own Redis database (a db number no test uses)."""
    import redis
    redis.Redis.from_url(url).flushdb()
