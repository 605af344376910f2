"""The room store's per-process cache: one bounded entry per room, forgotten when unused."""
import time

import pytest

from partyhub.rooms.store import store
from tests.rooms.helpers import make_room, player, start_count

pytestmark = pytest.mark.django_db


@pytest.fixture
def cache(settings):
    settings.PARTYHUB_ROOM_CACHE_MAX = 50
    settings.PARTYHUB_ROOM_CACHE_IDLE_SECONDS = 0.2
    old, store.CACHE = store.CACHE, store.RoomCache(store._bound)
    yield store.CACHE
    store.CACHE = old


def test_the_cache_never_holds_more_than_its_bound_least_recently_used_out_first(cache, settings):
    settings.PARTYHUB_ROOM_CACHE_MAX = 4
    for i in range(10):
        cache.put(f"R{i:03d}", "snapshot", (i, None, [], 0.0))
    assert cache.codes() == ["R006", "R007", "R008", "R009"]
    cache.get("R006", "snapshot")
    cache.put("NEW1", "seats", (1, []))
    assert cache.codes() == ["R008", "R009", "R006", "NEW1"]


def test_a_sweep_forgets_idle_rooms_without_a_socket_here_and_keeps_the_rest(cache):
    for code in ("AAAA", "BBBB", "CCCC"):
        cache.put(code, "seats", (1, []))
    time.sleep(0.25)
    cache.get("CCCC", "seats")              # used just now
    assert store.sweep(keep={"BBBB"}) == 1   # BBBB has a socket here
    assert cache.codes() == ["BBBB", "CCCC"]


def test_everything_kept_of_a_room_is_one_entry_and_forget_drops_it_all(cache):
    code, _, seats = make_room(2)
    change = start_count(code, target=50)
    store.keep(change.room.code, "snapshot", (change.room, change.seats))
    store.seats(change.room)
    assert cache.get(code, "snapshot") is not None and cache.get(code, "seats") is not None
    assert len(cache) == 1
    store.forget(code)
    assert len(cache) == 0 and store.kept(code, "snapshot") is None


def test_a_forgotten_room_costs_a_read_and_nothing_else(cache):
    from partyhub.rooms.write import services
    code, _, seats = make_room(2)
    start_count(code, target=50)
    store.forget(code)
    change = services.room_apply(code, player(seats[0]), "a", {"type": "say", "text": "hi"})
    assert change.room.state["said"][-1][-1] == "hi"


def test_an_older_snapshot_never_replaces_a_newer_one(cache):
    code, _, _ = make_room(1)
    new = start_count(code, target=50)
    store.keep(new.room.code, "snapshot", (new.room, new.seats))
    old = store.Change(type(new.room).objects.get(code=code), new.seats)
    old.room.version -= 1
    store.keep(old.room.code, "snapshot", (old.room, old.seats))
    assert store.kept(code, "snapshot")[0] == new.room.version
