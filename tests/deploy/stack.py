"""A real Docker engine and the project's own compose stack, for tests/deploy/test_stack.py.

`Engine` uses the engine that answers, or starts `dockerd` (and stops it again). `Stack` runs
docker-compose.yml unchanged from a copy of the build context (so that a test can change the
code and rebuild), with compose-lab's host-network build override where there is one.
Every missing piece is a skip with its reason, or a failure under PARTYHUB_REQUIRE_SERVICES=1.
"""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.conftest import need
from tests.liveserver import free_port

ROOT = Path(__file__).resolve().parents[2]
# The images docker-compose.yml and the Dockerfile name: on a machine without a registry,
# ../shared/compose-lab/build-images.sh makes them (.ci/run does, when they are missing).
BASE_IMAGES = ("python:3.11-slim", "postgres:16-alpine", "redis:7-alpine", "nginx:alpine")
# The https profile's Caddy: compose-lab has no stand-in for it, this project does (Debian's
# caddy on compose-lab's base rootfs, tests/deploy/caddy/Dockerfile); built when missing.
CADDY_STANDIN = ROOT / "tests" / "deploy" / "caddy"
LAB_BASE = "partyhub-local/debian:bookworm"
NOT_COPIED = shutil.ignore_patterns(".git", ".venv", "data", "__pycache__", "*.pyc", ".pytest_cache",
                                    ".hypothesis", ".env", "node_modules", "screenshots", "results")


def run(args, timeout=120, check=True, **kw) -> subprocess.CompletedProcess:
    """Run a command; text output captured, or bytes through the stdin/stdout files given."""
    if "stdin" in kw or "stdout" in kw:
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.PIPE)
    else:
        kw.update(capture_output=True, text=True)
    done = subprocess.run(args, timeout=timeout, **kw)
    if check and done.returncode != 0:
        out = [x if isinstance(x, str) else (x or b"").decode(errors="replace")
               for x in (done.stdout, done.stderr)]
        raise AssertionError(f"{' '.join(map(str, args))} exited {done.returncode}:\n"
                             f"{out[0][-3000:]}\n{out[1][-3000:]}")
    return done


def compose_lab() -> Path | None:
    """compose-lab's folder (COMPOSE_LAB, else ../shared/compose-lab beside the checkout)."""
    for folder in (os.environ.get("COMPOSE_LAB"), ROOT.parent / "shared" / "compose-lab",
                   ROOT.parents[1] / "shared" / "compose-lab"):
        if folder and (Path(folder) / "compose.hostbuild.yml").is_file():
            return Path(folder)
    return None


class Engine:
    """The Docker engine that answers, or a dockerd started here and stopped by stop()."""

    def __init__(self, log_dir: Path):
        self.log_path = log_dir / "dockerd.log"
        self.proc = None

    @staticmethod
    def answers() -> bool:
        try:
            return run(["docker", "info"], timeout=20, check=False).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def start(self) -> "Engine":
        need(shutil.which("docker") is not None, "docker is not installed (apt-get install docker.io)")
        if self.answers():
            return self
        dockerd = shutil.which("dockerd")
        need(dockerd is not None and os.geteuid() == 0,
             "no Docker engine answers, and dockerd cannot be started here (not installed, or not root)")
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([dockerd], stdout=log, stderr=log, start_new_session=True)
        end = time.monotonic() + 60
        while time.monotonic() < end and self.proc.poll() is None:
            if self.answers():
                return self
            time.sleep(0.5)
        tail = self.log_path.read_text(errors="replace")[-1500:]
        self.stop()
        need(False, f"dockerd did not come up: {tail}")

    def stop(self) -> None:
        """Stop the dockerd started here (its containers stop with it); leave any other alone."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def check_images() -> None:
    missing = [tag for tag in BASE_IMAGES
               if run(["docker", "image", "inspect", tag], check=False).returncode != 0]
    if missing and compose_lab() is not None:   # no registry here: nothing can be pulled
        need(False, f"images {missing} are missing: run ../shared/compose-lab/build-images.sh")


def caddy_image() -> str:
    """The tag docker-compose.yml's caddy service names."""
    import yaml
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]["caddy"]["image"]


