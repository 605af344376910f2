"""Issue 27, "Defaults that end": every game's default options end a game of 4 in 15 to 30
minutes, and the figure the lobby shows (each game's `minutes`, partyhub/rooms/gateway/registry.py)
is what a whole game with the rules and the bots' strategies takes on a people's clock
(bench/lengths.py, docs/games/<game>.md)."""
import pytest

from bench import lengths
from partyhub.rooms.gateway import registry


@pytest.mark.parametrize("game_id", ["association", "jinx", "klepka", "sketch"])
def test_a_game_of_four_with_the_defaults_ends_in_15_to_30_minutes_as_the_lobby_says(game_id):
    game = registry.get(game_id)
    assert 15 <= game.minutes <= 30
    assert registry.describe(game)["minutes"] == game.minutes
    measured = lengths.measure(game_id, 4, games=4, language="uk" if game_id == "klepka" else "en")
    assert 15 <= measured["p10"] and measured["p90"] <= 30, measured
    assert abs(measured["minutes"] - game.minutes) <= 3, measured


def test_association_ends_by_default_at_30_points_or_when_the_deck_runs_out():
    from games.association.rules import GAME
    opts = lengths.defaults(GAME)
    assert opts["target_score"] == 30
    assert all(opts[k] > 0 for k in ("tell_seconds", "submit_seconds", "vote_seconds", "reveal_seconds"))
    for seed in range(4):
        outcome = lengths.play(GAME, 4, seed)["outcome"]
        assert outcome is not None and outcome["reason"] == "target_score"
        assert max(outcome["scores"].values()) >= 30
