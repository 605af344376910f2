"""Moves that only pace the table (issue 27): association's `next` ends a reveal, which is
the payoff of a turn, so only a person ends it early.

A game declares such action types in `pacing` (partyhub/gamekit/). No bot plays them: not
a lobby or CLI bot, not a stand-in (partyhub/bots/choice.py leaves them out of what a bot may
choose). So a reveal ends when a human at the table taps, or when its own timer runs out.
When no human is at the table (every game seat is a bot, or its phone is away), a reveal
that waits for nobody but a pacing move ends after ALL_BOTS_MS: a server-side deadline, so a
room of bots never stalls.

The moment such a wait began is kept in the room's settings (`pace`: {"game_no", "at"}),
marked by the write that began it (`mark`, called by every save) and dropped by any write
after which the table no longer waits only on pacing moves, so no extra write is needed.
"""
from __future__ import annotations

from partyhub.rooms.gateway import calls, registry

ALL_BOTS_MS = 8000     # how long a reveal lasts with nobody but bots at the table
KEY = "pace"


def kinds(game) -> frozenset:
    """The action types that only pace the table in `game` (its optional `pacing`)."""
    return frozenset(getattr(game, "pacing", ()) or ()) if game is not None else frozenset()


def waiting(room, game) -> bool:
    """Whether the running game waits only on pacing moves: some seat is offered one, and no
    seat is offered anything else."""
    pacing = kinds(game)
    if not pacing or room.phase != "playing" or room.paused_at is not None or not room.state:
        return False
    offered = {a.get("type") for pid in room.game_seats for a in calls.actions(game, room.state, pid)}
    return bool(offered) and offered <= pacing


def humans_at_table(room, seats) -> bool:
    """Whether a person is at the table: a game seat that is not a bot, with its phone here."""
    playing = set(room.game_seats)
    return any(s.player_id in playing and not s.bot and s.connected
               and s.player_id not in (room.away or {}) for s in seats)


def mark(room, seats, now: int) -> None:
    """Called by every write (store.save): keep, begin or drop the all-bots pacing wait."""
    settings = room.settings or {}
    game = registry.get(room.game_id) if room.phase == "playing" else None
    if game is not None and waiting(room, game) and not humans_at_table(room, seats):
        kept = settings.get(KEY)
        if not (isinstance(kept, dict) and kept.get("game_no") == room.game_no):
            room.settings = {**settings, KEY: {"game_no": room.game_no, "at": now}}
    elif KEY in settings:
        room.settings = {k: v for k, v in settings.items() if k != KEY}


def due(room) -> int | None:
    """The wall time the table moves on by itself, or None (people at the table, or it waits
    on more than pacing moves)."""
    kept = (room.settings or {}).get(KEY)
    if not isinstance(kept, dict) or kept.get("game_no") != room.game_no or room.phase != "playing":
        return None
    if room.paused_at is not None:
        return None
    return int(kept["at"]) + ALL_BOTS_MS


def move_on(room, game, now: int, move) -> None:
    """The wait is over: the first seat offered a pacing move makes it, through the write
    path (`move(player_id, action)`), as a person would have."""
    at = due(room)
    if at is None or at > now or not waiting(room, game):
        return
    room.settings = {k: v for k, v in room.settings.items() if k != KEY}
    pacing = kinds(game)
    for pid in room.game_seats:
        offered = [a for a in calls.actions(game, room.state, pid) if a.get("type") in pacing]
        if offered and move(pid, offered[0]):
            return
