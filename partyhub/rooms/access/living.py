"""The room a code names, while it is open: what every read and join starts from."""
from __future__ import annotations

from partyhub.rooms.core.errors import fail
from partyhub.rooms.models import Room
from partyhub.rooms.store import store


def living(room: Room | None) -> Room:
    """The room, if it exists and is not closed (else room_not_found / room_closed)."""
    if room is None:
        raise fail("room_not_found")
    if room.closed_at is not None:
        raise fail("room_closed")
    return room


def room_get(code: str) -> Room:
    return living(store.load(str(code).upper(), "read"))
