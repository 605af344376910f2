"""Races with real sockets against a real daphne: two presses of the same button at the same
moment have exactly one effect.

- two "start" presses (the TV and the VIP's phone): one game is dealt, the other press is
  refused (`bad_action`: already running);
- two "next" presses in association's reveal: the turn advances once, the other press is
  refused (`wrong_phase`).
Jinx picks on one card: tests/games/jinx/test_jinx_race.py (40 collisions of five picks by
default, 240 with --long).
"""
from __future__ import annotations

import asyncio
import json
import os

import pytest

from tests.liveserver import Daphne, room_with_players
from tests.reliability.livekit import Sock, server_errors

pytestmark = pytest.mark.slow
START_TRIALS = int(os.environ.get("RACE_TRIALS", "60"))
NEXT_TRIALS = int(os.environ.get("RACE_NEXT_TRIALS", "40"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("races")
    srv = Daphne(tmp, {"PARTYHUB_JOINS_PER_MINUTE": "10000", "PARTYHUB_ROOMS_PER_MINUTE": "10000",
                       "PARTYHUB_FPS": "1000"}).migrate().start()
    yield srv
    srv.kill()


async def both(socks_frames):
    """Send each (sock, frame) at the same moment; wait until each has its answer."""
    marks = [len(s.frames) for s, _ in socks_frames]
    await asyncio.gather(*(s.send(json.dumps(f)) for s, f in socks_frames))
    out = []
    for (s, f), mark in zip(socks_frames, marks):
        end = await s.barrier()
        errs = [x["d"]["code"] for x in s.frames[mark:end] if x["t"] == "error" and x["d"]["ref"] == f["id"]]
        out.append(errs[0] if errs else "accepted")
    return out


async def run_starts(server, trials):
    room, seats = await asyncio.to_thread(room_with_players, server.base, ["A", "B", "C"])
    tv = await Sock(server.base, room["code"], room["host_token"], "tv").open()
    vip = await Sock(server.base, room["code"], seats[0]["token"], "vip").open()
    doubles = 0
    for n in range(trials):
        game_no = tv.view["room"]["game_no"]
        start = {"type": "start", "game": "count", "options": None}
        res = await both([(tv, {"t": "act", "id": f"s{n}a", "d": start}),
                          (vip, {"t": "act", "id": f"s{n}b", "d": start})])
        await tv.barrier()
        assert sorted(res) == ["accepted", "bad_action"], res
        assert tv.view["room"]["game_no"] == game_no + 1, "two presses dealt twice"
        doubles += tv.view["room"]["game_no"] - game_no - 1
        await tv.send(json.dumps({"t": "act", "id": f"e{n}", "d": {"type": "end"}}))
        await tv.wait(lambda: tv.view["room"]["phase"] == "lobby")
    await tv.close()
    await vip.close()
    return doubles


async def test_two_start_presses_deal_once(server):
    doubles = await run_starts(server, START_TRIALS)
    print(f"\nrace start: {START_TRIALS} trials, {doubles} double deals")
    assert doubles == 0 and not server_errors(server)


def _fill(a):
    return {k: ("moon" if v is None else v) for k, v in a.items()}


async def run_nexts(server, trials):
    room, seats = await asyncio.to_thread(room_with_players, server.base, ["A", "B", "C", "D"])
    code = room["code"]
    tv = await Sock(server.base, code, room["host_token"], "tv").open()
    ps = {s["player_id"]: await Sock(server.base, code, s["token"], s["player_id"]).open() for s in seats}
    await tv.send(json.dumps({"t": "act", "id": "start", "d": {"type": "start", "game": "association",
                                                               "options": None}}))
    await tv.wait(lambda: tv.view["room"]["phase"] == "playing")
    done, n = 0, 0
    while done < trials and tv.view["room"]["phase"] == "playing":
        for s in ps.values():
            await s.barrier()
        phase = tv.view["game"]["phase"]
        if phase == "reveal":
            turn = tv.view["game"].get("turn")
            pressers = [s for s in ps.values() if any(a["type"] == "next" for a in s.view["actions"])][:2]
            assert len(pressers) == 2
            res = await both([(p, {"t": "act", "id": f"n{done}{i}", "d": {"type": "next"}})
                              for i, p in enumerate(pressers)])
            await tv.barrier()
            assert res.count("accepted") == 1, res
            assert tv.view["game"].get("turn") != turn or tv.view["room"]["phase"] == "over"
            done += 1
            continue
        for s in ps.values():
            acts = [a for a in s.view["actions"] if a["type"] in ("tell", "submit", "vote")]
            if acts:
                n += 1
                await s.send(json.dumps({"t": "act", "id": f"a{n}", "d": _fill(acts[0])}))
                await s.barrier()
                break
    for s in [tv, *ps.values()]:
        await s.close()
    return done


async def test_two_next_presses_advance_once(server):
    done = 0
    while done < NEXT_TRIALS:
        done += await run_nexts(server, NEXT_TRIALS - done)
    print(f"\nrace next: {done} reveals closed by two presses, each once")
    assert not server_errors(server)


@pytest.mark.long
async def test_races_long(server):
    assert await run_starts(server, 1000) == 0
    done = 0
    while done < 1000:
        done += await run_nexts(server, 1000 - done)
