"""Reading the state: boards, who holds them, scores. And `fork`, the cheap copy to change.

A board: {"word": str | None, "strokes": [...], "won_by": [seats], "won_at": ms | None}.
It is with its drawer while won_by is empty and with its guessers after.
"""
from __future__ import annotations

import copy

from .constants import BOARDS, SHOWN_ASKED


def fork(state: dict) -> dict:
    """A deep copy to build the next state from, sharing the stroke lists and the cards.

    Those are never changed in place (absorb and draw replace them), so sharing them keeps
    every accepted action cheap however much has been drawn.
    """
    memo = {id(state["cards"]): state["cards"]}
    for boards in state["boards"].values():
        for board in boards:
            memo[id(board["strokes"])] = board["strokes"]
    return copy.deepcopy(state, memo)


def new_board() -> dict:
    return {"word": None, "strokes": [], "won_by": [], "won_at": None}


def board_at(state: dict, owner, index):
    """The board, or None when owner/index do not name one (also for an owner that is not
    a string: a list or a dict from a hostile frame must be refused, not raise)."""
    if not isinstance(owner, str) or owner not in state["boards"] or not is_index(index):
        return None
    return state["boards"][owner][index]


def is_index(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < BOARDS


def asked_now(state: dict, seat) -> list[dict]:
    """This round's newest SHOWN_ASKED guesses on `seat`'s boards: what the drawer's phone
    shows, and the guesses it may answer close or far."""
    return [g for g in state["guesses"]
            if g["owner"] == seat and g["round"] == state["round"]][-SHOWN_ASKED:]


def card_words(state: dict, seat) -> list[str]:
    return [w for card in state["cards"][seat] for w in card]


def free_words(state: dict, seat) -> list[str]:
    """The seat's card words not on any of its boards yet."""
    used = {b["word"] for b in state["boards"][seat]}
    return [w for w in card_words(state, seat) if w not in used]


def open_boards(state: dict) -> int:
    """How many boards have a word and are not won yet: what a guessing round can still guess."""
    return sum(1 for boards in state["boards"].values() for b in boards
               if b["word"] is not None and not b["won_by"])


def own_left(state: dict, seat) -> int:
    return sum(1 for b in state["boards"][seat] if not b["won_by"])


def won_count(state: dict, seat) -> int:
    return sum(1 for owner, boards in state["boards"].items() if owner != seat
               for b in boards if seat in b["won_by"])


def scores(state: dict) -> dict:
    """+1 per board of another player won, -1 per own board still held."""
    return {s: won_count(state, s) - own_left(state, s) for s in state["seats"]}


def winners(state: dict) -> list:
    """Most points; a tie goes to the fewest own boards left; still tied, the win is shared."""
    score = scores(state)
    key = {s: (score[s], -own_left(state, s)) for s in state["seats"]}
    best = max(key.values())
    return [s for s in state["seats"] if key[s] == best]
