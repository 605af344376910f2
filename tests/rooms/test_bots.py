"""Bots join through the public protocol and play a game to its end."""
import pytest

from tests.harness.botgame import run_bot_game

pytestmark = pytest.mark.slow


async def test_bots_play_the_test_game_to_the_end(tmp_path):
    final = await run_bot_game(tmp_path, "count", 3, {"target": 30})
    results = final["room"]["results"]
    assert sum(results["scores"].values()) >= 30 and results["winners"]
    assert final["room"]["scoreboard"][-1]["game"] == "count"
