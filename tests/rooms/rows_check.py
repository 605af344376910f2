"""Checks that partyhub/rooms/rows.py reads and writes the rows the ORM would.

`check_all()` runs inside a configured Django (the SQLite test database in-process, or a
PostgreSQL database in a subprocess: `python -m tests.rooms.rows_check`, DATABASE_URL set).
"""
from __future__ import annotations


def check_reads_match_the_orm():
    from django.db import transaction

    from partyhub.rooms import rows, services
    from partyhub.rooms.models import Room
    from tests.rooms.helpers import make_room, player, start_count

    code, _, seats = make_room(3, "uk")
    start_count(code, target=50, turn_seconds=30)
    services.room_apply(code, player(seats[0]), "a1", {"type": "say", "text": "прива́т <b>"})
    services.room_apply(code, services.Actor("tv"), None, {"type": "pause"})
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

    from partyhub.rooms import rows
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

    from partyhub.rooms import rows
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

    from partyhub.rooms import rows
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
    from partyhub.rooms import rows
    from partyhub.rooms.models import Event, Room
    from tests.rooms.helpers import make_room

    if not rows.unlocked_writes():
        return
    code, _, _ = make_room(1)

    def attempt(expected, tag):
        room = rows.read_room(code)
        room.state, room.version = {"tag": tag}, room.version + 1
        ev = [Event(room=room, version=room.version, game_no=0, at=1, seat="", type=tag, data={})]
        return rows.save_room(room, ev + ev[:1], expected=expected)

    first = Room.objects.get(code=code).version
    assert attempt(first, "won") is True
    assert attempt(first, "lost") is False            # the version moved on meanwhile
    back = Room.objects.get(code=code)
    assert back.version == first + 1 and back.state == {"tag": "won"}
    assert Event.objects.filter(room=back, type="won").count() == 2
    assert not Event.objects.filter(room=back, type="lost").exists()


def check_concurrent_actions_are_each_applied_once():
    """PostgreSQL only (the unlocked path): threads acting on one room at once lose nothing
    and apply nothing twice."""
    import threading

    from django.db import connection

    from partyhub.rooms import rows, services
    from partyhub.rooms.errors import ServiceError
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
                    services.room_apply(code, player(seat), i, {"type": "say", "text": i})
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
    from partyhub.rooms import rows, services
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
    from partyhub.rooms import rows
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


# The unlocked write exists on PostgreSQL only; on SQLite these would check nothing.
PG_ONLY = {check_skip_locked_passes_over_a_locked_room, check_conditional_writes_need_the_version_read,
           check_concurrent_actions_are_each_applied_once}
CHECKS = [check_reads_match_the_orm, check_seats_match_the_orm, check_inserted_seats_match_the_orm,
          check_writes_match_the_orm,
          check_stream_items_are_seen_by_the_locking_read, check_skip_locked_passes_over_a_locked_room,
          check_conditional_writes_need_the_version_read, check_concurrent_actions_are_each_applied_once]


def main() -> None:
    import os

    import django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "partyhub.settings")
    django.setup()
    from django.core.management import call_command

    from partyhub.rooms import registry
    from tests.testgame.rules import GAME
    registry.register(GAME)
    call_command("migrate", verbosity=0)
    for check in CHECKS:
        check()
        print("ok", check.__name__, flush=True)


if __name__ == "__main__":
    main()
