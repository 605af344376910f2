"""Server starts without a new Python: one process per test process that has imported, once,
the libraries every partyhub server imports before it reads its settings (Django, Twisted,
autobahn, psycopg, Pillow, channels, ...), and forks a server from itself on request.

A server start as a new Python cost 0.9-1.3 s of CPU on this 2-core machine, most of it in
those imports, and `make test-fast` starts about 60 (docs/testing.md, "Servers forked, not
started").
The forked child is the server as `python -m <module> <args>` would be: its own session, the
environment and working folder it was given, its output in its log, the module run as
`__main__`, and at its end the interpreter's own shutdown steps (threads joined, atexit). It
imports everything of partyhub itself after the fork, so its settings come from its own
environment. What it cannot be is the test process's child: `Forked` stands in for its Popen
(pid, poll, wait, returncode, kill), with the exit codes the fork server reaps and reports.

The product never imports this. PARTYHUB_TEST_FORK=0 starts every server as a new Python.

The wire, one JSON object a line: the test process writes {"module" or "path", "argv", "env",
"cwd", "log", "id"}; the fork server answers {"pid", "id"} to each, and {"exit": pid, "code"}
when one ends.
"""
import atexit
import importlib
import json
import os
import random
import runpy
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

# Imported once, before any fork: what a partyhub server imports that reads no setting, opens
# no file or socket, starts no thread and makes no event loop. Twisted's reactor is not among
# them: daphne installs its own at import, in the child (checked in preload).
PRELOAD = """
asyncio json logging ssl
django django.conf django.core.asgi django.core.handlers.asgi django.urls django.http
django.db.models django.db.backends.sqlite3.base django.db.backends.postgresql.base
django.template django.forms django.core.management django.core.serializers.json
django.contrib.admin.filters django.utils.translation
twisted.internet.asyncioreactor twisted.internet.tcp twisted.internet._newtls
twisted.internet.endpoints twisted.web.http autobahn.twisted.websocket
daphne.http_protocol daphne.ws_protocol daphne.access daphne.endpoints daphne.utils
psycopg psycopg.types.json PIL.Image PIL.ImageDraw PIL.ImageFont PIL.ImageOps segno
websockets websockets.asyncio.client channels channels.generic.websocket channels.layers
channels.routing channels_redis.core channels_redis.pubsub redis.asyncio msgpack
pythonjsonlogger.json whitenoise.middleware dj_database_url pymorphy3
""".split()


def preload() -> None:
    for name in PRELOAD:
        importlib.import_module(name)
    # What would make a fork unsafe, or a child unlike a new Python.
    assert "twisted.internet.reactor" not in sys.modules, "a preloaded module installed a reactor"
    assert threading.active_count() == 1, "a preloaded module started a thread"
    assert not any(m == "partyhub" or m.startswith(("partyhub.", "games.")) for m in sys.modules), \
        "a preloaded module imported partyhub, before the child's settings"


