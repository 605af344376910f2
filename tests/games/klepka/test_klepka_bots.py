"""Bots play a short klepka (6x8, letters turned back at once) to its end on a real daphne.

partyhub.bots plays klepka with the game's own strategy (games/klepka/bot.py), from its view only:
words found by the dictionary search, flips from what it has seen face up."""
import pytest

from tests.harness.botgame import run_bot_game

pytestmark = pytest.mark.slow


async def test_bots_play_a_short_klepka_to_the_end(tmp_path):
    final = await run_bot_game(tmp_path, "klepka", 3, {"table": "6x8", "reveal_seconds": 0},
                               timeout=150)
    results = final["room"]["results"]
    assert results["winners"]
    assert final["room"]["scoreboard"]["recent"][-1]["game"] == "klepka"
    game = final["game"]
    assert game["phase"] == "over" and game["end"] in ("all_done", "no_words")
    assert game["on_table"] == 0, "the table was flipped empty"
    held = sum(len(p["hand"]) for p in game["players"].values())
    assert held + game["discarded"] == 48, "every card is held or discarded"
    assert results["scores"] == {seat: p["score"] for seat, p in game["players"].items()}
    # the bots made real words, and the recap names the best ones with who made them
    assert sum(p["words"] for p in game["players"].values()) >= 2, game["players"]
    best = results["best_words"]
    assert best and all(w["seat"] in game["players"] and w["points"] > 0 for w in best)
    assert [w["points"] for w in best] == sorted((w["points"] for w in best), reverse=True)
