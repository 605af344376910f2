"""A whole game played by bots (partyhub.bots) against a real daphne process."""
from __future__ import annotations

import asyncio
import random

from partyhub.bots import client as botclient
from tests.liveserver import Conn, Daphne, http


async def run_bot_game(tmp_path, game: str, players: int, options: dict, timeout=120,
                       think=(0.01, 0.05), env=None) -> dict:
    """Start a server, join `players` bots, start `game` from the TV; returns the final TV view."""
    server = Daphne(tmp_path, env).migrate().start()
    tasks = []
    try:
        status, room = http("POST", server.base + "/api/rooms", {})
        assert status == 201
        code = room["code"]
        tv = await Conn(server.base, code, room["host_token"]).open()
        for i in range(players):
            rnd = random.Random(i)
            seat = await botclient.join(server.base, code, rnd)
            tasks.append(asyncio.create_task(botclient.play(server.base, code, seat["token"], rnd, think)))
        await tv.wait(lambda v: len(v["room"]["players"]) == players and
                      all(p["connected"] for p in v["room"]["players"]))
        await tv.act({"type": "start", "game": game, "options": options})
        final = await tv.wait(lambda v: v["room"]["phase"] == "over", timeout=timeout)
        return final
    finally:
        for t in tasks:
            t.cancel()
        server.kill()
