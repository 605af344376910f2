"""The room's life: idle rooms close, closed rooms refuse everything, old ones are purged whole."""
import io

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db import DatabaseError

from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.models import Event, Room, Seat, StreamItem
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock
from partyhub.rooms.write import lifecycle, services
from tests.rooms.helpers import make_room, player, start_count, tv
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db
HOUR_MS, DAY_MS = 3_600_000, 86_400_000


@pytest.fixture(autouse=True)
def lifecycle_settings(settings):
    settings.PARTYHUB_ROOM_IDLE_SECONDS = 3600
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 3600     # test_empty_rooms: a shorter one
    settings.PARTYHUB_ROOM_RETENTION_DAYS = 7


def refused(code, fn, *args, **kwargs):
    with pytest.raises(ServiceError) as e:
        fn(*args, **kwargs)
    assert e.value.code == code, e.value.code
    return e.value


def later(hours=0.0, days=0.0) -> int:
    return clock.wall_ms() + int(hours * HOUR_MS + days * DAY_MS)


@pytest.mark.django_db(transaction=True)
def test_a_room_nobody_used_for_the_idle_time_is_closed_and_says_so_everywhere(client):
    code, host, seats = make_room(3)
    start_count(code, target=50, turn_seconds=30)
    assert lifecycle.close_idle(later(hours=0.9)) == 0        # not idle yet
    assert lifecycle.close_idle(later(hours=1.1)) == 1
    room = Room.objects.get(code=code)
    assert room.closed_at is not None and room.deadline_at is None
    assert not Seat.objects.filter(room=room, connected=True).exists()
    assert Event.objects.filter(room=room, type="room_closed").count() == 1
    answer = client.get(f"/api/rooms/{code}")
    assert answer.status_code == 410 and answer.json()["error"]["code"] == "room_closed"
    joined = client.post(f"/api/rooms/{code}/join", {"name": "Late"}, content_type="application/json")
    assert joined.status_code == 410 and joined.json()["error"]["code"] == "room_closed"
    refused("room_closed", services.room_apply, code, player(seats[0]), "x", {"type": "say", "text": "hi"})
    refused("room_closed", services.room_apply, code, tv(), None, {"type": "pause"})
    refused("room_closed", services.seat_connect, code, seats[0].player_id, "chan")
    refused("room_closed", selectors.actor_for, code, host)
    assert services.room_tick(code, later(days=1)) is None      # its timer never fires again
    assert lifecycle.close_idle(later(hours=2)) == 0            # closed once


def test_every_write_a_person_causes_keeps_the_room_alive_but_a_timer_does_not():
    code, _, seats = make_room(2)
    start_count(code, target=50, turn_seconds=1)
    before = Room.objects.get(code=code).active_at
    services.room_tick(code, later(hours=0.5))                  # the turn timer fires
    assert Room.objects.get(code=code).active_at == before
    services.room_apply(code, player(seats[0]), "a", {"type": "say", "text": "still here"})
    assert Room.objects.get(code=code).active_at >= before
    assert lifecycle.close_idle(later(hours=0.99)) == 0


def test_a_room_whose_tv_is_still_connected_is_not_idle_in_the_lobby_or_paused():
    lobby, _, _ = make_room(0)
    paused, _, _ = make_room(2)
    start_count(paused, target=50, turn_seconds=30)
    services.room_apply(paused, tv(), None, {"type": "pause"})
    # the process holding the TV sockets beats for both rooms, hours on end
    for h in (0.75, 1.5, 2.25, 3.0):
        lifecycle.heartbeat([lobby, paused], later(hours=h))
        assert lifecycle.close_idle(later(hours=h + 0.5)) == 0
    # the TVs go away: an idle time after the last beat, both close
    assert lifecycle.close_idle(later(hours=4.1)) == 2


def test_a_socket_that_opens_as_the_room_closes_either_keeps_it_or_is_refused():
    code, _, _ = make_room(1)
    assert store.put("touch", [code], later(hours=1.5))                  # the TV connected just now
    assert lifecycle.close(code, later(hours=1.6)) is False
    assert lifecycle.close(code, later(hours=2.6)) is True
    assert store.put("touch", [code]) == 0                           # a socket now is refused


@pytest.mark.django_db(transaction=True)
async def test_a_socket_to_a_closed_room_gets_an_error_frame_then_a_close():
    code, host, seats = await database_sync_to_async(make_room)(2)
    await database_sync_to_async(lifecycle.close_idle)(later(hours=2))
    for token in (host, seats[0].token, None):
        c = Client(code, token)
        assert await c.open() == 4010
        assert c.frames[0]["t"] == "error" and c.frames[0]["d"]["code"] == "room_closed"
    unknown = Client("ZZZZ")
    assert await unknown.open() == 4010
    assert unknown.frames[0]["d"]["code"] == "room_not_found"


def closed_room_with_everything(days_ago: float):
    """A played room with events and a stream item, closed `days_ago` days ago."""
    code, _, seats = make_room(3)
    start_count(code, target=50, turn_seconds=30)
    services.room_apply(code, player(seats[0]), "a", {"type": "say", "text": "hello"})
    room = Room.objects.get(code=code)
    StreamItem.objects.create(room=room, game_no=room.game_no, seat=seats[0].player_id, data={"x": 1})
    assert lifecycle.close(code, later(hours=2))
    Room.objects.filter(pk=room.pk).update(closed_at=later(days=-days_ago))
    return code, room.pk


