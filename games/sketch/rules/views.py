"""What each screen may see. Built from scratch per viewer (default deny).

Nobody but the drawer sees a board's word before the game ends, except the players who won
that board (they guessed it). Drawings are shown to others only in guessing rounds and at
the end; word cards only to their owner, and only once the first round has begun.
"""
from __future__ import annotations

from partyhub.gamekit import is_seat

from .constants import (AUDIENCE_GUESSES, BOARDS, ROUNDS, SHOWN_GUESSES, SHOWN_PER_BOARD,
                        WORDS_PER_CARD, WRONG_GUESSES)
from .progress import progress
from .state import (asked_now, free_words, guess_words, own_left, scores, won_count, winners,
                    wrong_guesses)

SHOWN = ("guessing", "over")


def _public_board(state: dict, owner, index: int, board: dict) -> dict:
    status = "won" if board["won_by"] else ("drawn" if board["word"] is not None else "blank")
    out = {"player": owner, "board": index, "status": status}
    if board["won_by"]:             # left out while nobody has won it: most boards, every view
        out["won_by"] = list(board["won_by"])
    if state["phase"] in SHOWN and status != "blank":
        out["strokes"] = board["strokes"]
    if state["phase"] == "over" and status != "blank":
        out["word"] = board["word"]
    return out


def _guess(g: dict) -> dict:
    return {k: g[k] for k in ("id", "player", "owner", "board", "text", "correct", "feedback",
                              "round")}


def _asked(g: dict) -> dict:
    """A guess on the viewer's board this round. Its owner (you) and round (this one) go without
    saying, `correct` is there when true and `feedback` once given: a drawer's view lists 8 of
    them on every change (issue 17's byte budget)."""
    out = {k: g[k] for k in ("id", "player", "board", "text")}
    if g["correct"]:
        out["correct"] = True
    if g["feedback"] is not None:
        out["feedback"] = g["feedback"]
    return out


def _newest_per_board(guesses: list) -> list:
    """The newest SHOWN_PER_BOARD of `guesses` on each board, in their order."""
    count: dict = {}
    keep = []
    for g in reversed(guesses):
        key = (g["owner"], g["board"])
        count[key] = count.get(key, 0) + 1
        if count[key] <= SHOWN_PER_BOARD:
            keep.append(g)
    return keep[::-1]


def _private(state: dict, seat) -> dict:
    # What the phone shows, and no more (every view of a guess carries these lists):
    # your newest guesses on each board, and this round's guesses on your boards.
    mine = _newest_per_board([g for g in state["guesses"] if g["player"] == seat][-SHOWN_GUESSES:])
    asked = asked_now(state, seat)
    drawing = state["phase"] == "drawing"
    return {
        "cards": [list(card) for card in state["cards"][seat]],
        "free_words": free_words(state, seat),
        "boards": [{"board": i, "word": b["word"], "strokes": b["strokes"],
                    "won_by": list(b["won_by"])}
                   for i, b in enumerate(state["boards"][seat])],
        "drawable": [i for i, b in enumerate(state["boards"][seat])
                     if drawing and b["word"] is not None and not b["won_by"]],
        "won": [{"player": owner, "board": i, "word": b["word"]}
                for owner in state["seats"] if owner != seat
                for i, b in enumerate(state["boards"][owner]) if seat in b["won_by"]],
        "guesses": [_guess(g) for g in mine],
        "asked": [_asked(g) for g in asked],
        # the wrong guesses you have left this round, on the boards where you have used some
        # (the others: all of `wrong_guesses`); yours only
        "left": [{"player": owner, "board": i, "left": max(0, WRONG_GUESSES - n)}
                 for (owner, i), n in wrong_guesses(state, seat).items()],
    }


def view(state: dict, viewer) -> dict:
    score = scores(state)
    out = {
        "phase": state["phase"],
        "round": state["round"],
        "rounds": len(ROUNDS),
        "next": ROUNDS[state["round"]] if state["round"] < len(ROUNDS) else None,
        "difficulty": state["options"]["difficulty"],
        "boards_per_player": BOARDS,
        "words_per_card": WORDS_PER_CARD,
        "tie_window_ms": state["options"]["tie_window_ms"],
        "round_seconds": state["options"]["round_seconds"],   # as dealt: extended timers x2
        "guess_words": guess_words(state),          # the fair-play limits (issue 31)
        "wrong_guesses": WRONG_GUESSES,
        "audience_guesses": AUDIENCE_GUESSES,
        "players": [{"id": s, "score": score[s], "boards_left": own_left(state, s),
                     "won": won_count(state, s),
                     "drawn": sum(1 for b in state["boards"][s] if b["word"] is not None)}
                    for s in state["seats"]],
        "boards": [_public_board(state, owner, i, b)
                   for owner in state["seats"] for i, b in enumerate(state["boards"][owner])],
        "last": dict(state["last"]) if state["last"] else None,
    }
    if state["phase"] == "over":
        out["winners"] = winners(state)
    ink = progress(state)
    if ink is not None:     # drawing rounds: ink levels and who has finished, never a line
        out["progress"] = ink
    shown = (state.get("audience") or {}).get("last")
    if shown:       # the audience's last closed round: who got which drawing (never a word)
        out["audience"] = shown
    if is_seat(viewer) and viewer in state["boards"]:
        out["you"] = _private(state, viewer)
    return out
