"""The ladder's shared steps: every write of a room ends in `save` here, which sets what the
room's clocks say (the all-bots pace, the next deadline, the activity) before the store
writes the row. The store knows no game and no timer: it writes what it is given."""
from __future__ import annotations

from partyhub.rooms.access.living import living
from partyhub.rooms.models import Room
from partyhub.rooms.store import store
from partyhub.rooms.store.store import Change
from partyhub.rooms.timers import clock, pace


def save(room: Room, seats=None, expected: int | None = None, seats_changed: bool = True,
         active: bool = False) -> bool:
    """Write the decided room through the store (`store.save`) as its next version, with its
    next deadline. With `expected`, only if the stored version still is that (the unlocked
    path); False when another write came first. `seats_changed=False` when the write touched
    no seat (game actions, timers). `active` when a person caused it (an action, a join, a
    socket), which keeps the room from being closed as idle (lifecycle.py).

    The version is bumped before the deadline is computed: a stand-in that rests until the
    room changes waits on the version this write makes (timers/standin.py)."""
    room.version += 1
    if seats_changed:
        room.seats_version += 1
    now = clock.wall_ms()
    if active:
        room.active_at = now
    if seats is not None:
        pace.mark(room, seats, now)     # a reveal with only bots at the table
    room.deadline_at = clock.due_at(room, seats)
    return store.save(room, seats, expected=expected)


def lock(code: str) -> Room:
    """The living room, locked for this transaction (room_not_found, room_closed)."""
    return living(store.load(str(code).upper()))


def room_change(code: str, change) -> Change:
    """`change(room, seats)` decided on the locked room (refusals raise), written as a new
    version that every view hears: a change of the room's settings made outside a frame
    (table photos, domain/photos.py)."""
    with store.atomic():
        room = lock(code)
        seats = store.seats(room)
        change(room, seats)
        save(room, seats, seats_changed=False, active=True)
    return Change(room, seats)
