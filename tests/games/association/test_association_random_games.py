"""Random legal games from random seeds, table sizes and options: the invariants hold at every step."""
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from association_helpers import GAME, all_cards
from association_play import check_junk_refused, expected_gains, random_game, step

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play_out(seed: int, check):
    r = random.Random(seed)
    s, lazy = random_game(r)
    cards = sorted(all_cards(s))
    bound = 40 * (len(cards) + 1)
    now = 1_000
    for n in range(bound):
        if s["phase"] == "over":
            return s, n
        before = s
        s, now, move = step(s, r, now, lazy)
        check(before, s, cards, r, now)
    raise AssertionError("the game did not end")


def invariants(before, s, cards, r, now):
    assert sorted(all_cards(s)) == cards, "a card was lost or copied"
    assert len(set(all_cards(s))) == len(cards)
    assert json.loads(json.dumps(s)) == s
    for seat in s["seats"]:
        assert s["scores"][seat] >= before["scores"][seat]
        assert len(s["hands"][seat]) <= 6
    if s["last"] is not None and s["last"] is not before["last"] and s["last"] != before["last"]:
        gained = {seat: s["scores"][seat] - before["scores"][seat] for seat in s["seats"]}
        assert gained == expected_gains(s["last"], s["seats"]) == s["last"]["gains"]
    else:
        assert s["scores"] == before["scores"]
    if s["phase"] == "vote":
        assert sorted(s["table"]) == sorted(s["played"].values())


@SETTINGS
@given(st.integers(0, 10**9))
def test_random_games_keep_every_card_in_one_place_score_by_the_rules_and_end(seed):
    s, steps = play_out(seed, invariants)
    out = GAME.outcome(s)
    assert out["scores"] == GAME.scores(s)
    best = max(out["scores"].values())
    assert out["winners"] and all(out["scores"][w] == best for w in out["winners"])
    assert out["reason"] in ("out_of_cards", "target_score", "nobody_told")
    if out["reason"] == "out_of_cards":
        teller = s["seats"][s["teller"]]
        assert s["hands"][teller] == []
    assert all(GAME.actions(s, seat) == [] for seat in s["seats"])


def listed_and_junk(before, s, cards, r, now):
    seat = r.choice(s["seats"])
    for action in GAME.actions(s, seat):
        filled = dict(action, clue="a word") if "clue" in action else action
        res = GAME.apply(s, seat, filled, now)
        assert res.__class__.__name__ == "Accepted", (seat, action, res)
    check_junk_refused(s, r, now)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_every_listed_action_is_accepted_and_anything_else_is_refused_unchanged(seed):
    play_out(seed, listed_and_junk)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9))
def test_a_game_replays_identically_from_its_seed_and_moves(seed):
    a, _ = play_out(seed, lambda *args: None)
    b, _ = play_out(seed, lambda *args: None)
    assert a == b
