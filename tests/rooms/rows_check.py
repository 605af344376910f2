"""Checks that partyhub/rooms/store/rows.py reads and writes the rows the ORM would.

`check_all()` runs inside a configured Django (the SQLite test database in-process, or a
PostgreSQL database in a subprocess: `python -m tests.rooms.rows_check`, DATABASE_URL set).
"""
from __future__ import annotations


def check_reads_match_the_orm():
    from django.db import transaction

    from partyhub.rooms.store import rows
    from partyhub.rooms.write import services
    from partyhub.rooms.models import Room
    from partyhub.rooms.access.selectors import Actor
    from tests.rooms.helpers import make_room, player, start_count

    code, _, seats = make_room(3, "uk")
    start_count(code, target=50, turn_seconds=30)
    services.room_apply(code, player(seats[0]), "a1", {"type": "say", "text": "прива́т <b>"})
    services.room_apply(code, Actor("tv"), None, {"type": "pause"})
    orm = Room.objects.get(code=code)
    with transaction.atomic():
        lean = rows.lock_room(code)
    assert lean is not None and lean.pk == orm.pk
    for f in Room._meta.concrete_fields:
        assert getattr(lean, f.attname) == getattr(orm, f.attname), f.name
    assert lean.streams_pending is False
    with transaction.atomic():
        assert rows.lock_room("ZZZZ") is None


def check_writes_match_the_orm():
    from django.db import transaction

    from partyhub.rooms.store import rows
    from partyhub.rooms.models import Event, Room
    from tests.rooms.helpers import make_room

    code, _, _ = make_room(1)
    with transaction.atomic():
        room = rows.lock_room(code)
        before = room.updated_at
        room.state = {"nested": [1, {"ü": None}], "text": "'; DROP TABLE x; --"}
        room.settings = {**room.settings, "locked": True}
        room.paused_at, room.version = 1234, room.version + 1
        ev = [Event(room=room, version=room.version, game_no=room.game_no, at=5, seat="p1",
                    type=f"t{i}", data={"i": i, "s": "ї"}) for i in range(3)]
        rows.save_room(room, ev)
    back = Room.objects.get(code=code)
    assert back.state == room.state and back.settings["locked"] is True
    assert back.paused_at == 1234 and back.version == room.version
    assert back.updated_at > before                      # auto_now, as Model.save() does
    stored = list(Event.objects.filter(room=back, type__startswith="t").order_by("id"))
    assert [(e.type, e.data, e.at, e.seat) for e in stored] == [
        (f"t{i}", {"i": i, "s": "ї"}, 5, "p1") for i in range(3)]
    with transaction.atomic():
        room = rows.lock_room(code)
        room.version += 1
        rows.save_room(room)                              # no events: the update alone
    assert Room.objects.get(code=code).version == room.version


def check_stream_items_are_seen_by_the_locking_read():
    from django.db import transaction

    from partyhub.rooms.store import rows
    from partyhub.rooms.models import Room, StreamItem
    from tests.rooms.helpers import make_room, start_count

    code, _, seats = make_room(2)
    start_count(code)
    room = Room.objects.get(code=code)
    StreamItem.objects.create(room=room, game_no=room.game_no - 1, seat="old", data={"x": 0})
    with transaction.atomic():
        assert rows.lock_room(code).streams_pending is False   # an earlier game's item
    for i in range(3):
        StreamItem.objects.create(room=room, game_no=room.game_no, seat=seats[i % 2].player_id,
                                  data={"pts": [i, i + 1]})
    with transaction.atomic():
        locked = rows.lock_room(code)
        assert locked.streams_pending is True
        items = rows.stream_items(locked)
    assert [(s, d) for _, s, d in items] == [(seats[i % 2].player_id, {"pts": [i, i + 1]})
                                             for i in range(3)]
    assert [pk for pk, _, _ in items] == sorted(pk for pk, _, _ in items)


