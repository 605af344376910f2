"""State helpers of klepka: the table, hands and the turn cycle (pure)."""
from __future__ import annotations

from partyhub.gamekit import timer_due

REF_PREFIX = "t"


def ref(slot: int) -> str:
    """A table position's name in views and `flip` actions (face-down cards have no id)."""
    return f"{REF_PREFIX}{slot}"


def slot_of(state: dict, value) -> int | None:
    """The slot a `t<n>` reference names, if it is a position of this table."""
    if not isinstance(value, str) or not value.startswith(REF_PREFIX):
        return None
    digits = value[len(REF_PREFIX):]
    if not digits.isdigit() or len(digits) > 4:
        return None
    slot = int(digits)
    return slot if slot < len(state["table"]) else None


def on_table(state: dict) -> list[int]:
    return [i for i, cid in enumerate(state["table"]) if cid is not None]


def face_down(state: dict) -> list[int]:
    up = set(state["up"])
    return [i for i, cid in enumerate(state["table"]) if cid is not None and i not in up]


def seat_now(state: dict) -> str:
    return state["seats"][state["turn"]]


def letters_of(state: dict, seat: str) -> list[str]:
    cards = state["cards"]
    return [cards[c]["letter"] for c in state["hands"][seat] if cards[c]["kind"] == "letter"]


def holds(state: dict, seat: str, kind: str) -> list[str]:
    cards = state["cards"]
    return [c for c in state["hands"][seat] if cards[c]["kind"] == kind]


def owner(state: dict, card: str) -> str | None:
    for seat, hand in state["hands"].items():
        if card in hand:
            return seat
    return None


def can_make(state: dict, seat: str, words) -> bool:
    letters = letters_of(state, seat)
    if not letters:
        return False
    opts = state["options"]
    return words.can_make(letters, bool(holds(state, seat, "polysemy")),
                          nouns_only=opts["nouns_only"], min_letters=opts["min_letters"],
                          exclude=frozenset(state["used"]) if opts["no_repeat"] else frozenset())


def finish(state: dict, reason: str) -> None:
    state["phase"] = "over"
    state["end"] = reason
    state["reveal_until"] = None
    state["pair"] = []


def start_flips(state: dict, words, now: int, events: list) -> None:
    state["phase"] = "flips"
    state["pairs_left"] = state["made"] + 1
    state["pair"] = []
    if not face_down(state):
        end_flips(state, words, now, events)


def end_flips(state: dict, words, now: int, events: list) -> None:
    """The flips are over: the face-up letters stay for the table to see, then go back
    (host-paced: they stay until the VIP turns them down)."""
    seconds = state["options"]["reveal_seconds"]
    if state["up"] and seconds > 0:
        state["phase"] = "reveal"
        state["reveal_until"] = timer_due(state["options"], seconds, now)
        state["pair"] = []
        return
    next_turn(state, words, now, events)


def turn_down(state: dict, events: list) -> None:
    if state["up"]:
        refs = [ref(s) for s in sorted(state["up"])]
        state["up"] = []
        note(state, events, {"type": "cards_turned_down", "refs": refs})


def next_turn(state: dict, words, now: int, events: list) -> None:
    """End the current turn and start the next seat's one (skipping seats with nothing to do)."""
    turn_down(state, events)
    state["reveal_until"] = None
    state["pair"] = []
    n = len(state["seats"])
    for _ in range(4 * n + 4):
        if not on_table(state):
            state["idle"] = state["idle"] + 1 if state["made"] == 0 else 0
            if state["idle"] >= n:
                finish(state, "all_done")
                note(state, events, {"type": "game_ended", "reason": "all_done"})
                return
        else:
            state["idle"] = 0
        state["turn"] = (state["turn"] + 1) % n
        state["turn_no"] += 1
        state["made"] = 0
        state["made_words"] = []
        if not on_table(state) and not any(can_make(state, s, words) for s in state["seats"]):
            finish(state, "no_words")
            note(state, events, {"type": "game_ended", "reason": "no_words"})
            return
        if letters_of(state, seat_now(state)):
            state["phase"] = "words"
            return
        # nothing to build words with: straight to the flips, if any card is face down
        if face_down(state):
            start_flips(state, words, now, events)
            return
    finish(state, "all_done")  # unreachable in practice: a safety net for the loop bound


def note(state: dict, events: list, event: dict) -> None:
    """Record an event and make it the view's `last` (numbered so screens animate it once)."""
    state["seq"] += 1
    state["last"] = dict(event, seq=state["seq"])
    events.append(event)
