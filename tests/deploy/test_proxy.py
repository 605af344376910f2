"""The routing proxy on its own: compose's nginx (deploy/nginx: the template and upstream.sh,
in the nginx image the stack uses) in front of small stand-in replicas that answer their own
name, on a Docker network where they share the name `web` as compose's replicas do.

Every path that names a room goes to one replica whatever the code's case; rooms spread; a
replica added takes about its share of the rooms and no room moves elsewhere; a replica killed
gives its rooms to the others at once and the rest stay. (test_stack.py checks the same through
the real stack, with sockets.) upstream.sh's reading of DNS answers runs without Docker.
"""
from __future__ import annotations

import os
import random
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.deploy.stack import Engine, check_images, run
from tests.liveserver import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX = ROOT / "deploy" / "nginx"
LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"
# A replica: answers every GET with its host name, in the header partyhub's replicas use.
REPLICA = r"""
import http.server, socket
class Name(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        name = socket.gethostname().encode()
        self.send_response(200)
        self.send_header("X-Partyhub-Replica", name.decode())
        self.send_header("Content-Length", str(len(name)))
        self.end_headers()
        self.wfile.write(name)
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("0.0.0.0", 8000), Name).serve_forever()
"""


class Proxy:
    """A Docker network with replicas named web and compose's nginx in front."""

    def __init__(self):
        self.net = f"partyhub-proxy-{os.getpid()}"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.replicas: list[str] = []
        self.proxy = f"{self.net}-nginx"

    def start(self, replicas: int) -> "Proxy":
        run(["docker", "network", "create", self.net])
        for _ in range(replicas):
            self.add_replica()
        run(["docker", "run", "-d", "--name", self.proxy, "--network", self.net,
             "-p", f"127.0.0.1:{self.port}:80", "-e", "WEB_UPSTREAM=web:8000", "-e", "WEB_RESOLVE_SECONDS=1",
             "-v", f"{NGINX / 'default.conf.template'}:/etc/nginx/templates/default.conf.template:ro",
             "-v", f"{NGINX / 'upstream.sh'}:/docker-entrypoint.d/40-partyhub-upstream.sh:ro",
             "nginx:alpine"])
        self.wait(lambda: len(self.spread(["/"] * 3 * replicas)) == replicas, "every replica answers")
        return self

    def add_replica(self) -> str:
        """A replica that joins the name `web` once it listens (a replica that is resolved
        before it listens is skipped for 10 s, and its rooms go elsewhere meanwhile)."""
        name = f"{self.net}-web-{len(self.replicas) + 1}"
        self.replicas.append(name)
        run(["docker", "run", "-d", "--name", name, "--hostname", name, "--network", self.net,
             "python:3.11-slim", "python", "-c", REPLICA])
        listens = ["docker", "exec", name, "python", "-c", "import socket; socket.create_connection(('127.0.0.1', 8000))"]
        self.wait(lambda: run(listens, check=False).returncode == 0, f"{name} listens")
        run(["docker", "network", "disconnect", self.net, name])
        run(["docker", "network", "connect", "--alias", "web", self.net, name])
        return name

    def get(self, path: str) -> str:
        """The replica that answered a GET of this path through nginx."""
        with urllib.request.urlopen(self.base + path, timeout=20) as r:
            assert r.status == 200
            return r.headers["X-Partyhub-Replica"]

    def spread(self, paths) -> set[str]:
        return {self.get(p) for p in paths}

    def homes(self, codes) -> dict[str, str]:
        return {code: self.get(f"/api/rooms/{code}") for code in codes}

    def wait(self, ok, what: str, seconds: float = 30) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                if ok():
                    return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.3)
        raise AssertionError(f"{what}: not within {seconds} s\n{self.logs()}")

    def servers(self) -> str:
        """The upstream's servers as upstream.sh last wrote them."""
        return run(["docker", "exec", self.proxy, "cat", "/etc/nginx/conf.d/partyhub-web.servers"]).stdout

    def logs(self) -> str:
        done = run(["docker", "logs", self.proxy], check=False)
        return (done.stdout + done.stderr)[-3000:]

    def stop(self) -> None:
        for name in [self.proxy, *self.replicas]:
            run(["docker", "rm", "-f", name], check=False)
        run(["docker", "network", "rm", self.net], check=False)


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    engine = Engine(tmp_path_factory.mktemp("proxy")).start()
    p = None
    try:
        check_images()
        p = Proxy().start(3)
        yield p
    finally:
        if p is not None:
            p.stop()
        engine.stop()


