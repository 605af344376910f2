"""Small helpers shared by the jinx tests (imported by name: pytest puts this folder on sys.path)."""
from __future__ import annotations

from partyhub import decks
from partyhub.gamekit import AUDIENCE, TABLE, Accepted, Rejected, evolve

from games.jinx.rules import GAME

PLAYERS = ["ann", "bob", "cat", "dan", "eve", "fay"]


def with_deck(options: dict) -> dict:
    """The options as the platform gives them to setup: the chosen deck resolved as data."""
    return {**options, "_deck": decks.resolve(options.get("deck", decks.DEFAULT))}


def new_game(n=4, seed=1, **options):
    return GAME.setup(PLAYERS[:n], with_deck({"first_player": "first_seat", **options}), seed)


def ok(state, player, action, now=0):
    result = GAME.apply(state, player, action, now)
    assert isinstance(result, Accepted), result
    return result.state


def refused(state, player, action, now=0):
    before = evolve(state)   # compared after with ==: a quarter of two sorted dumps' CPU
    result = GAME.apply(state, player, action, now)
    assert isinstance(result, Rejected), result
    assert state == before
    return result.code


def active(state):
    return state["seats"][state["active"]]


def guessers(state):
    return [p for p in state["seats"] if p != active(state)]


def with_target(state, slot):
    """The same turn with the position card showing `slot` (a test's way to know the answer)."""
    return {**state, "target": slot}


def clued(state, slot=4, text="maze", now=0):
    return ok(with_target(state, slot), active(state), {"type": "clue", "text": text}, now)


def wrong_slots(state, k):
    return [s for s in range(9) if s != state["target"]][:k]


def face(state, slot):
    return state["grid"][slot]


def card_of(state, face_id):
    return next(i for i, c in enumerate(state["cards"]) if face_id in c)


def where_cards_are(state):
    """Every card id -> the list of places it is; each must be exactly one."""
    places = {i: [] for i in range(len(state["cards"]))}
    for pile in ("deck", "box", "discard"):
        for card in state[pile]:
            places[card].append(pile)
    for slot, f in enumerate(state["grid"]):
        if f is not None:
            places[card_of(state, f)].append(f"grid{slot}")
    for seat, won in zip(state["seats"], state["won"]):
        for f in won:
            places[card_of(state, f)].append(seat)
    return places


def viewers(state):
    return [TABLE, AUDIENCE, *state["seats"]]
