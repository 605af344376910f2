"""Reading the state: boards, who holds them, scores. And `fork`, the cheap copy to change.

A board: {"word": str | None, "strokes": [...], "won_by": [seats], "won_at": ms | None,
"missed": True once a guessing round ended with its drawing unguessed (absent before)}.
It is with its drawer while won_by is empty and with its guessers after.
"""
from __future__ import annotations

import copy

from .constants import BOARDS, GUESS_WORDS, SHOWN_ASKED, WRONG_GUESSES
from .matcher import words_of


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


def guess_words(state: dict) -> int:
    """How many words a guess may hold: GUESS_WORDS, or the most words of a word dealt in
    this game when one has more ("once in a blue moon" must be sayable). Public: it names
    no word, and every phone is told it. Counted once at setup (a state from before issue
    31 counts it here)."""
    if "guess_words" in state:
        return state["guess_words"]
    return max([GUESS_WORDS] + [len(words_of(w)) for cards in state["cards"].values()
                                for card in cards for w in card])


def wrong_guesses(state: dict, seat) -> dict:
    """{(owner, board): wrong guesses `seat` has made on it in this round}."""
    out: dict = {}
    for g in state["guesses"]:
        if g["player"] == seat and g["round"] == state["round"] and not g["correct"]:
            out[(g["owner"], g["board"])] = out.get((g["owner"], g["board"]), 0) + 1
    return out


def wrong_left(state: dict, seat, owner, index) -> int:
    """The wrong guesses `seat` still has on owner's board `index` in this round."""
    return max(0, WRONG_GUESSES - wrong_guesses(state, seat).get((owner, index), 0))


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


def close_guessing(state: dict) -> None:
    """A guessing round is over (on a fork): each drawing still with its drawer was missed,
    and its penalty counts in the live score from now (`penalties`)."""
    for boards in state["boards"].values():
        for b in boards:
            if b["word"] is not None and not b["won_by"]:
                b["missed"] = True


def penalties(state: dict, seat) -> int:
    """The seat's own boards that cost it a point now. At the end: every board still with it
    (blank or unguessed), as the rules count. Before: only what has been decided, the drawings
    a guessing round ended without (`missed`) that nobody has won since; a blank board, or a
    drawing nobody could guess yet, costs nothing before the end."""
    if state["phase"] == "over":
        return own_left(state, seat)
    return sum(1 for b in state["boards"][seat] if b.get("missed") and not b["won_by"])


def scores(state: dict) -> dict:
    """+1 per board of another player won, -1 per own board still held at the end (live: per
    drawing a guessing round ended without, `penalties`)."""
    return {s: won_count(state, s) - penalties(state, s) for s in state["seats"]}


def winners(state: dict) -> list:
    """Most points; a tie goes to the fewest own boards left; still tied, the win is shared."""
    score = scores(state)
    key = {s: (score[s], -own_left(state, s)) for s in state["seats"]}
    best = max(key.values())
    return [s for s in state["seats"] if key[s] == best]
