"""A stand-in keeps a dropped seat warm (issue 22).

When a seated player's phone has been away for the room's `standin` seconds (a host setting,
0: off) and the game is waiting on that seat (the rules offer it actions), a stand-in plays
for it: the seat's own bot strategy (partyhub/bots/) chooses from the seat's own view, and
the move goes through the one write path as an ordinary move of that seat
(services.room_tick). When the phone comes back (`back`), the seat is its player's again at
once, with everything the stand-in won or spent, and its phone is told what happened
(`Room.covered`: how many moves the stand-in made and how the seat's score changed meanwhile,
in that seat's own view only, until its own next move).

What it needs to remember lives in the room row (`Room.away`), written by the writes that
happen anyway: the disconnect writes `since`, each stand-in move writes `played` (from then on
the views mark the seat), `turns` (its moves) and `from` (the seat's score before its first
move), and a stand-in with nothing it may do writes `rest` (the version it
gave up at: it tries again when anything changes). Its next move is part of the room's due
time (`clock.due_at`), so the timekeeper wakes it like a timer: no write per tick, and a
restart picks up where the rows say, counting the delay from the restart at the earliest
(`STARTED`). While paused, nobody is due: pause waits for everyone.
"""
from __future__ import annotations

import random
import time

from partyhub import bots
from partyhub.bots.turn import Turn
from partyhub.rooms.gateway import calls, registry

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
    """The seat's phone is back (or the seat is gone): the stand-in stops at once, and what it
    did is kept for the seat's phone (`covered`)."""
    entry = (room.away or {}).get(player_id)
    if entry is None:
        return
    room.away = {k: v for k, v in room.away.items() if k != player_id}
    if "played" in entry and room.phase != "lobby":
        before = (room.covered or {}).get(player_id)
        if not before or before.get("game_no") != room.game_no:
            before = {"turns": 0, "points": 0}
        room.covered = {**(room.covered or {}), player_id: {
            "turns": before["turns"] + entry.get("turns", 1),
            "points": before["points"] + _score(room, player_id) - entry.get("from", _score(room, player_id)),
            "game_no": room.game_no}}


def covered_note(room, player_id: str) -> dict | None:
    """What a stand-in did for this seat while its phone was away, for that phone only:
    {"turns", "points"}; None when nothing (or it was in an earlier game)."""
    note = (room.covered or {}).get(player_id)
    if not note or note.get("game_no") != room.game_no or room.phase == "lobby":
        return None
    return {"turns": note["turns"], "points": note["points"]}


def seen(room, player_id: str) -> None:
    """The seat moved on its own phone: the note of what its stand-in did has been seen."""
    if player_id in (room.covered or {}):
        room.covered = {k: v for k, v in room.covered.items() if k != player_id}


def _score(room, player_id: str) -> int:
    game = registry.get(room.game_id) if room.state else None
    score = calls.scores(game, room.state).get(player_id, 0) if game is not None else 0
    return score if isinstance(score, int) else 0


def playing_for(room) -> set:
    """The seats a stand-in is playing now: a game runs, the seat is away, and it has moved
    for the seat."""
    if room.phase != "playing":
        return set()
    return {pid for pid, entry in (room.away or {}).items() if "played" in entry}


def played(room, player_id: str, now: int, score_before: int) -> None:
    """The stand-in made a move for the seat (its score was `score_before` just before it)."""
    entry = room.away[player_id]
    room.away = {**room.away, player_id: {"since": entry["since"], "played": now,
                                          "turns": entry.get("turns", 0) + 1,
                                          "from": entry.get("from", score_before)}}


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
    never = bots.never_played(room.game_id)
    return any(a.get("type") not in never for a in calls.actions(game, room.state, player_id))


def due_seats(room, game, now: int) -> list:
    return [pid for pid in room.game_seats if (t := seat_due(room, game, pid)) is not None and t <= now]


# ---------------------------------------------------------------- what

def chance(room, player_id: str) -> random.Random:
    """The stand-in's dice for this move: fixed by the room, its version and the seat, so a
    move can be told again from the log."""
    return random.Random(f"{room.code}:{room.game_no}:{room.version}:{player_id}")


# ---------------------------------------------------------------- the moves

def cover(room, game, now: int, move, view) -> None:
    """Each stand-in whose time has come makes one move from `view(player_id)`, what the
    seat's phone is sent (viewmodel.seat_view); `move(player_id, action)` applies it as a move
    of that seat through the write path (False: refused)."""
    for pid in due_seats(room, game, now):
        if room.phase != "playing":
            return      # a move before this one ended the game
        if seat_due(room, game, pid) is None:
            continue    # a move before this one took this seat's turn away
        score = _score(room, pid)
        if one_move(room, pid, view(pid), move):
            played(room, pid, now, score)
        else:
            rested(room, pid)


def one_move(room, player_id: str, view: dict, move) -> bool:
    """What the seat's bot would do in its view (bots/turn.py, as every bot client): draw
    (stream moves, all of them), or one action, choosing again when the rules refuse it (up
    to TRIES)."""
    turn = Turn(view)
    strokes = turn.strokes()
    if strokes:
        taken = 0
        for d in strokes:
            if not move(player_id, d):
                break
            taken += 1
        return taken > 0
    rnd = chance(room, player_id)
    for _ in range(TRIES):
        d = turn.choose(rnd)
        if d is None:
            return False
        if move(player_id, d):
            return True
        turn.refused(turn.ref)
    return False
