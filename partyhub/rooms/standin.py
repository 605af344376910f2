"""A stand-in keeps a dropped seat warm (issue 22).

When a seated player's phone has been away for the room's `standin` seconds (a host setting,
0: off) and the game is waiting on that seat (the rules offer it actions), a stand-in plays
for it: the seat's own bot strategy (partyhub/bots.py) chooses from the seat's own view, and
the move goes through the one write path as an ordinary move of that seat
(services.room_tick). When the phone comes back (`back`), the seat is its player's again at
once, with everything the stand-in won or spent.

What it needs to remember lives in the room row (`Room.away`), written by the writes that
happen anyway: the disconnect writes `since`, each stand-in move writes `played` (from then on
the views mark the seat), and a stand-in with nothing it may do writes `rest` (the version it
gave up at: it tries again when anything changes). Its next move is part of the room's due
time (`clock.due_at`), so the timekeeper wakes it like a timer: no write per tick, and a
restart picks up where the rows say, counting the delay from the restart at the earliest
(`STARTED`). While paused, nobody is due: pause waits for everyone.
"""
from __future__ import annotations

import random
import time

THINK_MS = 1500       # a stand-in's pause between two moves of its seat, as a bot thinks
TRIES = 4             # refused choices (a word the rules do not take) before it rests
MAX_SECONDS = 600
DEFAULT_SECONDS = 20  # for new rooms (services.NEW_ROOM_SETTINGS); older rooms read it as off
# When this process began serving (wall ms). The time a server was down is nobody's absence:
# a seat that went away before it counts its delay from here, so after a restart the phones
# have the whole delay to come back before any stand-in plays.
STARTED = int(time.time() * 1000)


def delay_ms(room) -> int | None:
    """How long a phone is away before a stand-in plays for it, or None when it is off."""
    seconds = (room.settings or {}).get("standin") or 0
    return int(seconds) * 1000 if isinstance(seconds, int) and seconds > 0 else None


def valid_seconds(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SECONDS


# ---------------------------------------------------------------- the seat comes and goes

def left(room, player_id: str, now: int) -> None:
    """The seat's last socket closed."""
    room.away = {**(room.away or {}), player_id: {"since": now}}


def back(room, player_id: str) -> None:
    """The seat's phone is back (or the seat is gone): the stand-in stops at once."""
    if player_id in (room.away or {}):
        room.away = {k: v for k, v in room.away.items() if k != player_id}


def playing_for(room) -> set:
    """The seats a stand-in is playing now: a game runs, the seat is away, and it has moved
    for the seat."""
    if room.phase != "playing":
        return set()
    return {pid for pid, entry in (room.away or {}).items() if "played" in entry}


def played(room, player_id: str, now: int) -> None:
    room.away = {**room.away, player_id: {"since": room.away[player_id]["since"], "played": now}}


def rested(room, player_id: str) -> None:
    """Nothing it may do was taken: wait for the room to change (save bumps the version)."""
    room.away = {**room.away, player_id: {**room.away[player_id], "rest": room.version + 1}}


# ---------------------------------------------------------------- when

def due(room, game) -> int | None:
    """The wall time the first stand-in of the room is due, or None (off, paused, no game
    running, nobody away, or the game waits on none of the away seats)."""
    times = [t for pid in (room.away or {}) if (t := seat_due(room, game, pid)) is not None]
    return min(times, default=None)


def seat_due(room, game, player_id: str) -> int | None:
    delay = delay_ms(room)
    if delay is None or game is None or room.phase != "playing" or room.paused_at is not None:
        return None
    entry = (room.away or {}).get(player_id)
    if not room.state or entry is None or player_id not in room.game_seats:
        return None
    if entry.get("rest") == room.version or not waits_on(room, game, player_id):
        return None
    at = max(entry["since"], STARTED) + delay
    return max(at, entry["played"] + THINK_MS) if "played" in entry else at


def waits_on(room, game, player_id: str) -> bool:
    """Whether the game waits on the seat: the rules offer it an action its bot would play."""
    from partyhub import bots
    never = bots.never_played(room.game_id)
    return any(a.get("type") not in never for a in game.actions(room.state, player_id))


def due_seats(room, game, now: int) -> list:
    return [pid for pid in room.game_seats if (t := seat_due(room, game, pid)) is not None and t <= now]


# ---------------------------------------------------------------- what

def seat_view(room, game, player_id: str) -> dict:
    """What the seat's phone would be sent, as much of it as a bot reads."""
    return {"room": {"game": room.game_id, "language": room.language, "game_no": room.game_no},
            "you": {"role": "player", "id": player_id},
            "game": game.view(room.state, player_id),
            "actions": list(game.actions(room.state, player_id))}


def chance(room, player_id: str) -> random.Random:
    """The stand-in's dice for this move: fixed by the room, its version and the seat, so a
    move can be told again from the log."""
    return random.Random(f"{room.code}:{room.game_no}:{room.version}:{player_id}")


# ---------------------------------------------------------------- the moves

def cover(room, game, now: int, move) -> None:
    """Each stand-in whose time has come makes one move; `move(player_id, action)` applies it
    as a move of that seat through the write path (False: refused)."""
    for pid in due_seats(room, game, now):
        if room.phase != "playing":
            return      # a move before this one ended the game
        if seat_due(room, game, pid) is None:
            continue    # a move before this one took this seat's turn away
        if one_move(room, pid, seat_view(room, game, pid), move):
            played(room, pid, now)
        else:
            rested(room, pid)


def one_move(room, player_id: str, view: dict, move) -> bool:
    """What the seat's bot would do in its view: draw (stream moves, all of them), or one
    action, choosing again when the rules refuse it (up to TRIES)."""
    from partyhub import bots
    strokes = bots.stream_moves(view)
    if strokes:
        taken = 0
        for d in strokes:
            if not move(player_id, d):
                break
            taken += 1
        return taken > 0
    rnd, failed = chance(room, player_id), set()
    for _ in range(TRIES):
        d = bots.next_action(view, rnd, failed)
        if d is None:
            return False
        if move(player_id, d):
            return True
        failed.add(bots.offered_key(view["actions"], d))
    return False
