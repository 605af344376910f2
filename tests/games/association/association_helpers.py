"""Shared helpers for the association tests: a table of named players and short moves."""

from partyhub.decks.options import resolved
from partyhub.gamekit import Accepted, Rejected, clean_options, evolve

from games.association.rules import GAME
from games.association.rules import turn

SEATS = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea"]
T = 10_000


def start_options(**given):
    """The options as the platform gives them to setup: cleaned, the deck resolved as data."""
    options = clean_options(GAME.options, given)
    return {**options, **resolved(GAME.options, options)}


def new_game(players=4, seed=1, now=T, **options):
    """A game as the platform starts it: setup, then begin with the game clock."""
    return GAME.begin(GAME.setup(SEATS[:players], start_options(**options), seed), now)


def ok(state, seat, action, now=T):
    before = evolve(state)   # compared after with ==: a quarter of two sorted dumps' CPU
    res = GAME.apply(state, seat, action, now)
    assert isinstance(res, Accepted), f"{seat} {action}: {res}"
    assert state == before, "apply mutated its input"
    return res.state


def refused(state, seat, action, code, now=T):
    res = GAME.apply(state, seat, action, now)
    assert isinstance(res, Rejected), f"{seat} {action} was accepted"
    assert res.code == code, res
    return res


def teller(state):
    return turn.teller(state)


def others(state):
    return turn.others(state)


def tell(state, card=None, clue="a long way home"):
    seat = teller(state)
    card = card or state["hands"][seat][0]
    return ok(state, seat, {"type": "tell", "card": card, "clue": clue})


def submit_all(state):
    for seat in others(state):
        if seat not in state["played"] and state["hands"][seat]:
            state = ok(state, seat, {"type": "submit", "card": state["hands"][seat][0]})
    return state


def story(state):
    return state["played"][teller(state)]


def card_of(state, seat):
    return state["played"][seat]


def vote(state, seat, card):
    return ok(state, seat, {"type": "vote", "card": card})


def to_vote(state):
    return submit_all(tell(state))


def all_cards(state):
    """Every card where it is now; each must appear exactly once."""
    cards = list(state["draw"]) + list(state["out"])
    for hand in state["hands"].values():
        cards += hand
    if state["phase"] != "over":
        cards += [c for c in state["played"].values()]
    return cards
