"""Random legal games from random seeds and table sizes: the invariants hold at every step."""
import json
import random

from hypothesis import given, settings, strategies as st
from partyhub.gamekit import Accepted, Rejected, Relay, evolve

from games.sketch.rules import GAME
from games.sketch.rules.state import wrong_left

from sketch_checks import check_boards, check_secrecy
from sketch_play import T0, options, seats

JUNK = [
    {}, {"type": "fly"}, {"type": "draw", "board": -1, "word": "x"},
    {"type": "draw", "board": "0", "word": None}, {"type": "guess", "board": 9, "text": "x"},
    {"type": "guess", "player": "nobody", "board": 0, "text": "x"},
    {"type": "feedback", "guess": "g999999", "value": "close"},
    {"type": "feedback", "guess": ["g1"], "value": "far"},
    {"type": "stroke", "board": 0, "points": "zig", "color": "#000", "width": 4},
    {"type": "undo", "board": 17}, {"type": "begin"},
]


def fill(state, action, rnd, k):
    if action["type"] != "guess":
        return action
    word = state["boards"][action["player"]][action["board"]]["word"]
    return {**action, "text": word if rnd.random() < 0.4 else f"zz{k}"}


def tie_guess(state, rnd, now):
    """A correct guess on a board won within the tie window, by someone still allowed."""
    window = state["options"]["tie_window_ms"]
    open_boards = [(o, i, b) for o in state["seats"] for i, b in enumerate(state["boards"][o])
                   if b["won_by"] and now <= b["won_at"] + window]
    for owner, i, b in open_boards:
        # a seat that has had its wrong guesses on that board this round is refused whatever
        # it types (guessing.py: out_of_guesses), a right guess too
        others = [s for s in state["seats"] if s != owner and s not in b["won_by"]
                  and wrong_left(state, s, owner, i)]
        if others:
            return rnd.choice(others), {"type": "guess", "player": owner, "board": i,
                                        "text": b["word"]}
    return None


def step(state, rnd, now, k):
    """One random thing happens; returns the new state."""
    roll = rnd.random()
    seat = rnd.choice(state["seats"])
    before = evolve(state)   # compared after with ==: a quarter of two sorted dumps' CPU
    if roll < 0.1:
        junk = rnd.choice(JUNK)
        result = GAME.apply(state, rnd.choice([seat, "@table", "stranger"]), junk, now)
        assert isinstance(result, Rejected) and result.code
        assert state == before
        return state
    if roll < 0.3 and state["phase"] == "drawing":
        item = rnd.choice([
            {"type": "stroke", "board": rnd.randrange(6), "color": "#2e86de", "width": 2,
             "points": [[rnd.random(), rnd.random()] for _ in range(rnd.randint(1, 5))],
             "join": rnd.random() < 0.5},
            {"type": "undo", "board": rnd.randrange(6)},
            {"type": "clear", "board": rnd.randrange(6)}])
        relay = GAME.stream(state, seat, item, now)
        if isinstance(relay, Relay):
            assert relay.to == (seat,)
            return GAME.absorb(state, [(seat, item)])
        return state
    if roll < 0.4 and state["phase"] == "guessing":
        tie = tie_guess(state, rnd, now)
        if tie:
            result = GAME.apply(state, tie[0], tie[1], now)
            assert isinstance(result, Accepted), result
            return result.state
    legal = GAME.actions(state, seat)
    assert GAME.actions(state, "@table") == GAME.actions(state, "@audience") == []
    if not legal:
        return state
    action = fill(state, rnd.choice(legal), rnd, k)
    result = GAME.apply(state, seat, action, now)
    assert isinstance(result, Accepted), (action, result)
    assert state == before, "apply never mutates its input"
    return result.state


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 7), window=st.sampled_from([0, 1000, 3000]),
       lang=st.sampled_from(["en", "uk", "ru"]), level=st.sampled_from(["easy", "hard"]))
def test_random_games_keep_every_board_and_every_secret_and_end_after_six_rounds(
        seed, n, window, lang, level):
    rnd = random.Random(seed)
    opts = options(round_seconds=5, tie_window_ms=window, language=lang, difficulty=level)
    state = GAME.begin(GAME.setup(seats(n), opts, seed), T0)
    now, rounds = T0, 0
    for k in range(2_000):
        if GAME.outcome(state) is not None:
            break
        now += rnd.randint(0, 400)
        due = GAME.deadline(state)
        if due is not None and now >= due:
            result = GAME.on_deadline(state, now)
            state, rounds = result.state, rounds + 1
        else:
            state = step(state, rnd, now, k)
        state = json.loads(json.dumps(state))
        check_boards(state)
        check_secrecy(state)
    out = GAME.outcome(state)
    assert out is not None and rounds == 6 and state["round"] == 6
    assert out["scores"] == GAME.scores(state)
    best = max(out["scores"].values())
    assert out["winners"] and all(out["scores"][w] == best for w in out["winners"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 10))
def test_the_same_seed_and_players_give_the_same_deal(seed, n):
    one = GAME.setup(seats(n), options(), seed)
    assert one == GAME.setup(seats(n), options(), seed)
    check_boards(one)
    check_secrecy(one)
