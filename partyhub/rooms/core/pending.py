"""What a decision leaves on the room for the store's save to write with the row: the events
it appended, the finished game's keepsake, the stream items it absorbed, the files it took
away. They are plain facts on the room object until the save (store.save), so a refused
decision leaves nothing behind."""
from __future__ import annotations

from partyhub.rooms.core.wall import wall_ms

EVENTS, KEEPSAKE, ABSORBED, REMOVED = "unsaved_events", "unsaved_keepsake", "absorbed_items", "removed_files"


def append(room, type_: str, seat: str, data: dict, at: int | None = None) -> None:
    """An event of this write, appended to the log with the room row by the save."""
    room.__dict__.setdefault(EVENTS, []).append({
        "version": room.version + 1, "game_no": room.game_no, "at": at or wall_ms(),
        "seat": seat, "type": type_, "data": data})


def keep(room, data: dict, at: int) -> None:
    """The finished game's keepsake, written by the save with the room row. Only the locked
    path writes one (`keeping`): the unlocked write is a single conditional statement."""
    room.__dict__[KEEPSAKE] = (data, at)


def keeping(room) -> bool:
    """Whether this decision carries a keepsake to write (a game just finished)."""
    return KEEPSAKE in room.__dict__


def absorb(room, up_to: int) -> None:
    """The room's stored stream items up to this id are in its state now: the save deletes them."""
    room.__dict__[ABSORBED] = up_to


def absorbed(room) -> int:
    """The last stream item id this decision absorbed (0: none): the items after it are new."""
    return room.__dict__.get(ABSORBED, 0)


def remove(room, path) -> None:
    """A file (a `pathlib.Path`) this decision takes away: the save deletes it once the
    decision has committed, never for one rolled back."""
    room.__dict__.setdefault(REMOVED, []).append(path)


def take(room) -> tuple[list, tuple | None, int | None, list]:
    """(events, keepsake, absorbed up to, files removed) left on the room, taken off it (the
    save's)."""
    d = room.__dict__
    return d.pop(EVENTS, []), d.pop(KEEPSAKE, None), d.pop(ABSORBED, None), d.pop(REMOVED, [])
