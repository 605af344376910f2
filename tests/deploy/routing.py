"""What a proxy that routes rooms must do, checked the same way for the chart's nginx
(test_helm_proxy.py) and the https profile's Caddy (test_caddy_routing.py): anything with
`replica_of(path, headers=None)` that names the replica which answered; `replicas`, the
stand-ins behind it (helm_nginx.Replica), is the fixture both modules import."""
import pytest

from tests.deploy.helm_nginx import Replica

ROOMS = [f"{a}{b}QZ" for a in "ABCDEFGHJK" for b in "MNPRSTUV"]   # 80 codes
FORMS = ["/ws/rooms/{}", "/api/rooms/{}/join", "/j/{}", "/tv/{}", "/r/{}/keepsakes"]


@pytest.fixture
def replicas():
    made = [Replica(f"web-{n}") for n in range(1, 5)]
    yield made
    for r in made:
        r.stop()


def owners(proxy) -> dict:
    return {code: proxy.replica_of(f"/j/{code}") for code in ROOMS}


def rooms_on_one_replica_each_and_spread(proxy, names: list):
    where = {code: {proxy.replica_of(form.format(code)) for form in FORMS} for code in ROOMS}
    assert all(len(got) == 1 for got in where.values()), where
    per_replica = {n: sum(got == {n} for got in where.values()) for n in names}
    assert all(k >= 10 for k in per_replica.values()), per_replica    # 80 rooms over 3


def room_less_requests_anywhere(proxy, names: list, headers=None):
    assert {proxy.replica_of(path, headers) for path in ["/", "/api/rooms", "/static/tv.js"] * 20} == set(names)


def only_the_dead_replicas_rooms_moved(before: dict, after: dict, dead: str):
    assert dead not in after.values()
    assert all(after[code] == before[code] for code in ROOMS if before[code] != dead)


def only_a_share_moved_to(before: dict, after: dict, new: str):
    moved = [code for code in ROOMS if after[code] != before[code]]
    assert all(after[code] == new for code in moved), (moved, after)      # nothing moves between the others
    assert len(ROOMS) // 10 <= len(moved) <= len(ROOMS) // 2, len(moved)   # about a quarter
