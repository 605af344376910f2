"""Guessing rounds: typed guesses, the tie window, and the drawer's "close"/"far" answers.

A correct guess wins the board at once (won_at = now). Another player's correct guess until
won_at + tie_window_ms wins it too; after that the board is done.

Fair play (issue 31): a guess holds at most guess_words(state) words (3 unless a dealt word
has more; `too_many_words`), and a player has WRONG_GUESSES wrong guesses per board per round
(then `out_of_guesses`, whatever the guess: a refusal never tells right from wrong).
"""
from __future__ import annotations

from partyhub.gamekit import Accepted, Rejected, integer, string, text

from .constants import FEEDBACK, MAX_GUESS_CHARS, WRONG_GUESSES
from .matcher import is_correct, normalise, words_of
from .state import asked_now, board_at, fork, guess_words, wrong_guesses, wrong_left

# The fields of each action and their size ceilings (the functions below judge the values).
ACTIONS = {
    "guess": {"player": string(16), "board": integer(), "text": text(500)},
    "feedback": {"guess": string(16), "value": string(16)},
}


def _target(state: dict, seat, action: dict):
    """(owner, index, board) of the guessed board, or a Rejected."""
    owner, index = action.get("player"), action.get("board")
    board = board_at(state, owner, index)
    if board is None:
        return Rejected("bad_board", "Pick a board on the table.")
    if owner == seat:
        return Rejected("own_board", "You cannot guess your own drawing.")
    if board["word"] is None:
        return Rejected("not_drawn", "Nothing is drawn on that board.")
    if seat in board["won_by"]:
        return Rejected("already_won", "You have guessed that one already.")
    return owner, index, board


def guess(state: dict, seat, action: dict, now: int) -> Accepted | Rejected:
    if state["phase"] != "guessing":
        return Rejected("wrong_phase", "You can guess only in a guessing round.")
    target = _target(state, seat, action)
    if isinstance(target, Rejected):
        return target
    owner, index, board = target
    text = action.get("text")
    if not isinstance(text, str) or not normalise(text):
        return Rejected("empty_guess", "Type a guess.")
    if len(text) > MAX_GUESS_CHARS:
        return Rejected("long_guess", f"A guess is at most {MAX_GUESS_CHARS} characters.")
    refused = too_many_words(state, text)
    if refused is not None:
        return refused
    if not wrong_left(state, seat, owner, index):
        return Rejected("out_of_guesses",
                        f"You have had your {WRONG_GUESSES} wrong guesses on that drawing this round.")
    correct = is_correct(board["word"], text)
    if board["won_by"]:
        window_open = now <= board["won_at"] + state["options"]["tie_window_ms"]
        if not (correct and window_open):
            return Rejected("already_guessed", "Someone else has guessed that drawing already.")
    elif not correct and _repeated(state, seat, owner, index, text):
        return Rejected("repeated_guess", "You have tried that already.")
    new = fork(state)
    gid = f"g{new['next_guess']}"
    new["next_guess"] += 1
    new["guesses"].append({"id": gid, "player": seat, "owner": owner, "board": index,
                           "text": " ".join(text.split()), "correct": correct,
                           "feedback": None, "round": new["round"], "at": now})
    events = [{"type": "guess_made", "seat": seat, "player": owner, "board": index,
               "guess": gid, "correct": correct}]
    if correct:
        won = new["boards"][owner][index]
        won["won_by"].append(seat)
        if won["won_at"] is None:
            won["won_at"] = now
        new["seq"] += 1
        new["last"] = {"type": "board_won", "player": owner, "board": index,
                       "by": list(won["won_by"]), "n": new["seq"]}
        events.append({"type": "board_won", "player": owner, "board": index, "by": seat})
    return Accepted(new, events)


def too_many_words(state: dict, text: str) -> Rejected | None:
    """A guess names one thing ("toy car"), not a list of candidates."""
    most = guess_words(state)
    if len(words_of(text)) > most:
        return Rejected("too_many_words", f"A guess is at most {most} words.")
    return None


def _repeated(state, seat, owner, index, text) -> bool:
    key = normalise(text)
    return any(g["player"] == seat and g["owner"] == owner and g["board"] == index
               and normalise(g["text"]) == key for g in state["guesses"])


def guess_actions(state: dict, seat) -> list[dict]:
    wrong = wrong_guesses(state, seat)
    return [{"type": "guess", "player": owner, "board": i, "text": None}
            for owner in state["seats"] if owner != seat
            for i, board in enumerate(state["boards"][owner])
            if board["word"] is not None and not board["won_by"]
            and wrong.get((owner, i), 0) < WRONG_GUESSES]


def _open_wrong_guess(state: dict, seat, gid) -> dict | Rejected:
    found = next((g for g in state["guesses"] if g["id"] == gid), None)
    if found is None or not isinstance(gid, str):
        return Rejected("bad_guess", "No such guess.")
    if found["owner"] != seat:
        return Rejected("not_your_board", "Only the drawer answers a guess.")
    if found["correct"]:
        return Rejected("correct_guess", "That guess was right.")
    if found["round"] != state["round"]:
        return Rejected("round_over", "That guess was made in an earlier round.")
    if found["feedback"] is not None:
        return Rejected("already_answered", "You have answered that guess.")
    if found not in asked_now(state, seat):
        return Rejected("guess_too_old", "Only the newest guesses on your drawings can be answered.")
    return found


def feedback(state: dict, seat, action: dict) -> Accepted | Rejected:
    if state["phase"] != "guessing":
        return Rejected("wrong_phase", "You can answer guesses only in a guessing round.")
    found = _open_wrong_guess(state, seat, action.get("guess"))
    if isinstance(found, Rejected):
        return found
    value = action.get("value")
    if value not in FEEDBACK:
        return Rejected("bad_value", "Answer close or far.")
    new = fork(state)
    next(g for g in new["guesses"] if g["id"] == found["id"])["feedback"] = value
    return Accepted(new, [{"type": "feedback_given", "seat": seat, "guess": found["id"],
                           "value": value}])


def feedback_actions(state: dict, seat) -> list[dict]:
    return [{"type": "feedback", "guess": g["id"], "value": v}
            for g in asked_now(state, seat) if not g["correct"] and g["feedback"] is None
            for v in FEEDBACK]