def test_rooms_closed_longer_than_the_retention_are_deleted_whole_and_their_codes_are_free():
    old_code, old_pk = closed_room_with_everything(days_ago=8)
    young_code, young_pk = closed_room_with_everything(days_ago=6)
    living, _, _ = make_room(1)
    gone = lifecycle.purge()
    assert (gone.rooms, gone.seats, gone.stream_items) == (1, 3, 1) and gone.events >= 5
    for model in (Seat, Event, StreamItem):
        assert not model.objects.filter(room_id=old_pk).exists()
        assert model.objects.filter(room_id=young_pk).exists()
    assert not Room.objects.filter(pk=old_pk).exists()
    assert Room.objects.filter(code=living).exists()
    refused("room_not_found", selectors.room_get, old_code)
    refused("room_closed", selectors.room_get, young_code)
    assert store.save(Room(code=old_code, host_token_hash="h" * 64))   # the code is free again


def test_a_purge_that_fails_midway_deletes_nothing_of_that_room(monkeypatch):
    _, pk = closed_room_with_everything(days_ago=30)
    real = Event.objects.filter

    def broken(*args, **kwargs):
        qs = real(*args, **kwargs)
        qs.delete = lambda: (_ for _ in ()).throw(DatabaseError("disk full"))
        return qs
    monkeypatch.setattr(Event.objects, "filter", broken)
    with pytest.raises(DatabaseError):
        lifecycle.purge()
    monkeypatch.undo()
    assert Room.objects.filter(pk=pk).exists() and Seat.objects.filter(room_id=pk).count() == 3
    assert lifecycle.purge().rooms == 1


def test_a_purge_never_touches_a_room_with_a_connected_seat():
    _, pk = closed_room_with_everything(days_ago=30)
    Seat.objects.filter(room_id=pk).update(connected=True)      # as if a socket were still open
    assert lifecycle.purge().rooms == 0 and Room.objects.filter(pk=pk).exists()


def test_the_purge_command_counts_with_dry_run_and_deletes_without():
    closed_room_with_everything(days_ago=10)
    idle, _, _ = make_room(1)
    Room.objects.filter(code=idle).update(active_at=later(days=-2))
    out = io.StringIO()
    call_command("purge_rooms", "--dry-run", stdout=out)
    assert "would close 1 idle rooms; would delete 1 closed rooms (3 seats" in out.getvalue()
    assert Room.objects.count() == 2 and Room.objects.filter(closed_at__isnull=True).count() == 1
    out = io.StringIO()
    call_command("purge_rooms", stdout=out)
    assert "closed 1 idle rooms; deleted 1 closed rooms (3 seats" in out.getvalue()
    assert [(r.code, r.closed_at is not None) for r in Room.objects.all()] == [(idle, True)]


def test_the_timekeeper_pass_closes_and_purges_in_small_batches(monkeypatch):
    monkeypatch.setattr(lifecycle, "BATCH", 2)
    for _ in range(3):
        closed_room_with_everything(days_ago=9)
    for _ in range(3):
        code, _, _ = make_room(0)
        Room.objects.filter(code=code).update(active_at=later(days=-1))
    closed, purged = lifecycle.maintain()
    assert (closed, purged.rooms) == (2, 2)
    closed, purged = lifecycle.maintain()
    assert (closed, purged.rooms) == (1, 1)


def test_the_heartbeat_comes_often_enough_to_keep_a_room_with_a_socket_alive(settings):
    for idle in (2, 60, 3600, 12 * 3600):
        settings.PARTYHUB_ROOM_IDLE_SECONDS = idle
        assert lifecycle.heartbeat_seconds() <= min(60, max(0.5, idle / 4))


def test_a_room_nobody_joined_closes_after_the_shorter_empty_idle(settings):
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 600
    empty, _, _ = make_room(0)
    kicked, _, kicked_seats = make_room(1)
    Seat.objects.filter(pk=kicked_seats[0].pk).update(kicked=True)     # no seat left
    joined, _, _ = make_room(1)
    assert lifecycle.close_idle(later(hours=0.15)) == 0                  # 9 minutes
    assert set(lifecycle.idle_codes(later(hours=0.2))) == {empty, kicked}
    assert lifecycle.close_idle(later(hours=0.2)) == 2                   # 12 minutes
    assert Room.objects.get(code=joined).closed_at is None
    closing = Event.objects.get(room__code=empty, type="room_closed")
    assert closing.data["empty"] is True
    assert lifecycle.close_idle(later(hours=1.1)) == 1                   # the idle time
    assert Event.objects.get(room__code=joined, type="room_closed").data["empty"] is False


def test_an_empty_room_with_its_tv_connected_stays_and_the_heartbeat_keeps_up(settings):
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 600
    assert lifecycle.heartbeat_seconds() == 60
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 2
    assert lifecycle.heartbeat_seconds() == 0.5
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 600
    code, _, _ = make_room(0)
    for minutes in (8, 16, 24):
        lifecycle.heartbeat([code], later(hours=minutes / 60))
        assert lifecycle.close(code, later(hours=(minutes + 9) / 60)) is False
    assert lifecycle.close(code, later(hours=(24 + 11) / 60)) is True


def test_a_room_nobody_ever_joined_is_purged_the_empty_idle_after_it_closed(settings):
    settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS = 600
    empty, _, _ = make_room(0)
    kicked, _, kicked_seats = make_room(1)
    Seat.objects.filter(pk=kicked_seats[0].pk).update(kicked=True)     # it had a player: kept
    assert lifecycle.close_idle(later(hours=0.2)) == 2
    assert lifecycle.purge(later(hours=0.3)).rooms == 0                  # closed 6 minutes ago
    gone = lifecycle.purge(later(hours=0.4))                             # 12 minutes ago
    assert (gone.rooms, gone.seats) == (1, 0)
    assert not Room.objects.filter(code=empty).exists()
    assert Room.objects.filter(code=kicked).exists()
    assert lifecycle.purge(later(days=7.5)).rooms == 1                   # the retention
