"""Three bots play a whole sketch game against a real daphne process (5-second rounds)."""
import pytest

from tests.harness.botgame import run_bot_game

pytestmark = pytest.mark.slow


async def test_bots_play_sketch_to_the_gallery(tmp_path):
    final = await run_bot_game(tmp_path, "sketch", 3, {"round_seconds": 5}, timeout=90,
                               env={"TIMEKEEPER_INTERVAL": "0.1"})
    game = final["game"]
    assert final["room"]["phase"] == "over" and game["phase"] == "over" and game["round"] == 6
    assert set(final["room"]["results"]["scores"]) == {p["id"] for p in game["players"]}
    drawn = [b for b in game["boards"] if b["status"] != "blank"]
    assert drawn and all("word" in b for b in drawn), "the gallery shows every drawn board's word"
    # the bots draw: worded boards carry the library's drawing of their word, not blank paper
    from games.sketch import bot
    lined = [b for b in drawn if b.get("strokes")]
    assert len(lined) >= max(1, len(drawn) // 2), (len(lined), len(drawn))
    for b in lined:
        assert b["strokes"] == bot.drawing_for(b["word"])[1], b["word"]