def check_skip_locked_passes_over_a_locked_room():
    """PostgreSQL only: the timekeeper's read does not wait for a room another holds."""
    import threading

    from django.db import connection, transaction

    from partyhub.rooms.store import rows
    from tests.rooms.helpers import make_room

    if not connection.features.has_select_for_update_skip_locked:
        return
    code, _, _ = make_room(1)
    held, release, seen = threading.Event(), threading.Event(), {}

    def holder():
        with transaction.atomic():
            rows.lock_room(code)
            held.set()
            release.wait(10)
        connection.close()

    t = threading.Thread(target=holder)
    t.start()
    try:
        assert held.wait(10)
        with transaction.atomic():
            seen["skip"] = rows.lock_room(code, skip_locked=True)
    finally:
        release.set()
        t.join()
    assert seen["skip"] is None
    with transaction.atomic():
        assert rows.lock_room(code, skip_locked=True) is not None


def check_conditional_writes_need_the_version_read():
    """PostgreSQL only: the unlocked write lands with its events, or not at all."""
    from partyhub.rooms.store import rows
    from partyhub.rooms.models import Event, Room, StreamItem
    from tests.rooms.helpers import make_room

    if not rows.unlocked_writes():
        return
    code, _, _ = make_room(1)

    def attempt(expected, tag):
        room = rows.read_room(code)
        room.state, room.version = {"tag": tag}, room.version + 1
        ev = [Event(room=room, version=room.version, game_no=0, at=1, seat="", type=tag, data={})]
        return rows.save_room(room, ev + ev[:1], expected=expected) is not None

    first = Room.objects.get(code=code).version
    assert attempt(first, "won") is True
    assert attempt(first, "lost") is False            # the version moved on meanwhile
    back = Room.objects.get(code=code)
    assert back.version == first + 1 and back.state == {"tag": "won"}
    assert Event.objects.filter(room=back, type="won").count() == 2
    assert not Event.objects.filter(room=back, type="lost").exists()
    # stored stream items of the room's game are absorbed on the locked path: no write here
    item = StreamItem.objects.create(room=back, game_no=back.game_no, seat="p1", data={})
    assert attempt(first + 1, "items") is False
    StreamItem.objects.create(room=back, game_no=back.game_no + 1, seat="p1", data={})  # another game's
    item.delete()
    assert attempt(first + 1, "no items") is True
    assert Room.objects.get(code=code).state == {"tag": "no items"}


