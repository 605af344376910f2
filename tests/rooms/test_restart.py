"""kill -9 the server mid-game and start it again: same seats, state and version; a deadline
that fell due while it was down fires exactly once."""
import asyncio
import pytest

from tests.liveserver import Conn, Daphne, http, room_with_players

pytestmark = pytest.mark.slow


async def test_a_killed_server_comes_back_with_every_seat_and_fires_a_missed_deadline_once(tmp_path):
    server = Daphne(tmp_path).migrate().start()
    try:
        room, seats = room_with_players(server.base, ["Ann", "Bob", "Cid"])
        code = room["code"]
        tv = await Conn(server.base, code, room["host_token"]).open()
        phones = [await Conn(server.base, code, s["token"]).open() for s in seats]
        await tv.act({"type": "start", "game": "count", "options": {"target": 50, "turn_seconds": 2}})
        await phones[0].wait(lambda v: v["room"]["phase"] == "playing")
        await phones[0].act({"type": "add", "n": 3})
        before = await tv.wait(lambda v: v["game"]["total"] == 3)
        secrets = [(await p.wait(lambda v: v["game"].get("total") == 3))["game"]["secret"] for p in phones]
        version = tv.version
        server.kill()
        await asyncio.sleep(3)              # Bob's 2 s turn timer falls due while the server is down
        server.start()
        tv2 = await Conn(server.base, code, room["host_token"]).open()
        assert tv2.version >= version and tv2.view["game"]["total"] >= 3
        after = await tv2.wait(lambda v: v["game"]["total"] == 4, timeout=5)   # fired once
        assert after["room"]["players"][1]["score"] == 1
        await asyncio.sleep(1.0)            # a second firing would show at once; the next is 2 s off
        assert tv2.view["game"]["total"] == 4
        again = [await Conn(server.base, code, s["token"]).open() for s in seats]
        for conn, s, secret in zip(again, seats, secrets):
            v = await conn.wait(lambda v: v["you"]["id"] == s["player_id"])
            assert v["game"]["secret"] == secret
        assert [p["score"] for p in (await tv2.wait(lambda v: True))["room"]["players"]][0] == 3
        await asyncio.sleep(0.6)
        status, log = http("GET", f"{server.base}/api/rooms/{code}/log",
                           headers={"Authorization": f"Bearer {room['host_token']}"})
        assert status == 409   # still running
        assert before["room"]["players"][0]["name"] == "Ann"
    finally:
        server.kill()
