"""A random legal game driver for the Hypothesis tests: picks uniformly among every seat's
actions, plus "the timer runs out" whenever a deadline is set (as bots and a clock would)."""
from __future__ import annotations

import json

from hypothesis import strategies as st

from jinx_helpers import GAME, PLAYERS, where_cards_are, with_deck

TIMER = ("timer",)
MAX_STEPS = 71 * 8        # at most 71 turns (each uses up a card) of clue + 5 picks + reveal


def random_game(data, n, seed, pick_seconds):
    """Yields (state before, move, result, now) for a whole random game.

    move is TIMER or (seat, action) as applied (a clue with its text filled in).
    """
    s = GAME.setup(PLAYERS[:n], with_deck({"pick_seconds": pick_seconds, "next_turn_seconds": 1}),
                   seed)
    now = 1_000
    for _ in range(MAX_STEPS):
        if GAME.outcome(s) is not None:
            return
        moves = [(p, a) for p in s["seats"] for a in GAME.actions(s, p)]
        if GAME.deadline(s) is not None:
            moves.append(TIMER)
        assert moves, "nobody can move and no timer runs"
        move = data.draw(st.sampled_from(moves), label="move")
        if move == TIMER:
            now = max(now, GAME.deadline(s)) + data.draw(st.integers(0, 3_000), label="late")
            result = GAME.on_deadline(s, now)
        else:
            seat, action = move
            if action["type"] == "clue":
                action = {"type": "clue", "text": data.draw(st.sampled_from(["maze", "", "x" * 80]))}
            move = (seat, action)
            now += data.draw(st.integers(0, 700), label="wait")
            result = GAME.apply(s, seat, action, now)
        yield s, move, result, now
        s = result.state
    raise AssertionError("the game did not end")


def check_invariants(s):
    assert json.loads(json.dumps(s)) == s
    places = where_cards_are(s)
    assert all(len(p) == 1 for p in places.values()), {c: p for c, p in places.items() if len(p) != 1}
    assert sum(GAME.scores(s).values()) == sum(len(w) for w in s["won"])
    slots = [slot for _, slot in s["picks"]]
    assert len(slots) == len(set(slots))
    assert len({seat for seat, _ in s["picks"]}) == len(slots)
    assert s["active"] not in {seat for seat, _ in s["picks"]}
    if s["phase"] in ("clue", "race"):
        assert None not in s["grid"] and 0 <= s["target"] < 9
        assert s["target"] not in slots          # a right pick ends the turn at once
    if s["phase"] == "clue":
        assert s["picks"] == [] and s["deadline"] is None
    if s["phase"] == "over":
        assert GAME.deadline(s) is None
