"""The room store: the storage side of the write path, and every per-process cache of rooms.

The write path (services) knows storage only by these verbs:
- `load(code)`: the room row for a decision (locked inside the caller's transaction), or
  `load_committed(code, known)`: the room as this process last committed it, for a game
  action's unlocked decision on PostgreSQL, when the caller has seen no newer version;
- `save(room, ...)`: write a decided room with its events (conditionally where the database
  allows), and keep what this process now knows of it;
- `adopt(code, row)`: keep a row another process committed (its fan-out messages carry it);
- `forget(code)` / `sweep(keep)`: drop what this process keeps of a room.
Reads (`read`, `seats`, `versions`), seat writes and stream items go through here too; the SQL
is in rows.py, which only this module calls.

Every cache of rooms in this process is one entry per room in one bounded LRU table
(`RoomCache`): the seats by seats_version, the committed row, and the snapshot that stream
items are checked against. The timekeeper sweeps it every few seconds: a room with no socket
in this process that nobody touched for PARTYHUB_ROOM_CACHE_IDLE_SECONDS is forgotten, and
the table never holds more than PARTYHUB_ROOM_CACHE_MAX rooms (the least recently used go
first). Forgetting costs nothing but a read the next time.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction

from partyhub.rooms.core import tallies
from partyhub.rooms.models import Event, Keepsake, Room, Seat, StreamItem
from partyhub.rooms.store import rows
from partyhub.rooms.timers import clock, pace


@dataclass
class Change:
    """A committed change: the room and seats as committed, plus side effects to carry out."""
    room: Room
    seats: list
    effects: list = field(default_factory=list)   # ("replace"|"kick"|"handed"|"moved"|"claim_ended"|"bot", ...)


@dataclass
class _Entry:
    seats: tuple | None = None       # (seats_version, [Seat]): current while the version matches
    committed: tuple | None = None   # the frozen row this process last committed or adopted
    snapshot: tuple | None = None    # (version, room, seats, monotonic time it was taken)
    touched: float = 0.0


class RoomCache:
    """One entry per room, least recently used first; safe from the event loop and the
    database threads alike. `bound` is read at each insertion (a setting)."""

    def __init__(self, bound):
        self._rooms: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._bound = bound

    def __len__(self) -> int:
        return len(self._rooms)

    def __contains__(self, code) -> bool:
        return code in self._rooms

    def get(self, code: str, facet: str):
        with self._lock:
            entry = self._rooms.get(code)
            if entry is None:
                return None
            self._use(code, entry)
            return getattr(entry, facet)

    def put(self, code: str, facet: str, value, newer=None) -> bool:
        """Set one facet of the room's entry; with `newer(old, value)`, only if it says so."""
        with self._lock:
            entry = self._rooms.get(code)
            if entry is None:
                if value is None:
                    return False
                entry = self._rooms[code] = _Entry()
                while len(self._rooms) > max(1, self._bound()):
                    self._rooms.popitem(last=False)
            old = getattr(entry, facet)
            if newer is not None and old is not None and not newer(old, value):
                return False
            setattr(entry, facet, value)
            self._use(code, entry)
            return True

    def forget(self, code: str) -> None:
        with self._lock:
            self._rooms.pop(code, None)

    def sweep(self, idle_seconds: float, keep) -> int:
        """Forget every room not in `keep` untouched for `idle_seconds`; returns how many."""
        cutoff = time.monotonic() - idle_seconds
        with self._lock:
            gone = [code for code, e in self._rooms.items() if e.touched <= cutoff and code not in keep]
            for code in gone:
                del self._rooms[code]
        return len(gone)

    def codes(self) -> list:
        with self._lock:
            return list(self._rooms)

    def _use(self, code: str, entry: _Entry) -> None:
        entry.touched = time.monotonic()
        self._rooms.move_to_end(code)


def _bound() -> int:
    return settings.PARTYHUB_ROOM_CACHE_MAX


CACHE = RoomCache(_bound)


# ---------------------------------------------------------------- rooms