def check_caddy_image() -> str:
    """The caddy tag, there: where no registry is reachable, the stand-in is built (about 20 s,
    from compose-lab's base image) when it is missing."""
    tag = caddy_image()
    if run(["docker", "image", "inspect", tag], check=False).returncode == 0:
        return tag
    need(compose_lab() is not None, f"{tag} is missing and there is no compose-lab to build a stand-in from")
    need(run(["docker", "image", "inspect", LAB_BASE], check=False).returncode == 0,
         f"{LAB_BASE} is missing: run ../shared/compose-lab/build-images.sh")
    run(["docker", "build", "-q", "--network", "host", "--build-arg", f"BASE={LAB_BASE}", "-t", tag,
         str(CADDY_STANDIN)], timeout=900)
    return tag


class Stack:
    """docker-compose.yml of a copy of the build context, as one compose project."""

    def __init__(self, workdir: Path, settings: dict, extra_files=(), profiles=()):
        self.dir = workdir / "context"
        shutil.copytree(ROOT, self.dir, ignore=NOT_COPIED)
        self.project = f"partyhub-test-{os.getpid()}-{workdir.name.lower()}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.settings = {"SECRET_KEY": secrets.token_urlsafe(40), "HTTP_PORT": str(self.port),
                         **settings}
        (self.dir / ".env").write_text("".join(f"{k}={v}\n" for k, v in self.settings.items()))
        lab = compose_lab()
        self.files = ["-f", "docker-compose.yml"]
        if lab is not None:
            self.files += ["-f", str(lab / "compose.hostbuild.yml")]
        for extra in extra_files:        # a test's own override (e.g. other host ports)
            self.files += ["-f", str(extra)]
        for profile in profiles:
            self.files += ["--profile", profile]
        self.saved_logs = ""

    def compose(self, *args, timeout=300, check=True, **kw) -> subprocess.CompletedProcess:
        return run(["docker", "compose", "-p", self.project, *self.files, *args], timeout=timeout,
                   check=check, cwd=self.dir, **kw)

    def up(self) -> None:
        """`docker compose up --build -d`, as a host runs it, until every service is healthy."""
        try:
            self.compose("up", "--build", "-d", "--wait", timeout=1500)
            self.until_served()
        except AssertionError as e:
            raise AssertionError(f"{e}\n--- logs ---\n{self.logs()[-6000:]}") from None

    def until_served(self, limit: float = 90) -> None:
        """Until the proxy answers /healthz on the host's port: `--wait` ends when every
        container's own health check passes, and on a fresh machine (its first build, the
        engine just started) the host's port still reset the first request after that (a
        clean clone's CI, 2026-12-01: the stack's first test, then every test after it)."""
        end, last = time.monotonic() + limit, None
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=5) as r:
                    if r.status == 200:
                        return
            except (OSError, urllib.error.URLError) as e:
                last = e
            time.sleep(0.5)
        raise AssertionError(f"the proxy did not answer /healthz within {limit} s: {last!r}")

    def containers(self, service: str) -> list[str]:
        """The running containers of a service (names)."""
        out = self.compose("ps", "--format", "{{.Name}}", service).stdout
        return sorted(line for line in out.split() if line)

    def image_id(self, container: str) -> str:
        return run(["docker", "inspect", "--format", "{{.Image}}", container]).stdout.strip()

    def get_inside(self, container: str, path: str, headers: dict | None = None) -> tuple[int, bytes]:
        """GET http://127.0.0.1:8000<path> from inside one web container (that replica only)."""
        script = ("import sys, urllib.request, urllib.error\n"
                  f"req = urllib.request.Request('http://127.0.0.1:8000{path}', headers={headers or {}!r})\n"
                  "try:\n    r = urllib.request.urlopen(req, timeout=10); code, body = r.status, r.read()\n"
                  "except urllib.error.HTTPError as e:\n    code, body = e.code, e.read()\n"
                  "sys.stdout.buffer.write(str(code).encode() + b'\\n' + body)\n")
        out = subprocess.run(["docker", "exec", container, "python", "-c", script],
                             capture_output=True, timeout=60, check=True).stdout
        status, _, body = out.partition(b"\n")
        return int(status), body

    def logs(self, *services: str) -> str:
        return self.compose("logs", "--no-color", *services, check=False, timeout=120).stdout

    def keep_logs(self) -> None:
        """Keep every container's log so far (a recreate or `down` loses them)."""
        self.saved_logs += self.logs()

    def down(self) -> None:
        self.compose("down", "-v", "--remove-orphans", "--timeout", "5", timeout=300, check=False)
