"""A whole jinx game played by bots (partyhub.bots) against a real daphne, with short timers."""
import pytest

from tests.harness.botgame import run_bot_game

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players", [4])
async def test_bots_play_jinx_to_the_end(tmp_path, players):
    final = await run_bot_game(tmp_path, "jinx", players,
                               {"pick_seconds": 3, "next_turn_seconds": 1}, timeout=150,
                               env={"PARTYHUB_JOINS_PER_MINUTE": "1000"})
    results = final["room"]["results"]
    scores = results["scores"]
    assert len(scores) == players and results["winners"]
    assert set(results["winners"]) <= set(scores)
    best = max(scores.values())
    assert all(scores[w] == best for w in results["winners"])
