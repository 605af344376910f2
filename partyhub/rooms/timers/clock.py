"""Time in a room: the game clock (which stops while paused) and the due timers; the wall
clock (`wall_ms`) is core/wall.py's, named here too for the layers above."""
from __future__ import annotations

from partyhub.rooms.core.wall import wall_ms
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.timers import pace, standin, vip

__all__ = ["wall_ms", "game_now", "wall_deadline", "due_at"]


def game_now(room, wall: int) -> int:
    """The game clock: wall time less the time spent paused (frozen while paused)."""
    if room.paused_at is not None:
        wall = room.paused_at
    return wall - room.paused_total


def wall_deadline(room) -> int | None:
    """The wall time at which the room's running game's timer falls due, or None."""
    if room.phase != "playing" or room.paused_at is not None or not room.state:
        return None
    if room.closed_at is not None:
        return None
    game = registry.get(room.game_id)
    due = calls.deadline(game, room.state) if game else None
    return None if due is None else due + room.paused_total


def due_at(room, seats=None) -> int | None:
    """When the timekeeper must next look at the room (`room.deadline_at`): its game's timer,
    the first expiry of a claim (claims.py), the first stand-in's move (standin.py), the end
    of an away VIP's grace (vip.py, known when the room's `seats` are given) or the end of a
    reveal with only bots at the table (pace.py), whichever comes first; None when closed."""
    if room.closed_at is not None:
        return None
    claims = [c["expires"] for c in room.claims or ()]
    stand_in = standin.due(room, registry.get(room.game_id)) if room.away else None
    crown = vip.due(room, seats) if room.away and seats is not None else None
    times = [t for t in (wall_deadline(room), min(claims, default=None), stand_in, crown,
                         pace.due(room))
             if t is not None]
    return min(times, default=None)
