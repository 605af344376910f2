"""No view but the active player's holds the target before the turn ends, nor lets it be deduced."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from jinx_helpers import AUDIENCE, GAME, TABLE, active, clued, guessers, new_game, ok, viewers
from jinx_play import random_game


def views_if_target_were(state, slot):
    moved = {**state, "target": slot}
    return {v: json.dumps(GAME.view(moved, v), sort_keys=True)
            for v in viewers(state) if v != active(state)}


def assert_target_hidden(s):
    """Every viewer but the active player sees the same thing whichever free slot is the target."""
    free = [slot for slot in range(9) if slot not in {p for _, p in s["picks"]}]
    same = views_if_target_were(s, s["target"])
    for slot in free:
        assert views_if_target_were(s, slot) == same
    for viewer in viewers(s):
        if viewer != active(s):
            assert "target" not in GAME.view(s, viewer)
    assert GAME.view(s, active(s))["target"] == s["target"]


def test_during_the_race_only_the_active_players_phone_shows_the_target():
    s = clued(new_game(5), slot=6)
    s = ok(s, "bob", {"type": "pick", "slot": 0})
    assert_target_hidden(s)
    assert GAME.view(s, TABLE)["fingers"][0] == {"player": "bob", "right": False}
    assert GAME.view(s, TABLE)["out"] == ["bob"]
    assert GAME.view(s, "bob")["me"] == {"active": False, "in": False, "pick": 0}
    assert GAME.view(s, "cat")["me"] == {"active": False, "in": True, "pick": None}


def test_before_the_clue_the_target_is_already_secret():
    assert_target_hidden(new_game(3))


def test_at_the_reveal_everyone_sees_the_target_and_nobody_sees_the_next_one_early():
    s = clued(new_game(4), slot=3)
    s = ok(s, "dan", {"type": "pick", "slot": 3})
    for viewer in viewers(s):
        game = GAME.view(s, viewer)
        assert "target" not in game
        assert game["last"]["target"] == 3 and game["last"]["finder"] == "dan"
    s = GAME.on_deadline(s, GAME.deadline(s)).state
    assert_target_hidden(s)


def test_the_tv_and_the_audience_see_the_same_and_have_no_actions():
    s = clued(new_game(4))
    assert GAME.view(s, TABLE) == GAME.view(s, AUDIENCE)
    assert GAME.actions(s, TABLE) == GAME.actions(s, AUDIENCE) == []
    assert "me" not in GAME.view(s, TABLE)


def test_a_guessers_view_never_holds_the_seed_or_the_order_of_the_deck():
    s = clued(new_game(4))
    for viewer in viewers(s):
        game = GAME.view(s, viewer)
        assert not {"seed", "rng", "box", "cards", "picks", "discard"} & set(game)
        assert isinstance(game["deck"], int)
    assert set(GAME.view(s, guessers(s)[0])) == set(GAME.view(s, active(s))) - {"target"}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32), data=st.data())
def test_in_random_games_no_view_or_event_gives_the_target_away_before_the_reveal(n, seed, data):
    for before, move, result, now in random_game(data, n, seed, pick_seconds=0):
        s = result.state
        box = {f for card in s["box"] for f in s["cards"][card]}
        for viewer in viewers(s):
            text = json.dumps(GAME.view(s, viewer))
            assert not any(f'"{f}"' in text for f in box)
        if s["phase"] in ("clue", "race"):
            assert_target_hidden(s)
            assert all("target" not in e for e in result.events)
