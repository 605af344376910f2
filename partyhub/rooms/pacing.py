"""Host-paced games (WCAG 2.2.1, the room's timers "none"): no timer runs, and the VIP may
end a round that a timer would have ended (the room action `advance`).

The rules do the pacing (gamekit: `PACED`, `can_advance`, `advance`): a host-paced phase
waits until everyone has done what it waits for, or until the VIP says so.
"""
from __future__ import annotations

from partyhub.gamekit import Rejected, paced
from partyhub.rooms import clock, registry, seating, store
from partyhub.rooms.errors import fail


def is_vip(room, seat) -> bool:
    return seating.may_run_room(seat) and seat.player_id == room.vip


def may_advance(room) -> bool:
    """Whether the running game is host-paced, not paused, and in a phase a timer would
    have ended (what the VIP's `actions` offer `advance` for)."""
    if room.phase != "playing" or room.paused_at is not None or not room.state:
        return False
    game = registry.get(room.game_id)
    return hasattr(game, "can_advance") and game.can_advance(room.state)


def dealt_paced(room) -> bool:
    """Whether the room's current (or last) game was dealt host-paced."""
    return room.phase != "lobby" and bool(room.state) and paced(room.state)


def advance(room, seats, actor, d, now):
    """The VIP (only from their phone) ends the round now, as its timer would have."""
    from partyhub.rooms import roomactions
    if actor.role == "tv" or not is_vip(room, actor.seat):
        raise fail("not_allowed", "Only the VIP can end the round.")
    if room.phase != "playing":
        raise fail("no_game_running")
    if room.paused_at is not None:
        raise fail("paused")
    game = registry.get(room.game_id)
    if not hasattr(game, "advance") or not paced(room.state):
        raise fail("not_paced")
    result = game.advance(room.state, clock.game_now(room, now))
    if isinstance(result, Rejected):
        raise fail(result.code, result.message)
    from partyhub.rooms import audience
    before, room.state = room.state, result.state
    seat = actor.seat.player_id
    store.append(room, "round_advanced", seat, {"by": seat}, now)
    audience.fold(room, game, before, now)  # as services._accept does for every rules result
    for ev in result.events:
        store.append(room, str(ev.get("type", "event"))[:40], "", ev, now)
    outcome = game.outcome(room.state)
    if outcome is not None:
        roomactions.finish(room, outcome)
    return []
