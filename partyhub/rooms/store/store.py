"""The room store: the storage side of the write path, and every per-process cache of rooms.
It knows no game and no timer: the write path (write/ladder.py) sets a room's deadline
before it saves.

Its ten verbs, and nothing else, are how the platform reaches storage:
- `atomic()`: a transaction for a decision (the write path's; a refusal rolls it back);
- `load(code, how)`: the room row: locked for a decision ("lock"; "skip": not if another
  transaction holds it), committed ("read"), or for a game action's decision without a lock
  ("unlocked": the room as this process last committed it if no older than `known`, else
  as committed; None where the backend has no unlocked writes: SQLite, memory);
- `save(room, seats, ...)`: write a decided room (or create a new one) with what the decision
  left on it (core/pending.py: events, keepsake, absorbed stream items, files removed),
  conditionally where the database allows, and keep what this process now knows of it;
- `seats(room, ...)`: a room's seats (from this process's cache while current);
- `find(query, ...)`: the named reads (`SqlStore.q_*`): codes held, versions, due and idle
  rooms, events, stream items, keepsakes; `put(what, ...)`: the named writes (`p_*`): a
  seat's fields, the heartbeat of rooms with a socket ("touch"), a keepsake's share link and
  rendered pictures, and the purge of a room ("wipe");
- `keep(code, facet, value)` / `kept(code, facet)`: what this process keeps of a room (a row
  another process committed, the snapshot stream items are checked against);
- `forget(code)` / `sweep(keep)`: drop what this process keeps of a room.
The backend (`BACKEND`) is the database's (sql.py) or, for the ladder's own tests, the
in-memory one (memory.py): the same verbs. Stream items accepted outside the lock queue in
strokes.py, which writes them through the backend.

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

from partyhub.rooms.core import pending, tallies
from partyhub.rooms.models import Room
from partyhub.rooms.store.sql import KEEPSAKES, SqlStore  # noqa: F401 (the gallery's bound, named here)


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
BACKEND = SqlStore()

# The verbs: the whole of storage as the platform sees it (Change and the cache are data).
__all__ = ["Change", "atomic", "load", "save", "seats", "find", "put", "keep", "kept", "forget", "sweep"]


# ---------------------------------------------------------------- rooms

def atomic():
    """The transaction of one decision: what it saves lands together, or not at all."""
    return BACKEND.atomic()


def load(code: str, how: str = "lock", known: int | None = None) -> Room | None:
    """The room row; None when there is none. `how`: "lock" (for a decision: locked until the
    caller's transaction ends; SQLite takes its write lock at BEGIN IMMEDIATE), "skip" (as
    "lock", but None on PostgreSQL when another transaction holds it), "read" (committed,
    without a lock), "unlocked": for a decision saved conditionally (`save(expected=...)`),
    on PostgreSQL only (None elsewhere: take a lock): the room as this process last committed
    (or adopted) it if that is no older than `known` (the newest version the caller has seen),
    a fresh copy the caller may change, else as committed. A row another process has since
    overwritten costs one failed write, never a lost one."""
    if how != "unlocked":
        return BACKEND.load(code, how)
    if not BACKEND.unlocked_writes():
        return None
    frozen = CACHE.get(code, "committed") if known is not None else None
    if frozen is not None and frozen[0] >= known:
        return BACKEND.thaw(frozen)
    return BACKEND.load(code, "read")


def save(room: Room, seats=None, expected: int | None = None) -> bool:
    """Write the decided room and what the decision left on it (core/pending.py) as it is:
    its new version, deadline and activity were set by the write path (write/ladder.py).
    A new room (no pk) is created instead: False when its code is taken. With `expected`,
    only if the stored version still is that (the unlocked path); False when another write
    came first. `seats`: the room's live seats as this write leaves them (kept here)."""
    if room.pk is None:
        return BACKEND.create(room)
    events, keepsake, absorbed, removed = pending.take(room)
    if (keepsake is not None or absorbed is not None) and expected is not None:
        raise ValueError("a keepsake or absorbed stream items are written on the locked path")
    if absorbed is not None:
        BACKEND.drop_items(room, absorbed)
    frozen = BACKEND.save(room, events, expected)
    if frozen is None:
        return False
    if keepsake is not None:
        BACKEND.keep(room, keepsake)
    for path in removed:        # a file the decision took away: gone once it has committed
        BACKEND.on_commit(lambda path=path: path.unlink(missing_ok=True))
    CACHE.put(room.code, "seats", None if seats is None else (room.seats_version, seats))
    if BACKEND.unlocked_writes():
        # Kept after the commit only: never a version that was rolled back.
        BACKEND.on_commit(lambda: keep(room.code, "committed", frozen))
    return True


