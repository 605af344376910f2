"""Closing and purging through the ladder and the store's verbs alone, on both stores (the
database's and the one in memory): what test_lifecycle.py shows over HTTP and sockets."""
import pytest

from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.models import Room
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock
from partyhub.rooms.write import lifecycle, services
from tests.rooms.helpers import make_room, player, start_count, tv
from tests.rooms.conftest import events

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("backend")]
HOUR_MS, DAY_MS = 3_600_000, 86_400_000


@pytest.fixture(autouse=True)
def lifecycle_settings(settings):
    settings.PARTYHUB_ROOM_IDLE_SECONDS = 3600
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 600
    settings.PARTYHUB_ROOM_RETENTION_DAYS = 7


def later(hours=0.0, days=0.0) -> int:
    return clock.wall_ms() + int(hours * HOUR_MS + days * DAY_MS)


def refused(code, fn, *args):
    with pytest.raises(ServiceError) as e:
        fn(*args)
    assert e.value.code == code, e.value.code


def rewrite(code: str, **fields) -> Room:
    """Set columns of the room's row as they are (a test's shortcut past the ladder)."""
    room = store.load(code, "read")
    for name, value in fields.items():
        setattr(room, name, value)
    room.version += 1
    store.save(room)
    return room


def test_an_idle_room_closes_once_logs_it_and_refuses_every_write():
    code, host, seats = make_room(3)
    start_count(code, target=50, turn_seconds=30)
    services.seat_connect(code, seats[0].player_id, "chan-1")
    assert lifecycle.close_idle(later(hours=0.9)) == 0
    assert lifecycle.close_idle(later(hours=1.1)) == 1
    room = store.load(code, "read")
    assert room.closed_at is not None and room.deadline_at is None
    assert not any(s.connected for s in store.seats(room, fresh=True))
    assert len(events(code, "room_closed")) == 1
    refused("room_closed", services.room_apply, code, player(seats[0]), "x", {"type": "say", "text": "hi"})
    refused("room_closed", services.room_apply, code, tv(), None, {"type": "pause"})
    refused("room_closed", selectors.actor_for, code, host)
    assert services.room_tick(code, later(days=1)) is None
    assert lifecycle.close_idle(later(hours=2)) == 0
    assert store.put("touch", [code]) == 0


def test_a_touched_room_stays_open_and_an_empty_one_closes_sooner():
    used, _, _ = make_room(2)
    empty, _, _ = make_room(0)
    assert lifecycle.heartbeat([used], later(hours=0.5)) == 1
    assert lifecycle.idle_codes(later(hours=0.2)) == [empty]           # 12 minutes: the empty one
    assert lifecycle.close_idle(later(hours=1.2)) == 1                 # the touched one is not idle
    assert store.load(used, "read").closed_at is None
    assert events(empty, "room_closed")[0].data == {"idle_since": store.load(empty, "read").active_at,
                                                     "empty": True}


def closed(days_ago: float) -> tuple[str, int]:
    code, _, seats = make_room(3)
    start_count(code, target=50, turn_seconds=30)
    services.room_apply(code, player(seats[0]), "a", {"type": "say", "text": "hello"})
    assert lifecycle.close(code, later(hours=2))
    room = rewrite(code, closed_at=later(days=-days_ago))
    return code, room.pk


def test_a_room_past_its_retention_is_purged_whole_and_its_code_is_free_again():
    old, old_pk = closed(days_ago=8)
    young, young_pk = closed(days_ago=6)
    living, _, _ = make_room(1)
    assert lifecycle.due_ids(later()) == [old_pk]
    held = store.find("held_rows", old_pk)
    gone = lifecycle.purge()
    assert (gone.rooms, gone.seats, gone.events) == (1, 3, held[1]) and held[1] >= 5
    assert store.find("held_rows", old_pk) == (0, 0, 0, 0)
    assert store.find("held_rows", young_pk)[0] == 3
    assert store.find("held", [old, young, living]) == {young, living}
    refused("room_not_found", selectors.room_get, old)
    refused("room_closed", selectors.room_get, young)
    assert store.save(Room(code=old, host_token_hash="h" * 64))


def test_a_purge_leaves_a_room_with_a_connected_seat():
    code, pk = closed(days_ago=30)
    room = store.load(code, "read")
    seat = store.seats(room, fresh=True)[0]
    seat.connected = True
    store.put("seat", seat, ("connected",))
    assert lifecycle.purge().rooms == 0 and store.find("held", [code]) == {code}


def test_a_refused_decision_leaves_no_trace_in_the_store():
    code, _, seats = make_room(2)
    start_count(code, target=50)
    before = store.load(code, "read").version
    logged = len(events(code))
    refused("not_your_turn", services.room_apply, code, player(seats[1]), "x", {"type": "add", "n": 1})
    assert store.load(code, "read").version == before and len(events(code)) == logged
