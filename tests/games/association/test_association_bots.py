"""A whole association game played by bots (partyhub.bots) against a real daphne: the bots fill
the free-text clue with a word; a target score and short timers keep it short."""
import pytest

from tests.harness.botgame import run_bot_game

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players", [4])
async def test_bots_play_association_to_the_end(tmp_path, players):
    final = await run_bot_game(tmp_path, "association", players,
                               {"target_score": 10, "tell_seconds": 5, "submit_seconds": 5,
                                "vote_seconds": 5, "reveal_seconds": 2}, timeout=150,
                               env={"PARTYHUB_JOINS_PER_MINUTE": "1000"})
    results = final["room"]["results"]
    scores = results["scores"]
    assert len(scores) == players and results["winners"]
    assert set(results["winners"]) <= set(scores)
    best = max(scores.values())
    assert all(scores[w] == best for w in results["winners"])
    assert best >= 10 and results["reason"] == "target_score"