def check_concurrent_actions_are_each_applied_once():
    """PostgreSQL only (the unlocked path): threads acting on one room at once lose nothing
    and apply nothing twice, also when they decide on the room as last committed here."""
    import threading

    from django.db import connection

    from partyhub.rooms.store import rows
    from partyhub.rooms.write import services
    from partyhub.rooms.core.errors import ServiceError
    from partyhub.rooms.models import Event, Room
    from tests.rooms.helpers import make_room, player, start_count

    if not rows.unlocked_writes():
        return
    code, _, seats = make_room(4)
    start_count(code)
    before = Room.objects.get(code=code).version
    outcomes, per = [], 15

    def act(seat, ids):
        try:
            for i in ids:
                try:
                    # half of them decide on the room as this process last committed it
                    known = -1 if seat.order % 2 else None
                    services.room_apply(code, player(seat), i, {"type": "say", "text": i}, known=known)
                    outcomes.append(("ok", i))
                except ServiceError as e:
                    outcomes.append((e.code, i))
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=(s, [f"{s.player_id}-{n}" for n in range(per)]))
               for s in seats]
    # and one action id sent twice at once from the same seat
    threads += [threading.Thread(target=act, args=(seats[0], ["twice"])) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    oks = [i for what, i in outcomes if what == "ok"]
    assert sorted(what for what, i in outcomes if i == "twice") == ["duplicate_action", "ok"]
    assert len(oks) == len(set(oks)) == 4 * per + 1
    after = Room.objects.get(code=code)
    assert after.version == before + len(oks)
    actions = Event.objects.filter(room=after, type="action", version__gt=before)
    assert sorted(e.data["text"] for e in actions) == sorted(oks)
    assert sorted(e.version for e in actions) == list(range(before + 1, after.version + 1))


def check_seats_match_the_orm():
    from partyhub.rooms.store import rows
    from partyhub.rooms.write import services
    from partyhub.rooms.models import Room, Seat
    from tests.rooms.helpers import make_room, tv

    code, _, seats = make_room(4)
    services.room_apply(code, tv(), None, {"type": "kick", "player": seats[1].player_id})
    room = Room.objects.get(code=code)
    lean, orm = rows.live_seats(room), list(room.seats.filter(kicked=False))
    assert [s.pk for s in lean] == [s.pk for s in orm] and len(lean) == 3
    for a, b in zip(lean, orm):
        for f in Seat._meta.concrete_fields:
            assert getattr(a, f.attname) == getattr(b, f.attname), f.name
        assert a.room is room                     # no query for the room it came with
    lean[0].connected, lean[0].channel = True, "specific.x!y"
    rows.save_seat(lean[0], ("connected", "channel"))
    back = Seat.objects.get(pk=lean[0].pk)
    assert (back.connected, back.channel, back.name) == (True, "specific.x!y", lean[0].name)
    every = rows.all_seats(room)
    assert [s.pk for s in every] == [s.pk for s in room.seats.all()] and len(every) == 4
    assert [s.kicked for s in every] == [False, True, False, False]


def check_inserted_seats_match_the_orm():
    from partyhub.rooms.store import rows
    from partyhub.rooms.models import Room, Seat
    from tests.rooms.helpers import make_room

    code, _, _ = make_room(1)
    room = Room.objects.get(code=code)
    values = dict(player_id="p-new", token_hash="h" * 64, name="Ї <b>'", name_key="ї <b>'",
                  color="#123456", symbol="★", order=7, playing=False, bot=True)
    lean = Seat(room=room, **values)
    rows.insert_seat(lean)
    assert lean.pk is not None and not lean._state.adding
    back = Seat.objects.get(pk=lean.pk)
    assert back.room_id == room.pk
    for name, value in values.items():
        assert getattr(back, name) == value, name
    assert (back.kicked, back.connected, back.channel) == (False, False, "")   # the defaults
    orm = Seat.objects.create(room=room, **{**values, "player_id": "p-orm", "order": 8})
    for f in Seat._meta.concrete_fields:
        if f.name not in ("id", "player_id", "order"):
            assert getattr(orm, f.attname) == getattr(back, f.attname), f.name


def check_committed_rooms_thaw_as_read():
    """The row a write returns, frozen (plain values the channel layer can carry), thaws
    into the row as read, sharing no object with the room that was written."""
    import msgpack
    from django.db import transaction

    from partyhub.rooms.store import rows
    from tests.rooms.helpers import make_room, start_count

    code, _, _ = make_room(2)
    start_count(code, target=50)
    with transaction.atomic():
        room = rows.lock_room(code)
        room.state = {**room.state, "said": [["p1", "ї <b>"]], "nested": {"n": None, "f": 1.5}}
        room.paused_at, room.version = 77, room.version + 1
        frozen = rows.save_room(room)
    read = rows.read_room(code)
    assert frozen[0] == read.version
    for thawed in (rows.thaw(frozen), rows.thaw(msgpack.unpackb(msgpack.packb(frozen)))):
        for f in type(read)._meta.concrete_fields:
            assert getattr(thawed, f.attname) == getattr(read, f.attname), f.name
        assert thawed.state is not room.state and thawed.streams_pending is False
    room.state["said"].append("changed later")       # nothing reaches the frozen row
    assert rows.thaw(frozen).state == read.state


def check_a_committed_room_is_decided_on_without_a_read():
    """PostgreSQL only: a game action decides on the room as this process committed it, one
    statement instead of two, and with the same result as after a read."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from partyhub.rooms.store import rows
    from partyhub.rooms.write import services
    from partyhub.rooms.models import Event, Room
    from tests.rooms.helpers import make_room, player, start_count

    if not rows.unlocked_writes():
        return
    code, _, seats = make_room(3)
    start_count(code, target=50)
    services.room_apply(code, player(seats[0]), "c1", {"type": "say", "text": "one"})
    known = Room.objects.get(code=code).version
    with CaptureQueriesContext(connection) as q:
        change = services.room_apply(code, player(seats[1]), "c2", {"type": "say", "text": "two"},
                                     known=known)
    assert [x["sql"].split()[0] for x in q.captured_queries] == ["WITH"], q.captured_queries
    back = Room.objects.get(code=code)
    assert back.version == known + 1 == change.room.version
    assert back.state == change.room.state and [s[1] for s in back.state["said"][-2:]] == ["one", "two"]
    assert back.recent == change.room.recent
    assert Event.objects.filter(room=back, version=known + 1, type="action").count() == 1
    # a duplicate is refused on the committed room as on a read one
    from partyhub.rooms.core.errors import ServiceError
    try:
        services.room_apply(code, player(seats[1]), "c2", {"type": "say", "text": "two"}, known=known + 1)
        raise AssertionError("a duplicate action id was applied")
    except ServiceError as e:
        assert e.code == "duplicate_action"
    # a caller that has seen a newer version than this process committed reads the row
    with CaptureQueriesContext(connection) as q:
        services.room_apply(code, player(seats[2]), "c3", {"type": "say", "text": "three"}, known=known + 5)
    assert [x["sql"].split()[0] for x in q.captured_queries] == ["SELECT", "WITH"]


def check_a_stale_committed_room_loses_nothing():
    """PostgreSQL only: when another process wrote the room after this one (its frames not
    here yet), the write on the stale room fails, and the action is read and decided again."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from partyhub.rooms.store import rows, store
    from partyhub.rooms.write import services
    from partyhub.rooms.models import Event, Room
    from tests.rooms.helpers import make_room, player, start_count, tv

    if not rows.unlocked_writes():
        return
    code, _, seats = make_room(2)
    start_count(code, target=50)
    services.room_apply(code, player(seats[0]), "s1", {"type": "say", "text": "mine"})
    stale = store.CACHE.get(code, "committed")
    services.room_apply(code, player(seats[1]), "s2", {"type": "say", "text": "elsewhere"})
    store.CACHE.put(code, "committed", stale)              # as if another process had written s2
    with CaptureQueriesContext(connection) as q:
        change = services.room_apply(code, player(seats[0]), "s3", {"type": "say", "text": "late"},
                                     known=stale[0])
    assert [x["sql"].split()[0] for x in q.captured_queries] == ["WITH", "SELECT", "WITH"]
    back = Room.objects.get(code=code)
    assert [s[-1] for s in back.state["said"][-3:]] == ["mine", "elsewhere", "late"]
    assert back.version == stale[0] + 2 == change.room.version
    versions = list(Event.objects.filter(room=back, version__gt=stale[0]).values_list("version", flat=True))
    assert sorted(set(versions)) == [stale[0] + 1, stale[0] + 2]
    # a write rolled back is never kept: the committed room stays the one before it
    kept = store.CACHE.get(code, "committed")
    try:
        with transaction.atomic():
            services.room_apply(code, tv(), None, {"type": "pause"})
            raise RuntimeError("rolled back")
    except RuntimeError:
        pass
    assert store.CACHE.get(code, "committed") is kept
    assert Room.objects.get(code=code).paused_at is None


def check_a_row_from_another_process_is_decided_on():
    """PostgreSQL only: the committed row that another process's frames carry (through the
    channel layer's msgpack) is kept, newest first, and decided on without a read."""
    import asyncio

    import msgpack
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from partyhub.rooms.live import publish
    from partyhub.rooms.relay import fanout
    from partyhub.rooms.store import rows, store
    from partyhub.rooms.write import services
    from tests.rooms.helpers import make_room, player, start_count

    if not rows.unlocked_writes():
        return
    code, _, seats = make_room(2)
    start_count(code, target=50)
    first = services.room_apply(code, player(seats[0]), "r1", {"type": "say", "text": "here"})
    mine = store.CACHE.get(code, "committed")
    there = services.room_apply(code, player(seats[1]), "r2", {"type": "say", "text": "there"})
    row = msgpack.unpackb(msgpack.packb(store.kept(code, "committed")))
    assert row[0] == there.room.version != first.room.version
    store.CACHE.put(code, "committed", mine)                # this process had only its own write
    msg = {"type": "fanout", "kind": "frames", "code": code, "v": there.room.version, "frames": {},
           "row": row, "origin": "another process"}
    asyncio.run(publish.receive(msg))
    assert store.CACHE.get(code, "committed")[0] == there.room.version
    store.keep(code, "committed", mine)            # an older row does not replace it
    assert store.CACHE.get(code, "committed")[0] == there.room.version
    newer = [there.room.version + 9, row[1]]
    for other_model in (newer + [row[2] + 1], [newer[0], row[1][:-1], row[2]], newer):
        store.keep(code, "committed", other_model)  # nor one of other columns (an upgrade)
        assert store.CACHE.get(code, "committed")[0] == there.room.version
    asyncio.run(publish.receive({**msg, "origin": fanout.PROCESS, "row": mine}))   # nor our own echo
    assert store.CACHE.get(code, "committed")[0] == there.room.version
    with CaptureQueriesContext(connection) as q:
        last = services.room_apply(code, player(seats[0]), "r3", {"type": "say", "text": "again"},
                                   known=there.room.version)
    assert [x["sql"].split()[0] for x in q.captured_queries] == ["WITH"]
    assert [t for _, t in last.room.state["said"][-3:]] == ["here", "there", "again"]
    assert rows.read_room(code).created_at == first.room.created_at


# The unlocked write exists on PostgreSQL only; on SQLite these would check nothing.
def check_a_closed_room_is_not_reopened_by_a_kept_row():
    """PostgreSQL only: a process that still keeps a room's committed row from before the room
    was closed (another process closed it) decides on it, but its conditional write fails on
    the version the close bumped, and the action is refused on the room as read: closed."""
    from partyhub.rooms.store import rows, store
    from partyhub.rooms.timers import clock
    from partyhub.rooms.write import lifecycle, services
    from partyhub.rooms.core.errors import ServiceError
    from partyhub.rooms.models import Room
    from tests.rooms.helpers import make_room, player, start_count

    if not rows.unlocked_writes():
        return
    code, _, seats = make_room(2)
    start_count(code, target=50)
    first = services.room_apply(code, player(seats[0]), "k1", {"type": "say", "text": "before"})
    kept = store.CACHE.get(code, "committed")
    assert kept[0] == first.room.version
    assert lifecycle.close(code, clock.wall_ms() + lifecycle.idle_ms() + 60_000)
    store.CACHE.put(code, "committed", kept)        # as kept by a process that missed the close
    try:
        services.room_apply(code, player(seats[0]), "k2", {"type": "say", "text": "after"},
                            known=first.room.version)
        raise AssertionError("a closed room took an action")
    except ServiceError as e:
        assert e.code == "room_closed", e.code
    back = Room.objects.get(code=code)
    assert back.closed_at is not None and back.version == first.room.version + 1
    assert back.state["said"][-1][-1] == "before"


def check_a_games_last_action_writes_its_keepsake():
    """The action that ends a game writes the game's keepsake with the room row; on PostgreSQL
    it takes the locked path (the unlocked write is one conditional statement), and the
    game's earlier actions still take the unlocked one."""
    from partyhub.rooms.store import store
    from partyhub.rooms.write import services
    from partyhub.rooms.models import Keepsake
    from tests.rooms.helpers import make_room, player, start_count

    code, _, seats = make_room(2)
    start_count(code, target=5)
    services.room_apply(code, player(seats[0]), "k1", {"type": "add", "n": 2})
    assert not Keepsake.objects.filter(room__code=code).exists()
    before = store.save
    locked = []
    store.save = lambda room, *a, **k: locked.append(k.get("expected") is None) or before(room, *a, **k)
    try:
        services.room_apply(code, player(seats[1]), "k2", {"type": "add", "n": 3})
    finally:
        store.save = before
    kept = Keepsake.objects.get(room__code=code)
    assert kept.game == "count" and kept.data["winners"] == [seats[1].player_id]
    assert kept.data["scores"] == {seats[0].player_id: 2, seats[1].player_id: 3}
    assert locked[-1] is True


def check_due_rooms_are_found():
    """The timekeeper's read (`rows.due_codes`): open rooms whose deadline has come, a batch
    at a time, as the ORM's filter finds them."""
    from partyhub.rooms.models import Room
    from partyhub.rooms.store import rows
    from tests.rooms.helpers import make_room, start_count

    codes = []
    for _ in range(3):
        code, _, _ = make_room(2)
        start_count(code, target=50, turn_seconds=5)
        codes.append(code)
    now = max(Room.objects.filter(code__in=codes).values_list("deadline_at", flat=True))
    orm = set(Room.objects.filter(deadline_at__lte=now, closed_at__isnull=True).values_list("code", flat=True))
    assert set(codes) <= orm and set(rows.due_codes(now, 1000)) == orm
    assert len(rows.due_codes(now, 2)) == 2
    Room.objects.filter(code=codes[0]).update(closed_at=now)
    assert codes[0] not in rows.due_codes(now, 1000)
    assert rows.due_codes(0, 1000) == []


def check_the_hot_statements_are_prepared():
    """PostgreSQL only: the room's read and write and the seats' reads are prepared once per
    connection (pg_prepared_statements) and bound on the server; the ORM's queries are not,
    and a connection that allows no prepared statements (PARTYHUB_DB_PREPARE=off, psycopg's
    prepare_threshold None) runs the same statements unprepared, with the same result."""
    from django.db import connection

    from partyhub.rooms.models import Room
    from partyhub.rooms.store import rows
    from partyhub.rooms.write import services
    from tests.rooms.helpers import make_room, player, start_count

    if not rows.unlocked_writes():
        return

    def prepared() -> list:
        with connection.cursor() as cur:
            cur.execute("SELECT statement FROM pg_prepared_statements")
            return [r[0] for r in cur.fetchall()]

    with connection.cursor() as cur:
        cur.execute("DEALLOCATE ALL")
    connection.connection._prepared.clear()     # psycopg's own record of what it prepared
    code, _, seats = make_room(2)
    start_count(code, target=50)
    for n in range(3):
        services.room_apply(code, player(seats[n % 2]), f"p{n}", {"type": "say", "text": f"p{n}"})
    Room.objects.get(code=code)
    texts = prepared()
    assert any(t.startswith('WITH up AS (UPDATE "rooms_room"') for t in texts), texts
    assert any(t.startswith('SELECT r."id"') and "$1" in t for t in texts), texts
    assert not any("%s" in t or "prepared later" in t for t in texts), texts
    assert not any(t.startswith('SELECT "rooms_room"."id"') for t in texts), texts   # the ORM's
    before, threshold = len(texts), connection.connection.prepare_threshold
    connection.connection.prepare_threshold = None
    try:
        services.room_apply(code, player(seats[0]), "p9", {"type": "say", "text": "prepared later"})
        assert len(prepared()) == before
    finally:
        connection.connection.prepare_threshold = threshold
    said = [t for _, t in Room.objects.get(code=code).state["said"][-4:]]
    assert said == ["p0", "p1", "p2", "prepared later"], said


CHECKS = [check_reads_match_the_orm, check_seats_match_the_orm, check_inserted_seats_match_the_orm,
          check_writes_match_the_orm,
          check_stream_items_are_seen_by_the_locking_read, check_skip_locked_passes_over_a_locked_room,
          check_conditional_writes_need_the_version_read, check_concurrent_actions_are_each_applied_once,
          check_committed_rooms_thaw_as_read, check_a_committed_room_is_decided_on_without_a_read,
          check_a_stale_committed_room_loses_nothing, check_a_row_from_another_process_is_decided_on,
          check_a_closed_room_is_not_reopened_by_a_kept_row, check_a_games_last_action_writes_its_keepsake,
          check_the_hot_statements_are_prepared, check_due_rooms_are_found]


PG_ONLY = {check_skip_locked_passes_over_a_locked_room, check_conditional_writes_need_the_version_read,
           check_concurrent_actions_are_each_applied_once, check_a_committed_room_is_decided_on_without_a_read,
           check_a_stale_committed_room_loses_nothing, check_a_row_from_another_process_is_decided_on,
           check_a_closed_room_is_not_reopened_by_a_kept_row, check_the_hot_statements_are_prepared}


def main() -> None:
    import os

    import django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "partyhub.settings")
    django.setup()
    from django.core.management import call_command

    from partyhub.rooms.gateway import registry
    from tests.testgame.rules import GAME
    registry.register(GAME)
    call_command("migrate", verbosity=0)
    for check in CHECKS:
        check()
        print("ok", check.__name__, flush=True)


if __name__ == "__main__":
    main()
