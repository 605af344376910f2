"""compose's HTTPS profile routes rooms too: deploy/caddy/Caddyfile run by a real Caddy
(Debian's) in front of stand-in replicas on loopback (tests/deploy/helm_nginx.py: Replica).
The Caddyfile is adapted as compose would run it, then only its edges are changed for
loopback: plain HTTP on a free port instead of the site's certificate, and the stand-ins'
addresses instead of Docker's DNS name `web`. What it routes and how is the file's own:
every path of a room reaches one replica, rooms spread, requests naming no room go anywhere,
a client cannot pick the replica with the header, and a replica added takes only its share.
"""
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import need
from tests.deploy.helm_nginx import Replica
from tests.deploy.test_helm_proxy import FORMS, ROOMS
from tests.liveserver import free_port

pytestmark = pytest.mark.slow
CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "caddy" / "Caddyfile"


def adapted() -> dict:
    env = {**os.environ, "SITE": "https://partyhub.lan", "CADDY_TLS": "internal"}
    done = subprocess.run(["caddy", "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
                          capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def on_loopback(conf: dict, port: int, replicas: list) -> dict:
    """The adapted configuration served over HTTP on 127.0.0.1:port to these replicas."""
    def walk(node):
        if isinstance(node, dict):
            if node.pop("dynamic_upstreams", None) is not None:
                node["upstreams"] = [{"dial": r.address} for r in replicas]
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(conf)
    conf["apps"].pop("tls", None)
    (server,) = conf["apps"]["http"]["servers"].values()
    server["listen"] = [f"127.0.0.1:{port}"]
    server["automatic_https"] = {"disable": True}
    for route in server["routes"]:
        route.pop("match", None)       # the site's host name
    conf["admin"] = {"disabled": True}
    return conf


class Caddy:
    def __init__(self, folder: Path):
        self.folder, self.port, self.process = folder, free_port(), None
        folder.mkdir(parents=True, exist_ok=True)

    def start(self, replicas: list):
        conf = self.folder / "caddy.json"
        conf.write_text(json.dumps(on_loopback(adapted(), self.port, replicas)))
        self.process = subprocess.Popen(["caddy", "run", "--config", str(conf)], cwd=self.folder,
                                        env={**os.environ, "HOME": str(self.folder), "XDG_DATA_HOME": str(self.folder),
                                             "XDG_CONFIG_HOME": str(self.folder)},
                                        stdout=subprocess.DEVNULL, stderr=open(self.folder / "caddy.log", "ab"))
        deadline = time.monotonic() + 15
        while True:
            try:
                self.replica_of("/")
                return
            except OSError:
                assert time.monotonic() < deadline, (self.folder / "caddy.log").read_text()[-2000:]
                time.sleep(0.1)

    def replica_of(self, path: str, headers: dict | None = None) -> str:
        import http.client
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            conn.request("GET", path, headers=headers or {})
            answer = conn.getresponse()
            answer.read()
            return answer.getheader("X-Partyhub-Replica", "")
        finally:
            conn.close()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def replicas():
    made = [Replica(f"web-{n}") for n in range(1, 5)]
    yield made
    for r in made:
        r.stop()


@pytest.fixture
def caddy(tmp_path):
    need(shutil.which("caddy") is not None, "caddy (Debian: apt-get install caddy)")
    made = []

    def make() -> Caddy:
        made.append(Caddy(tmp_path / f"caddy{len(made)}"))
        return made[-1]

    yield make
    for c in made:
        c.stop()


def test_every_path_of_a_room_reaches_one_replica_and_rooms_spread(caddy, replicas):
    c = caddy()
    c.start(replicas[:3])
    where = {code: {c.replica_of(form.format(code)) for form in FORMS} for code in ROOMS}
    assert all(len(names) == 1 for names in where.values()), where
    per_replica = {r.name: sum(names == {r.name} for names in where.values()) for r in replicas[:3]}
    assert all(n >= 10 for n in per_replica.values()), per_replica    # 80 rooms over 3


def test_requests_naming_no_room_go_anywhere_and_the_header_picks_nothing(caddy, replicas):
    c = caddy()
    c.start(replicas[:3])
    assert {c.replica_of(path) for path in ["/", "/api/rooms", "/static/tv.js"] * 20} == {"web-1", "web-2", "web-3"}
    forged = {"X-Partyhub-Room": ROOMS[0]}
    assert {c.replica_of("/", forged) for _ in range(40)} == {"web-1", "web-2", "web-3"}
    for code in ROOMS[:20]:
        assert c.replica_of(f"/j/{code}", forged) == c.replica_of(f"/j/{code}")


def test_a_replica_added_takes_only_its_share(caddy, replicas):
    c = caddy()
    c.start(replicas[:3])
    before = {code: c.replica_of(f"/j/{code}") for code in ROOMS}
    c.stop()
    c = caddy()
    c.start(replicas)
    after = {code: c.replica_of(f"/j/{code}") for code in ROOMS}
    moved = [code for code in ROOMS if before[code] != after[code]]
    assert moved and all(after[code] == "web-4" for code in moved), (moved, after)
    assert 10 <= len(moved) <= 35, len(moved)          # about a quarter of 80