def create(code: str, host_token_hash: str, language: str, room_settings: dict,
           host_key_hash: str = "") -> Room | None:
    """A new room under `code`, or None when the code is taken."""
    try:
        with transaction.atomic():
            return Room.objects.create(code=code, host_token_hash=host_token_hash, language=language,
                                       settings=room_settings, active_at=clock.wall_ms(),
                                       host_key_hash=host_key_hash)
    except IntegrityError:
        return None


def held(codes) -> set:
    """Which of these codes rooms hold (living, or closed and not yet purged)."""
    return set(Room.objects.filter(code__in=list(codes)).values_list("code", flat=True))


def unlocked_writes() -> bool:
    """Whether a game action may be decided without a lock and saved conditionally
    (`save(expected=...)`): PostgreSQL."""
    return rows.unlocked_writes()


def load(code: str, skip_locked: bool = False) -> Room | None:
    """The room row for a decision, locked until the caller's transaction ends (SQLite takes
    its write lock at BEGIN IMMEDIATE); None when there is none, or with `skip_locked` on
    PostgreSQL, when another transaction holds it."""
    return rows.lock_room(code, skip_locked=skip_locked)


def read(code: str) -> Room | None:
    """The committed room row, without a lock."""
    return rows.read_room(code)


def load_committed(code: str, known: int | None) -> Room | None:
    """The room as this process last committed (or adopted) it, if that is no older than
    `known` (the newest version the caller has seen); a fresh copy the caller may change.
    The write of a decision made on it is conditional (`save(expected=...)`), so a row that
    another process has since overwritten costs one failed write, never a lost one."""
    frozen = CACHE.get(code, "committed") if known is not None else None
    if frozen is None or frozen[0] < known:
        return None
    return rows.thaw(frozen)


def save(room: Room, seats=None, expected: int | None = None, seats_changed: bool = True,
         active: bool = False) -> bool:
    """Write the decided room (version + 1) and the events appended to it. With `expected`,
    only if the stored version still is that (the unlocked path); False when another write
    came first. `seats_changed=False` when the write touched no seat (game actions, timers);
    `active` when a person caused it (an action, a join, a socket), which keeps the room from
    being closed as idle (lifecycle.py)."""
    room.version += 1
    if seats_changed:
        room.seats_version += 1
    if active:
        room.active_at = clock.wall_ms()
    if seats is not None:
        pace.mark(room, seats, clock.wall_ms())     # a reveal with only bots at the table
    room.deadline_at = clock.due_at(room, seats)
    keepsake = room.__dict__.pop("unsaved_keepsake", None)
    if keepsake is not None and expected is not None:
        raise ValueError("a game's keepsake is written on the locked path (services.room_apply)")
    frozen = rows.save_room(room, room.__dict__.pop("unsaved_events", ()), expected)
    if frozen is None:
        return False
    if keepsake is not None:
        _keep(room, keepsake)
    if seats is not None:
        CACHE.put(room.code, "seats", (room.seats_version, seats))
    else:
        CACHE.put(room.code, "seats", None)
    if rows.unlocked_writes():
        # Kept after the commit only: never a version that was rolled back.
        transaction.on_commit(lambda: adopt(room.code, frozen))
    return True


def adopt(code: str, frozen) -> None:
    """Keep `frozen` (a row `save` wrote, here or in another process) as the room's committed
    row here, unless one as new is kept, or it has other columns (a rolling upgrade)."""
    if rows.fits(frozen):
        CACHE.put(code, "committed", frozen, newer=lambda old, new: new[0] > old[0])


def committed_row(code: str, version: int):
    """The frozen row of this version of the room, if it is the one kept here (else None)."""
    kept = CACHE.get(code, "committed")
    return kept if kept is not None and kept[0] == version else None


def versions(codes) -> dict:
    """{code: committed version} of these rooms."""
    return dict(Room.objects.filter(code__in=list(codes)).values_list("code", "version"))


def touch(code: str, now: int | None = None) -> bool:
    """Mark a living room active (a socket opened, or is still open); False when it is closed
    or gone. It changes no version: views do not change."""
    now = clock.wall_ms() if now is None else now
    return Room.objects.filter(code=code, closed_at__isnull=True).update(active_at=now) > 0


