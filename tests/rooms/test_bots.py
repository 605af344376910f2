"""Bots join through the public protocol and play a game to its end."""
import pytest

from tests.harness.botgame import run_bot_game

pytestmark = pytest.mark.slow


async def test_bots_play_the_test_game_to_the_end(tmp_path):
    final = await run_bot_game(tmp_path, "count", 3, {"target": 30})
    results = final["room"]["results"]
    assert sum(results["scores"].values()) >= 30 and results["winners"]
    assert final["room"]["scoreboard"]["recent"][-1]["game"] == "count"


async def test_the_lobbys_add_bot_is_flagged_and_a_human_after_it_takes_vip(tmp_path):
    """The in-process bot joins through the public API with the server's bot pass."""
    from tests.liveserver import Conn, Daphne, http
    server = Daphne(tmp_path).migrate().start()
    try:
        status, room = http("POST", server.base + "/api/rooms", {})
        assert status == 201
        tv = await Conn(server.base, room["code"], room["host_token"]).open()
        await tv.act({"type": "add_bot"})
        view = await tv.wait(lambda v: len(v["room"]["players"]) == 1)
        assert view["room"]["players"][0]["bot"] is True and view["room"]["vip"] is None
        status, ann = http("POST", f"{server.base}/api/rooms/{room['code']}/join", {"name": "Ann"})
        assert status == 201
        view = await tv.wait(lambda v: len(v["room"]["players"]) == 2)
        assert view["room"]["vip"] == ann["player_id"]
    finally:
        server.kill()