def child(request: dict) -> None:
    """In the forked child: become the server `python -m module argv` would be, run it, and
    end as an interpreter ends. Never returns."""
    code = 1
    try:
        os.setsid()
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        random.seed()
        if "path" in request:   # python path/to/script.py argv
            sys.argv = [request["path"], *request["argv"]]
            sys.path[0] = os.path.dirname(request["path"])
            runpy.run_path(request["path"], run_name="__main__")
        else:                   # python -m module argv
            sys.argv = [request["module"], *request["argv"]]
            runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    try:
        threading._shutdown()       # what the interpreter does at its end: join the threads,
        atexit._run_exitfuncs()     # then the exit functions
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def serve() -> None:
    """The fork server's loop: requests on stdin, answers and exits on stdout."""
    preload()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    sel = selectors.DefaultSelector()
    sel.register(0, selectors.EVENT_READ)
    sel.register(wake_r, selectors.EVENT_READ)
    out = sys.stdout

    def say(message):
        out.write(json.dumps(message) + "\n")
        out.flush()

    say({"ready": os.getpid()})
    pending = b""
    while True:
        for key, _ in sel.select():
            if key.fd == wake_r:
                while True:
                    try:
                        if not os.read(wake_r, 512):
                            break
                    except BlockingIOError:
                        break
                continue
            data = os.read(0, 1 << 16)
            if not data:
                return          # the test process is gone; its servers are in their own sessions
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    sel.close()
                    os.close(wake_r)
                    os.close(wake_w)
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    child(request)
                say({"pid": pid, "id": request["id"]})
        while True:             # reap every child that ended
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            say({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


class Forked:
    """A server forked by the fork server: the part of Popen the tests use."""

    def __init__(self, server: "ForkServer", pid: int, args: list):
        self.server, self.pid, self.args, self.returncode = server, pid, args, None

    def poll(self):
        if self.returncode is None:
            self.returncode = self.server.exits.get(self.pid)
        return self.returncode

    def wait(self, timeout=None):
        end = None if timeout is None else time.monotonic() + timeout
        with self.server.changed:
            while self.pid not in self.server.exits:
                left = None if end is None else end - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired(self.args, timeout)
                self.server.changed.wait(left)
        return self.poll()

    def send_signal(self, sig):
        if self.poll() is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass        # it ended, and its exit is on its way

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def kill(self):
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The fork server of this test process, started on first use (`start`)."""

    def __init__(self, root):
        env = {**os.environ, "PYTHONPATH": str(root)}
        env.pop("DJANGO_SETTINGS_MODULE", None)     # the children's settings are their own
        self.errors = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.forkserver"], cwd=root, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errors, start_new_session=True)
        ready = self.proc.stdout.readline()
        if not ready:
            self.proc.wait(10)
            self.errors.seek(0)
            raise RuntimeError("the fork server did not start: "
                               + self.errors.read()[-3000:].decode(errors="replace"))
        self.exits: dict[int, int] = {}
        self.pids: list[int] = []
        self.asked = 0
        self.changed = threading.Condition()
        self.lock = threading.Lock()
        threading.Thread(target=self._read, name="forkserver", daemon=True).start()
        atexit.register(self.close)

    def _read(self):
        for line in self.proc.stdout:
            message = json.loads(line)
            with self.changed:
                if "exit" in message:
                    self.exits[message["exit"]] = message["code"]
                elif message["id"] == self.asked:     # not a late answer to a request given up
                    self.pids.append(message["pid"])
                self.changed.notify_all()
        with self.changed:
            self.pids.append(None)      # gone: no more answers
            self.changed.notify_all()

    def spawn(self, argv, env, cwd, log, module=None, path=None, wait=60) -> Forked:
        """`python -m module argv` or `python path argv`, forked, its output in log."""
        what = {"module": module} if path is None else {"path": str(path)}
        request = {**what, "argv": [str(a) for a in argv], "env": env, "cwd": str(cwd),
                   "log": str(log)}
        with self.lock:         # one request at a time
            with self.changed:
                self.pids.clear()
                self.asked += 1
                request["id"] = self.asked
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            with self.changed:
                if not self.changed.wait_for(lambda: self.pids, wait) or self.pids[0] is None:
                    raise RuntimeError("the fork server did not answer")
                pid = self.pids[0]
        return Forked(self, pid, [sys.executable, *(["-m", module] if path is None else [path]),
                                  *argv])

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


_SERVER: ForkServer | None = None


def fork_server(root) -> ForkServer | None:
    """This test process's fork server, or None when PARTYHUB_TEST_FORK=0."""
    global _SERVER
    if os.environ.get("PARTYHUB_TEST_FORK", "1") == "0":
        return None
    if _SERVER is None or _SERVER.proc.poll() is not None:
        _SERVER = ForkServer(root)
    return _SERVER


if __name__ == "__main__":
    serve()