def codes(n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return ["".join(rnd.choice(LETTERS) for _ in range(rnd.choice((4, 5, 8)))) for _ in range(n)]


def room_paths(code: str) -> list[str]:
    """Every kind of path that names a room, with the code in upper, lower and mixed case."""
    lower, mixed = code.lower(), "".join(c.lower() if i % 2 else c for i, c in enumerate(code))
    return [f"/ws/rooms/{code}", f"/ws/rooms/{lower}/", f"/api/rooms/{mixed}", f"/api/rooms/{code}/join",
            f"/api/rooms/{lower}/keepsakes/share", f"/j/{lower}", f"/tv/{mixed}", f"/r/{code}/keepsakes",
            f"/r/{lower}/cards/deck-001.webp", f"/r/{mixed}/keepsakes/1/drawing/2.png"]


@pytest.mark.docker
def test_every_path_of_a_room_goes_to_its_one_replica_whatever_the_case(proxy):
    for code in codes(12, 1):
        assert len(proxy.spread(room_paths(code) * 2)) == 1, code


@pytest.mark.docker
def test_rooms_spread_over_the_replicas_and_other_requests_take_turns(proxy):
    homes = proxy.homes(codes(30, 2))
    per = {name: list(homes.values()).count(name) for name in proxy.replicas}
    assert all(n >= 3 for n in per.values()), per
    for roomless in ("/", "/api/rooms", "/api/games", "/healthz", "/api/rooms/TOOLONGCODE", "/j/ab"):
        assert len(proxy.spread([roomless] * 6)) == 3, roomless


@pytest.mark.docker
def test_a_replica_added_takes_about_its_share_and_no_other_room_moves(proxy):
    rooms = codes(80, 3)
    before = proxy.homes(rooms)
    new = proxy.add_replica()
    proxy.wait(lambda: new in proxy.spread(["/"] * 8), "the new replica gets requests")
    after = proxy.homes(rooms)
    moved = [c for c in rooms if after[c] != before[c]]
    assert all(after[c] == new for c in moved), "a room moves only to the new replica"
    assert 4 <= len(moved) <= 40, f"about a quarter of 80 rooms move, not {len(moved)}"


@pytest.mark.docker
def test_a_killed_replica_gives_its_rooms_to_the_others_and_the_rest_stay(proxy):
    rooms = codes(40, 4)
    before = proxy.homes(rooms)
    victim = max(set(before.values()), key=list(before.values()).count)
    address = run(["docker", "inspect", "--format",
                   "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", victim]).stdout.strip()
    assert f"server {address}:8000 " in proxy.servers()
    run(["docker", "kill", victim])
    started = time.monotonic()
    after = proxy.homes(rooms)           # at once: nginx skips the dead replica
    assert victim not in after.values()
    assert {c: h for c, h in after.items() if before[c] != victim} == \
           {c: h for c, h in before.items() if h != victim}, "rooms of living replicas stay"
    assert time.monotonic() - started < 60
    proxy.wait(lambda: f"server {address}:" not in proxy.servers(), "the dead replica leaves the upstream")
    assert proxy.homes(rooms) == after, "and the rooms stay where they went"


# --- upstream.sh's reading of DNS, without Docker --------------------------------------------

ANSWERS = {
    "glibc": ("getent", "#!/bin/sh\n[ \"$1\" = ahostsv4 ] || exit 1\n"
              "printf '172.18.0.5      STREAM web\\n172.18.0.5      DGRAM  \\n172.18.0.3      STREAM \\n'\n"),
    "busybox": ("nslookup", "#!/bin/sh\nprintf 'Server:\\t\\t127.0.0.11\\nAddress:\\t127.0.0.11:53\\n\\n"
                "Non-authoritative answer:\\nName:\\tweb\\nAddress: 172.18.0.5\\nName:\\tweb\\nAddress: 172.18.0.3\\n'\n"),
    "old busybox": ("nslookup", "#!/bin/sh\nprintf 'Server:    127.0.0.11\\nAddress 1: 127.0.0.11\\n\\n"
                    "Name:      web\\nAddress 1: 172.18.0.5 p-web-1.p_default\\nAddress 2: 172.18.0.3 p-web-2.p_default\\n'\n"),
}


@pytest.mark.parametrize("resolver", sorted(ANSWERS))
def test_upstream_sh_writes_one_server_per_address(tmp_path, resolver):
    tool, script = ANSWERS[resolver]
    (tmp_path / "bin").mkdir()
    other = "exit 0" if resolver == "old busybox" else "exit 2"   # answers nothing, or fails
    for name in ("getent", "nslookup"):
        stub = tmp_path / "bin" / name
        stub.write_text(script if name == tool else f"#!/bin/sh\n{other}\n")
        stub.chmod(0o755)
    out = tmp_path / "servers"
    env = {"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin", "WEB_UPSTREAM": "web:8000", "PARTYHUB_SERVERS": str(out)}
    subprocess.run(["sh", str(NGINX / "upstream.sh"), "--once"], env=env, check=True, capture_output=True)
    lines = [ln for ln in out.read_text().splitlines() if not ln.startswith("#")]
    assert lines == ["server 172.18.0.3:8000 max_fails=1 fail_timeout=10s;",
                     "server 172.18.0.5:8000 max_fails=1 fail_timeout=10s;"]


def test_upstream_sh_without_an_answer_writes_a_server_that_is_down(tmp_path):
    out = tmp_path / "servers"
    env = {"PATH": "/usr/bin:/bin", "WEB_UPSTREAM": "no-such-name.invalid:8000", "PARTYHUB_SERVERS": str(out)}
    subprocess.run(["sh", str(NGINX / "upstream.sh"), "--once"], env=env, check=True, capture_output=True)
    assert [ln for ln in out.read_text().splitlines() if not ln.startswith("#")] == ["server 127.0.0.1:9 down;"]
