"""What each screen may see of a Jinx state, and the legal actions of each viewer.

Default-deny: every view is built from scratch. The target slot goes only to the active
player's own view, and only while the turn runs; everyone learns it from `last` at the reveal.
"""
from __future__ import annotations

from partyhub.gamekit import is_seat

from . import turn
from .deck import GRID


def view(state: dict, viewer) -> dict:
    seats = state["seats"]
    racing = state["phase"] == "race"
    out = {seats[s] for s, _ in state["picks"]} if racing else set()
    on = turn.fingers(state)
    game = {
        "phase": state["phase"],
        "turn": state["turn"],
        "active": seats[state["active"]],
        "guessers": [p for i, p in enumerate(seats) if i != state["active"]],
        "grid": list(state["grid"]),
        "fingers": [None if s is None else {"player": seats[s], "right": False} for s in on],
        "clue": state["clue"],
        "out": [p for p in seats if p in out],
        "won": {p: len(won) for p, won in zip(seats, state["won"])},
        "deck": len(state["deck"]),
        "last": _last(state["last"]),
    }
    if not is_seat(viewer):
        return game
    me = turn.seat_of(state, viewer)
    if me is None:
        return game
    active = me == state["active"]
    game["me"] = {"active": active,
                  "in": state["phase"] in ("clue", "race") and not active and viewer not in out,
                  "pick": turn.picked(state, me)}
    if active and state["phase"] in ("clue", "race"):
        game["target"] = state["target"]
    return game


def _last(last: dict | None) -> dict | None:
    if last is None:
        return None
    out = {
        "turn": last["turn"], "active": last["active"], "clue": last["clue"],
        "grid": list(last["grid"]), "target": last["target"], "finder": last["finder"],
        "picks": [dict(p) for p in last["picks"]], "moves": [dict(m) for m in last["moves"]],
        "timed_out": last["timed_out"],
    }
    if "audience" in last:        # the audience's predictions of that turn, counted at the reveal
        out["audience"] = dict(last["audience"])
    return out


def actions(state: dict, viewer) -> list[dict]:
    me = turn.seat_of(state, viewer) if is_seat(viewer) else None
    if me is None:
        return []
    if state["phase"] == "clue":
        return [{"type": "clue", "text": None}] if me == state["active"] else []
    if state["phase"] != "race" or me not in turn.guessers_in(state):
        return []
    on = turn.fingers(state)
    return [{"type": "pick", "slot": slot} for slot in range(GRID) if on[slot] is None]
