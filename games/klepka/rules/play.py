"""The turn actions of klepka: `word`, `words_done` and `flip` (pure)."""
from __future__ import annotations

from partyhub.gamekit import Accepted, Rejected, evolve

from .alphabet import LETTERS
from .cards import SLAVA
from .table import (end_flips, face_down, finish, holds, letters_of, note, ref,
                    slot_of, start_flips)

MAX_WORD = 40


def _check_word(state: dict, seat: str, action: dict):
    """(letters, real card ids, wild card id or None, wild letter) or a Rejected."""
    cards, wild = action.get("cards"), action.get("wild")
    if not isinstance(cards, list) or not cards or len(cards) > MAX_WORD \
            or not all(isinstance(c, str) for c in cards):
        return Rejected("bad_action", "A word needs the list of its cards in order.")
    hand = state["hands"][seat]
    wild_id, wild_letter = None, None
    if wild is not None:
        if not isinstance(wild, dict) or not isinstance(wild.get("card"), str) \
                or not isinstance(wild.get("letter"), str):
            return Rejected("bad_action", "A polysemy card needs the letter it stands for.")
        wild_id, wild_letter = wild["card"], wild["letter"].strip().lower()
        if wild_id not in holds(state, seat, "polysemy"):
            return Rejected("bad_card", "That is not a polysemy card of yours.")
        if wild_letter not in LETTERS:
            return Rejected("bad_letter", "A polysemy card stands for one Ukrainian letter.")
        if wild_id not in cards:
            return Rejected("bad_card", "Place the polysemy card in the word.")
    real = [c for c in cards if c != wild_id]
    if len(set(real)) != len(real):
        return Rejected("bad_card", "Each card can be used once in a word.")
    if not real:
        return Rejected("bad_card", "A word needs at least one letter card.")
    for c in real:
        if c not in hand:
            return Rejected("bad_card", "You can only use your own cards.")
        if state["cards"][c]["kind"] != "letter":
            return Rejected("bad_card", "Only letter cards and a polysemy card make words.")
    letters = "".join(wild_letter if c == wild_id else state["cards"][c]["letter"] for c in cards)
    if len(letters) < state["options"]["min_letters"]:
        return Rejected("too_short", f"A word needs {state['options']['min_letters']} letters.")
    return letters, real, wild_id, wild_letter


def word_points(state: dict, real: list[str], wild_id) -> tuple[int, bool]:
    """Sum of the letter cards' points (a polysemy scores 0), x2 when all one colour."""
    cards = state["cards"]
    points = sum(cards[c]["points"] for c in real)
    double = bool(state["options"]["one_colour_x2"] and wild_id is None and len(real) >= 2
                  and len({cards[c]["colour"] for c in real}) == 1)
    return (points * 2 if double else points), double


def make_word(state: dict, seat: str, action: dict, now: int, words):
    if state["phase"] != "words":
        return Rejected("wrong_phase", "Words are made before the flips.")
    checked = _check_word(state, seat, action)
    if isinstance(checked, Rejected):
        return checked
    letters, real, wild_id, wild_letter = checked
    opts = state["options"]
    if opts["no_repeat"] and letters in state["used"]:
        return Rejected("repeated_word", "That word was already made in this game.")
    if not words.is_word(letters, nouns_only=opts["nouns_only"]):
        return Rejected("not_a_word", "Not a word in the dictionary.")
    points, double = word_points(state, real, wild_id)
    s = evolve(state)
    events: list = []
    used_cards = real + ([wild_id] if wild_id else [])
    s["hands"][seat] = [c for c in s["hands"][seat] if c not in used_cards]
    s["discard"].extend(used_cards)
    s["points"][seat] += points
    s["made"] += 1
    s["made_words"].append(letters)
    if letters not in s["used"]:
        s["used"].append(letters)
    entry = {"seat": seat, "word": letters, "points": points, "double": double,
             "wild": wild_letter, "cards": list(action["cards"]), "turn": s["turn_no"]}
    s["words"].append(entry)
    note(s, events, dict(entry, type="word_made"))
    if all(w in s["made_words"] for w in SLAVA):
        s["slava"] = seat
        finish(s, "slava")
        note(s, events, {"type": "game_ended", "reason": "slava", "seat": seat})
    elif not letters_of(s, seat):
        start_flips(s, words, now, events)
    return Accepted(s, events)


def words_done(state: dict, seat: str, action: dict, now: int, words):
    if state["phase"] != "words":
        return Rejected("wrong_phase", "You are not making words now.")
    s = evolve(state)
    events: list = []
    note(s, events, {"type": "words_finished", "seat": seat, "made": s["made"]})
    start_flips(s, words, now, events)
    return Accepted(s, events)


def flip(state: dict, seat: str, action: dict, now: int, words):
    if state["phase"] != "flips":
        return Rejected("wrong_phase", "It is not time to flip cards.")
    slot = slot_of(state, action.get("card"))
    if slot is None or slot not in face_down(state):
        return Rejected("bad_card", "Flip a face-down card of the table.")
    s = evolve(state)
    events: list = []
    cid = s["table"][slot]
    card = s["cards"][cid]
    shown = dict(card, id=cid)
    if card["kind"] == "letter":
        s["up"].append(slot)
        note(s, events, {"type": "card_flipped", "seat": seat, "ref": ref(slot), "card": shown})
    else:
        s["table"][slot] = None
        s["hands"][seat].append(cid)
        note(s, events, {"type": "prize_taken", "seat": seat, "ref": ref(slot), "card": shown})
    s["pair"].append({"slot": slot, "card": cid})
    if len(s["pair"]) == 2:
        _close_pair(s, seat, events)
    if s["pairs_left"] <= 0 or not face_down(s):
        end_flips(s, words, now, events)
    return Accepted(s, events)


def _close_pair(s: dict, seat: str, events: list) -> None:
    a, b = s["pair"]
    s["pair"] = []
    s["pairs_left"] -= 1
    ca, cb = s["cards"][a["card"]], s["cards"][b["card"]]
    if ca["kind"] == cb["kind"] == "letter" and ca["letter"] == cb["letter"]:
        for f in (a, b):
            s["table"][f["slot"]] = None
            s["up"].remove(f["slot"])
            s["hands"][seat].append(f["card"])
        s["pairs_left"] += 1
        note(s, events, {"type": "pair_taken", "seat": seat, "letter": ca["letter"],
                         "refs": [ref(a["slot"]), ref(b["slot"])], "cards": [a["card"], b["card"]]})