def touch_all(codes, now: int | None = None) -> int:
    """The heartbeat of the rooms whose sockets this process holds (lifecycle.py)."""
    now = clock.wall_ms() if now is None else now
    return Room.objects.filter(code__in=list(codes), closed_at__isnull=True).update(active_at=now)


# ---------------------------------------------------------------- events

def append(room: Room, type_: str, seat: str, data: dict, at: int | None = None) -> None:
    """An event of this write, appended to the log with the room row by `save`."""
    room.__dict__.setdefault("unsaved_events", []).append(Event(
        room=room, version=room.version + 1, game_no=room.game_no,
        at=at or clock.wall_ms(), seat=seat, type=type_, data=data))


# ---------------------------------------------------------------- keepsakes

KEEPSAKES = 8   # a room's gallery keeps its last eight finished games (partyhub/keepsakes/)


def keep(room: Room, data: dict, at: int) -> None:
    """The finished game's keepsake, written by `save` with the room row. Only the locked path
    writes one (`keeping`): the unlocked write is a single conditional statement."""
    room.__dict__["unsaved_keepsake"] = (data, at)


def keeping(room: Room) -> bool:
    """Whether this decision carries a keepsake to write (a game just finished)."""
    return "unsaved_keepsake" in room.__dict__


def _keep(room: Room, keepsake: tuple) -> None:
    data, at = keepsake
    Keepsake.objects.update_or_create(room_id=room.pk, game_no=room.game_no,
                                      defaults={"game": room.game_id, "at": at, "data": data})
    old = list(Keepsake.objects.filter(room_id=room.pk).order_by("-game_no")
               .values_list("pk", flat=True)[KEEPSAKES:])
    if old:
        Keepsake.objects.filter(pk__in=old).delete()


# ---------------------------------------------------------------- seats

def seats(room: Room) -> list:
    """The room's live seats, from this process's cache when its seats_version matches (every
    write that may change a seat bumps it, whichever process wrote)."""
    cached = CACHE.get(room.code, "seats")
    if cached is not None and cached[0] == room.seats_version:
        return cached[1]
    found = rows.live_seats(room)
    CACHE.put(room.code, "seats", (room.seats_version, found))
    return found


def live_seats(room: Room) -> list:
    """The room's seats that are not kicked, read now."""
    return rows.live_seats(room)


def all_seats(room: Room) -> list:
    """Every seat the room ever had, kicked ones too."""
    return rows.all_seats(room)


def insert_seat(seat: Seat) -> None:
    rows.insert_seat(seat)


def save_seat(seat: Seat, names: tuple) -> None:
    rows.save_seat(seat, tuple(names))


def delete_seat(seat: Seat) -> None:
    Seat.objects.filter(pk=seat.pk).delete()


# ---------------------------------------------------------------- stream items

def stream_items(room: Room) -> list:
    """[(id, seat, data)] of the room's stored stream items of the current game, in order."""
    return rows.stream_items(room)


def drop_stream_items(room: Room, up_to: int) -> None:
    StreamItem.objects.filter(room=room, id__lte=up_to).delete()


# ---------------------------------------------------------------- the snapshot for streams

def remember(room: Room, seats: list) -> None:
    """Keep the room as committed (if newer than the one kept): stream items are checked
    against it without a read."""
    CACHE.put(room.code, "snapshot", (room.version, room, seats, time.monotonic()),
              newer=lambda old, new: new[0] >= old[0])


def snapshot(code: str):
    """(version, room, seats, monotonic time taken) of the room, or None."""
    return CACHE.get(code, "snapshot")


# ---------------------------------------------------------------- forgetting

def forget(code: str) -> None:
    CACHE.forget(code)
    tallies.forget(code)        # the audience's tallies go with the room (closed, purged)


def sweep(keep) -> int:
    """Forget the rooms with no socket here (`keep`: the rooms that have one) that nobody
    touched for PARTYHUB_ROOM_CACHE_IDLE_SECONDS; returns how many were forgotten."""
    gone = CACHE.sweep(settings.PARTYHUB_ROOM_CACHE_IDLE_SECONDS, set(keep))
    tallies.sweep(CACHE.codes())    # a forgotten room's tallies in memory go with it
    return gone