def find(query: str, *args):
    """A named read (the backend's `q_<query>`): "held" (codes) -> the codes rooms hold;
    "versions" (codes) -> {code: version}; "stream_items" (room) -> [(id, seat, data)] of its
    current game; "events" (room, game_no); "due" (now) -> codes of living rooms due;
    "idle" / "closed" (before, empty_before, limit) -> living rooms idle, closed rooms' ids;
    "held_rows" (room id) -> (seats, events, stream items, keepsakes); "host" (host token
    hash) -> the host of the room it opens, or None; "live" -> {(phase, game): rooms with a
    connected seat}; "keepsakes" (room) -> its keepsakes, newest first; "link" (room) -> the
    key hash of its share link, or None; "picture" (room, game no, n, kind) -> the kept
    rendered picture's bytes, or None."""
    return BACKEND.find(query, *args)


def put(what: str, *args, **kw):
    """A named write (the backend's `p_<what>`): "seat" (seat, names=(), delete=False): write
    these fields of a seat now (a new seat, with no pk, is inserted and gets its pk; `delete`:
    the seat is deleted); "touch" (codes, now=None) -> how many of these living rooms were
    marked active (a socket opened, or is still open; no version changes: views do not);
    "link" (room, key hash or None to revoke, now) -> how many share links were written or
    deleted; "picture" (keepsake, n, kind, data, bound) -> whether the rendered picture was
    kept (False past the room's bound, or when another process kept it first); "wipe"
    (room_id, may) -> delete a room and all of it in one transaction if `may(room, seated,
    connected)` says so under its lock: (code, seats, events, stream items, keepsakes)
    deleted, and this process forgets it; or None."""
    done = BACKEND.put(what, *args, **kw)
    if what == "wipe" and done is not None:
        forget(done[0])
    return done


# ---------------------------------------------------------------- seats

def seats(room: Room, fresh: bool = False, kicked: bool = False) -> list:
    """The room's live seats, from this process's cache when its seats_version matches (every
    write that may change a seat bumps it, whichever process wrote); `fresh`: read now;
    `kicked`: every seat the room ever had, kicked ones too (read now)."""
    if fresh or kicked:
        return BACKEND.seats(room, kicked)
    cached = CACHE.get(room.code, "seats")
    if cached is not None and cached[0] == room.seats_version:
        return cached[1]
    found = BACKEND.seats(room, False)
    CACHE.put(room.code, "seats", (room.seats_version, found))
    return found


# ---------------------------------------------------------------- what this process keeps

def keep(code: str, facet: str, value) -> None:
    """Keep what this process knows of a room. "committed": a frozen row `save` wrote, here or
    in another process, unless one as new is kept, or it has other columns (a rolling
    upgrade). "snapshot": (room, seats) as committed, unless a newer one is kept: stream
    items are checked against it without a read."""
    if facet == "committed":
        if BACKEND.fits(value):
            CACHE.put(code, facet, value, newer=lambda old, new: new[0] > old[0])
        return
    room, seats = value
    CACHE.put(code, "snapshot", (room.version, room, seats, time.monotonic()),
              newer=lambda old, new: new[0] >= old[0])


def kept(code: str, facet: str):
    """What this process keeps of the room: "snapshot": (version, room, seats, monotonic time
    taken); "committed": the frozen row it last committed or adopted; or None."""
    return CACHE.get(code, facet)


def forget(code: str) -> None:
    CACHE.forget(code)
    tallies.forget(code)        # the audience's tallies go with the room (closed, purged)


def sweep(keep) -> int:
    """Forget the rooms with no socket here (`keep`: the rooms that have one) that nobody
    touched for PARTYHUB_ROOM_CACHE_IDLE_SECONDS; returns how many were forgotten."""
    gone = CACHE.sweep(settings.PARTYHUB_ROOM_CACHE_IDLE_SECONDS, set(keep))
    tallies.sweep(CACHE.codes())    # a forgotten room's tallies in memory go with it
    return gone
