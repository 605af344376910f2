"""Two daphne processes over real Redis and PostgreSQL share one room."""
import asyncio

import pytest

from tests.liveserver import Conn, Daphne, room_with_players


pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]


async def test_two_processes_share_a_room_and_every_action_shows_up_on_both(
        tmp_path, redis_server, postgres_database):
    env = {"DATABASE_URL": postgres_database, "REDIS_URL": redis_server}
    a = Daphne(tmp_path, env).migrate().start()
    b = Daphne(tmp_path, env).start()
    try:
        room, seats = room_with_players(a.base, ["Ann", "Bob", "Cid"])
        code = room["code"]
        tv = await Conn(a.base, code, room["host_token"]).open()
        phones = [await Conn(b.base, code, s["token"]).open() for s in seats]
        await tv.wait(lambda v: all(p["connected"] for p in v["room"]["players"]))
        await tv.act({"type": "start", "game": "count", "options": {"target": 9, "turn_seconds": 1}})
        await phones[0].wait(lambda v: v["room"]["phase"] == "playing")
        await phones[0].act({"type": "add", "n": 2})
        for conn in [tv] + phones:
            await conn.wait(lambda v: (v["game"] or {}).get("total", 0) >= 2)
        # the timer fires once across both processes: totals step by one per turn second
        totals = []
        for _ in range(6):
            await asyncio.sleep(0.5)
            totals.append(tv.view["game"]["total"])
        assert all(b - a <= 1 for a, b in zip(totals, totals[1:])), totals
        assert totals[-1] > totals[0]
        await phones[1].act({"type": "say", "text": "hello from b"})
        await tv.wait(lambda v: ["hello from b"] == [t for _, t in v["game"]["said"]])
        versions = {c.version for c in [tv] + phones}
        assert len(versions) == 1 or max(versions) - min(versions) <= 1
    finally:
        a.kill()
        b.kill()
