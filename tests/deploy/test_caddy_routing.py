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
from tests.deploy.helm_nginx import get
from tests.deploy.routing import replicas  # noqa: F401 (the stand-in replicas: a fixture)
from tests.deploy.routing import (ROOMS, only_a_share_moved_to, only_the_dead_replicas_rooms_moved, owners,
                                   room_less_requests_anywhere, rooms_on_one_replica_each_and_spread)
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
        return get("127.0.0.1", self.port, path, headers)[1]

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


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
    rooms_on_one_replica_each_and_spread(c, ["web-1", "web-2", "web-3"])


def test_requests_naming_no_room_go_anywhere_and_the_header_picks_nothing(caddy, replicas):
    c = caddy()
    c.start(replicas[:3])
    room_less_requests_anywhere(c, ["web-1", "web-2", "web-3"])
    forged = {"X-Partyhub-Room": ROOMS[0]}
    room_less_requests_anywhere(c, ["web-1", "web-2", "web-3"], forged)
    for code in ROOMS[:20]:
        assert c.replica_of(f"/j/{code}", forged) == c.replica_of(f"/j/{code}")


def test_a_dead_replicas_rooms_move_and_only_those(caddy, replicas):
    """A replica that stops answering is passed over for 10 s after a failed connect
    (fail_duration), its rooms going to the others, until Docker's DNS drops its name."""
    c = caddy()
    c.start(replicas[:3])
    before = owners(c)
    replicas[1].stop()          # web-2 dies; the configuration still names it
    only_the_dead_replicas_rooms_moved(before, owners(c), "web-2")


def test_a_replica_added_takes_only_its_share(caddy, replicas):
    c = caddy()
    c.start(replicas[:3])
    before = owners(c)
    c.stop()
    c = caddy()
    c.start(replicas)
    only_a_share_moved_to(before, owners(c), "web-4")
