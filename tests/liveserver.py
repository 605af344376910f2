"""Real server processes for tests: daphne on a free port, and a protocol client over websockets."""
import asyncio
import atexit
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import websockets

from partyhub.blobs import Held
from tests.forkserver import fork_server

ROOT = Path(__file__).resolve().parent.parent


def free_port(host="127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def children(pid: int) -> list[int]:
    """The live child processes of `pid` (the kernel's list, thread by thread); none when
    `pid` is gone."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    out = []
    for task in (f"/proc/{pid}/task/{t}/children" for t in tasks):
        try:
            with open(task) as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


def lan_address() -> str | None:
    """This machine's first non-loopback IPv4 address (`hostname -I`), or None: a page
    served from it is not a secure context, as on a LAN."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5).stdout
    except OSError:
        return None
    return next((a for a in out.split() if "." in a and not a.startswith("127.")), None)


class Daphne:
    """One daphne process (partyhub.edge) serving partyhub with the test game; kill -9 and
    start again. bind: the address it listens on (a LAN address: a page that is not a secure
    context). prefix: a command that runs it elsewhere (`ip netns exec <host>`)."""

    def __init__(self, data_dir, env=None, port=None, bind="127.0.0.1", prefix=()):
        self.bind, self.prefix = bind, tuple(prefix)
        self.port = port or free_port(bind)
        self.base = f"http://{bind}:{self.port}"
        self.env = server_env(data_dir, {"PORT": str(self.port), **(env or {})})
        self.log = Path(data_dir) / f"daphne-{self.port}.log"
        self.proc = None

    def migrate(self):
        """The server's database, migrated. A new SQLite database is a copy of one migrated
        once per test process (see migrated_sqlite), and so is `postgres_database`'s
        (MIGRATED); another PostgreSQL database, or a data folder that has a database
        already (a restart), runs `manage.py migrate`."""
        db = Path(self.env["PARTYHUB_DATA"]) / "partyhub.sqlite3"
        url = self.env.get("DATABASE_URL")
        if url and MIGRATED.get(url) == self.env.get("PARTYHUB_EXTRA_APPS", ""):
            return self     # a copy of a migrated template (tests/services.py)
        if url or db.exists():
            run_migrate(self.env)
        else:
            db.parent.mkdir(parents=True, exist_ok=True)
            src, dst = sqlite3.connect(migrated_sqlite(self.env)), sqlite3.connect(db)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
        return self

    def start(self, wait=30):
        self.proc = start_python(["-m", "partyhub.edge", "-b", self.bind, "-p", str(self.port),
                                  "partyhub.asgi:application"], self.env, self.log, self.prefix)
        end = time.time() + wait
        while time.time() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log.read_text()[-2000:]}")
            try:
                if http("GET", self.base + "/healthz", timeout=1)[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"daphne did not come up: {self.log.read_text()[-2000:]}")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass    # it ended on its own: a forked one is reaped at once, by the fork server
            self.proc.wait(10)

    stop = kill


def start_python(args, env, log, prefix=()):
    """`python *args` (`-m module ...` or `script ...`) in ROOT with this environment, in a
    session of its own, its output appended to log: forked from this test process's fork
    server (tests/forkserver.py), or a new Python when there is none or it runs elsewhere
    (`prefix`: `ip netns exec <host>`). A Popen, or what stands in for one."""
    forks = None if prefix else fork_server(ROOT)
    if forks:
        if args[0] == "-m":
            return forks.spawn(args[2:], env, ROOT, log, module=args[1])
        return forks.spawn(args[1:], env, ROOT, log, path=ROOT / args[0])
    with open(log, "ab") as out:
        return subprocess.Popen([*prefix, sys.executable, *args], cwd=ROOT, env=env, stdout=out,
                                stderr=out, start_new_session=True)


