"""A room's life after its games: closed when idle, purged after the retention days.

A room lives `lobby -> playing -> over` (again and again). It is *idle* when no socket has
been open to it and nobody has acted in it for PARTYHUB_ROOM_IDLE_SECONDS, or for the
shorter PARTYHUB_EMPTY_ROOM_IDLE_SECONDS when nobody has joined it (no seat that is not
kicked): a room made and left empty frees its code soon (docs/security.md). Every write a
person causes sets `active_at` (ladder.save(active=True)), a TV or audience socket sets it
when it opens (store.put("touch")), and every process sets it for each room it holds a socket of,
every `heartbeat_seconds()` (the timekeeper calls `heartbeat`). So a room whose TV is still
connected is never idle, in the lobby or paused, empty or not, whichever process holds the TV.

An idle room is *closed* (`close_idle`): `closed_at` is set, its timer cleared and its
version bumped, so a row any process keeps for it is stale and every write path refuses it
(`room_closed`). Closing re-checks the idle condition under the room's lock, so a socket
that opens at the same moment either keeps the room alive or is refused.

A room closed for PARTYHUB_ROOM_RETENTION_DAYS is *purged* (`purge`): its stream items,
events, seats and row are deleted in one transaction per room, so a room is never
half-deleted, and its code is free again. A room nobody ever joined (no seat row, kicked
ones included) holds nothing worth keeping and is purged the empty idle time after it
closed, so that rooms made and left empty do not hold codes for the retention days. A purge never touches a room with a connected
seat (there can be none: a closed room refuses sockets; the check is kept all the same).

The timekeeper runs both in small batches (`maintain`); `manage.py purge_rooms` runs them
to the end, with `--dry-run` to only count.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings

from partyhub.rooms.core import pending
from partyhub.rooms.domain import photos
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock
from partyhub.rooms.write import ladder

log = logging.getLogger(__name__)
BATCH = 20          # rooms closed, and rooms purged, per timekeeper pass
DAY_MS = 86_400_000


def idle_ms(empty: bool = False) -> int:
    """How long a room stays open with no socket and no action; `empty`: with no seat."""
    seconds = settings.PARTYHUB_ROOM_IDLE_SECONDS
    if empty:
        seconds = min(seconds, settings.PARTYHUB_EMPTY_ROOM_IDLE_SECONDS)
    return int(seconds * 1000)


def retention_ms(empty: bool = False) -> int:
    """How long a closed room is kept; `empty`: one nobody ever joined (no seat row at all)."""
    ms = int(settings.PARTYHUB_ROOM_RETENTION_DAYS * DAY_MS)
    return min(ms, idle_ms(empty=True)) if empty else ms


def heartbeat_seconds() -> float:
    """How often a process marks the rooms it holds sockets of as active: often enough that a
    room with a socket is never idle (a quarter of the idle time), at most once a minute."""
    return max(0.5, min(60.0, idle_ms(empty=True) / 4000))


def heartbeat(codes, now: int | None = None) -> int:
    """Mark these rooms (those with a socket in this process) active now."""
    return store.put("touch", codes, now) if codes else 0


# ---------------------------------------------------------------- closing

def idle_codes(now: int, limit: int | None = BATCH) -> list[str]:
    """The living rooms idle since before `now - idle` (`now - empty idle` for a room with no
    seat), oldest first."""
    return store.find("idle", now - idle_ms(), now - idle_ms(empty=True), limit)


def close(code: str, now: int) -> bool:
    """Close the room if it is still idle (checked under its lock); False when it is not idle
    any more, already closed, or locked by a write right now."""
    with store.atomic():
        room = store.load(code, "skip")
        if room is None or room.closed_at is not None:
            return False
        seats = store.seats(room, fresh=True)
        if room.active_at >= now - idle_ms(empty=not seats):
            return False
        room.closed_at, room.paused_at = now, None
        for seat in seats:          # no socket is open (else it would not be idle)
            if seat.connected:
                seat.connected, seat.channel = False, ""
                store.put("seat", seat, ("connected", "channel"))
        pending.append(room, "room_closed", "", {"idle_since": room.active_at, "empty": not seats}, now)
        ladder.save(room, seats)     # version + 1: rows kept by any process are stale now
    store.forget(code)
    return True


def close_idle(now: int | None = None, limit: int | None = BATCH) -> int:
    """Close up to `limit` idle rooms (None: all); returns how many were closed."""
    now = clock.wall_ms() if now is None else now
    return sum(1 for code in idle_codes(now, limit) if close(code, now))


# ---------------------------------------------------------------- purging

@dataclass
class Purged:
    rooms: int = 0
    seats: int = 0
    events: int = 0
    stream_items: int = 0
    keepsakes: int = 0

    def add(self, other: "Purged") -> None:
        for name in ("rooms", "seats", "events", "stream_items", "keepsakes"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def due_ids(now: int, limit: int | None = BATCH) -> list[int]:
    """The rooms closed before `now - retention` (`now - empty idle` for a room nobody ever
    joined), oldest first."""
    return store.find("closed", now - retention_ms(), now - retention_ms(empty=True), limit)


def count(room_id: int) -> Purged:
    return Purged(1, *store.find("held_rows", room_id))


def purge_one(room_id: int, now: int) -> Purged | None:
    """Delete one closed room and everything of it, in one transaction; None when it is not
    due (any more), is locked by a write right now, or has a connected seat."""
    def may(room, seated: bool, connected: bool) -> bool:
        return (room.closed_at is not None and room.closed_at < now - retention_ms(empty=not seated)
                and not connected)

    gone = store.put("wipe", room_id, may)
    if gone is None:
        return None
    photos.purge(room_id)
    return Purged(1, *gone[1:])


def purge(now: int | None = None, limit: int | None = BATCH) -> Purged:
    """Purge up to `limit` rooms past their retention (None: all of them)."""
    now = clock.wall_ms() if now is None else now
    total = Purged()
    for room_id in due_ids(now, limit):
        gone = purge_one(room_id, now)
        if gone is not None:
            total.add(gone)
    return total


def maintain(now: int | None = None) -> tuple[int, Purged]:
    """One timekeeper pass: close a batch of idle rooms and purge a batch of old ones.
    A closed room had no socket open anywhere, so there is nobody to tell."""
    now = clock.wall_ms() if now is None else now
    return close_idle(now, BATCH), purge(now, BATCH)
