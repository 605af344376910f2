"""Host-paced games (WCAG 2.2.1, the room's timers "none"): no timer runs, and the VIP may
end a round that a timer would have ended (the room action `advance`).

The rules do the pacing (gamekit: `PACED`, `can_advance`, `advance`): a host-paced phase
waits until everyone has done what it waits for, or until the VIP says so.
"""
from __future__ import annotations

from partyhub.gamekit import Rejected, paced
from partyhub.rooms.core.errors import fail
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.timers import clock, vip


def may_advance(room) -> bool:
    """Whether the running game is host-paced, not paused, and in a phase a timer would
    have ended (what the VIP's `actions` offer `advance` for)."""
    if room.phase != "playing" or room.paused_at is not None or not room.state:
        return False
    game = registry.get(room.game_id)
    return calls.can_advance(game, room.state)


def may_pace(room, seats, role: str, seat) -> bool:
    """Whether this viewer may end a host-paced round: the VIP's phone, or the TV while no
    VIP's phone is connected."""
    if role == "tv":
        return not vip.present(room, seats)
    return vip.is_vip(room, seat)


def dealt_paced(room) -> bool:
    """Whether the room's current (or last) game was dealt host-paced."""
    return room.phase != "lobby" and bool(room.state) and paced(room.state)


def advance(room, seats, actor, d, now, accept):
    """The VIP ends the round now, as its timer would have: from their phone, or from the TV
    while no VIP's phone is connected (a room whose VIP is away can always move on). The
    result goes into the room through `accept` (roomactions.accept), the step of every move:
    the log has `round_advanced {by}` and the game's events, of the VIP's seat ("" from the TV)."""
    if not may_pace(room, seats, actor.role, actor.seat):
        raise fail("not_allowed", "Only the VIP can end the round.")
    if room.phase != "playing":
        raise fail("no_game_running")
    if room.paused_at is not None:
        raise fail("paused")
    game = registry.get(room.game_id)
    if not hasattr(game, "advance") or not paced(room.state):
        raise fail("not_paced")
    result = calls.rules_call(game, "advance", room.state, clock.game_now(room, now))
    if isinstance(result, Rejected):
        raise fail(result.code, result.message)
    seat = actor.seat.player_id if actor.seat is not None else ""
    accept(room, game, result, seat, {"by": seat or "tv"}, now, "round_advanced")
    return []