def server_env(data_dir, env=None) -> dict:
    """The environment of a server process (and of its `manage.py migrate`)."""
    out = {**os.environ, "PARTYHUB_DATA": str(data_dir), "PARTYHUB_EXTRA_APPS": "tests.testgame",
           "PUBLIC_URL": "http://partyhub.test", "PYTHONPATH": str(ROOT), **(env or {})}
    out.pop("DJANGO_SETTINGS_MODULE", None)
    return out


# {database URL: PARTYHUB_EXTRA_APPS it was migrated with}: PostgreSQL databases that are
# copies of a migrated template (tests/services.py: postgres_database).
MIGRATED: dict[str, str] = {}


def run_migrate(env):
    """`manage.py migrate` with this environment (start_python: forked where it can be)."""
    with tempfile.NamedTemporaryFile(prefix="partyhub-migrate-", suffix=".log") as log:
        done = start_python(["manage.py", "migrate", "--noinput", "-v0"], env, log.name)
        if done.wait(600):
            raise subprocess.CalledProcessError(done.returncode, done.args,
                                                output=Path(log.name).read_text())


# A server start ran `manage.py migrate` (a Django start-up and every migration: a second or
# more of CPU) into each new data folder. The schema depends only on the installed apps, so a
# test process migrates one SQLite database per PARTYHUB_EXTRA_APPS and copies it.
_MIGRATED: dict[str, Path] = {}


def migrated_sqlite(env) -> Path:
    apps = env.get("PARTYHUB_EXTRA_APPS", "")
    if apps not in _MIGRATED:
        folder = Path(tempfile.mkdtemp(prefix="partyhub-migrated-"))
        atexit.register(shutil.rmtree, folder, True)
        run_migrate({**env, "PARTYHUB_DATA": str(folder)})
        _MIGRATED[apps] = folder / "partyhub.sqlite3"
    return _MIGRATED[apps]


def http(method, url, body=None, headers=None, timeout=10):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null") if "json" in r.headers.get("Content-Type", "") else r.read()
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


class Conn:
    """A protocol client: keeps the newest view, records every frame."""

    def __init__(self, base, code, token=None):
        self.url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}" + (f"?token={token}" if token else "")
        self.view, self.version, self.frames, self.errors = None, -1, [], {}
        self.held = Held()          # the drawings this connection was sent (blobs frames)
        self.changed = asyncio.Event()

    async def open(self, timeout=10, **connect):
        """connect: more of websockets.connect's arguments (TLS, another host and port)."""
        self.ws = await websockets.connect(self.url, max_size=2 ** 22, open_timeout=timeout, **connect)
        self.reader = asyncio.create_task(self._read())
        await self.wait(lambda v: True, timeout)
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                f = self.held.take(json.loads(raw))
                self.frames.append(f)
                if f["t"] == "view" and f["v"] > self.version:
                    self.version, self.view = f["v"], f["d"]
                elif f["t"] == "error":
                    self.errors[f["d"].get("ref")] = f["d"]
                self.changed.set()
        except websockets.ConnectionClosed:
            pass

    async def wait(self, pred, timeout=10):
        end = time.monotonic() + timeout
        while not (self.view is not None and pred(self.view)):
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met; last view {json.dumps(self.view)[:500]}")
            self.changed.clear()
            try:
                async with asyncio.timeout(left):   # wait_for of 3.11 can swallow a cancel
                    await self.changed.wait()
            except asyncio.TimeoutError:
                pass
        return self.view

    async def act(self, d):
        ref = uuid.uuid4().hex
        await self.ws.send(json.dumps({"t": "act", "id": ref, "d": d}))
        return ref

    async def close(self):
        await self.ws.close()


def room_with_players(base, names):
    status, room = http("POST", base + "/api/rooms", {})
    assert status == 201, room
    seats = []
    for name in names:
        status, seat = http("POST", f"{base}/api/rooms/{room['code']}/join", {"name": name})
        assert status == 201, seat
        seats.append(seat)
    return room, seats
