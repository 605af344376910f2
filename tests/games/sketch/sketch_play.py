"""Helpers for the sketch tests: a started game, accepted moves, the clock."""
from partyhub.gamekit import Accepted, clean_options

from games.sketch.rules import GAME

T0 = 1_000_000


def options(**given):
    return clean_options(GAME.options, given)


def seats(n):
    return [f"p{i}" for i in range(n)]


def started(n=3, seed=1, now=T0, **given):
    return GAME.begin(GAME.setup(seats(n), options(**given), seed), now)


def ok(state, seat, action, now=T0 + 1):
    result = GAME.apply(state, seat, action, now)
    assert isinstance(result, Accepted), result
    return result.state


def refused(state, seat, action, now=T0 + 1):
    result = GAME.apply(state, seat, action, now)
    assert not isinstance(result, Accepted), f"{action} was accepted"
    return result.code


def next_round(state):
    return GAME.on_deadline(state, state["deadline"]).state


def put(state, seat, board, word=None):
    """The seat puts a word (its first free one unless given) on a board."""
    word = word or next(a["word"] for a in GAME.actions(state, seat) if a["type"] == "draw")
    return ok(state, seat, {"type": "draw", "board": board, "word": word})


def word_on(state, seat, board):
    return state["boards"][seat][board]["word"]


def stroke(board, points=((0.1, 0.2), (0.3, 0.4)), **extra):
    return {"type": "stroke", "board": board, "points": [list(p) for p in points],
            "color": "#000", "width": 4, **extra}
