"""What a finished game of jinx leaves in the room's gallery: the cards each player won."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jinx_helpers import GAME
from jinx_play import random_game


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(3, 6), seed=st.integers(0, 10_000))
def test_the_keepsake_is_the_cards_each_player_won(data, n, seed):
    s = None
    for before, _, result, _ in random_game(data, n, seed, 5):
        assert GAME.keepsake(before) is None
        s = result.state
    kept = GAME.keepsake(s)
    assert kept["cards"] == {seat: list(won) for seat, won in zip(s["seats"], s["won"])}
    assert {seat: len(c) for seat, c in kept["cards"].items()} == GAME.outcome(s)["scores"]
