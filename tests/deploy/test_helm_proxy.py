"""The chart's routing proxy run by a real nginx (Debian's) in front of stand-in replicas on
loopback (tests/deploy/helm_nginx.py): every path of a room reaches one replica, rooms spread,
requests naming no room go anywhere, a dead replica's rooms move to the others and only
those, a replica added takes only its share, and a client cannot pick its own address.
"""
import shutil

import pytest

from tests.conftest import need
from tests.deploy.helm import renderer  # noqa: F401 (autouse: the test extra is there)
from tests.deploy.helm_nginx import Proxy
from tests.deploy.routing import replicas  # noqa: F401 (the stand-in replicas: a fixture)
from tests.deploy.routing import (only_a_share_moved_to, only_the_dead_replicas_rooms_moved, owners,
                                   room_less_requests_anywhere, rooms_on_one_replica_each_and_spread)

pytestmark = pytest.mark.slow


@pytest.fixture
def proxy(tmp_path):
    need(shutil.which("nginx") is not None, "nginx (Debian: apt-get install nginx)")
    made = []

    def make(**values) -> Proxy:
        made.append(Proxy(tmp_path / f"nginx{len(made)}", **values))
        return made[-1]

    yield make
    for p in made:
        p.stop()


def test_every_path_of_a_room_reaches_one_replica_and_rooms_spread(proxy, replicas):
    p = proxy()
    p.start(replicas[:3])
    rooms_on_one_replica_each_and_spread(p, ["web-1", "web-2", "web-3"])


def test_requests_naming_no_room_go_anywhere(proxy, replicas):
    p = proxy()
    p.start(replicas[:3])
    room_less_requests_anywhere(p, ["web-1", "web-2", "web-3"])


def test_a_dead_replicas_rooms_move_and_only_those(proxy, replicas):
    p = proxy()
    p.start(replicas[:3])
    before = owners(p)
    replicas[1].stop()          # web-2 dies; the configuration still names it
    only_the_dead_replicas_rooms_moved(before, owners(p), "web-2")


def test_a_replica_added_takes_only_its_share(proxy, replicas):
    p = proxy()
    p.start(replicas[:3])
    before = owners(p)
    p.reload(replicas[:4])
    only_a_share_moved_to(before, owners(p), "web-4")


FORWARDED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}


def test_the_edge_proxy_gives_the_peer_address_and_scheme_not_the_clients_headers(proxy, replicas):
    p = proxy()
    p.start(replicas[:1])
    assert p.get("/", headers=FORWARDED)[0] == "127.0.0.1 http"


def test_behind_a_trusted_proxy_its_forwarded_address_and_scheme_are_believed(proxy, replicas):
    p = proxy(trustedProxies=["127.0.0.1/32"])
    p.start(replicas[:1])
    assert p.get("/", headers=FORWARDED)[0] == "203.0.113.9 https"
    assert p.get("/", headers={"X-Forwarded-Proto": "gopher"})[0] == "127.0.0.1 http"


def test_a_proxy_not_trusted_is_not_believed(proxy, replicas):
    p = proxy(trustedProxies=["192.0.2.0/24"])
    p.start(replicas[:1])
    assert p.get("/", headers=FORWARDED)[0] == "127.0.0.1 http"
