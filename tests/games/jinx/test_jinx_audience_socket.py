"""A whole jinx game through the real consumers with an audience predicting (issue 22): two
audience passes and an anonymous socket predict in every race; the answers (`mine`), the TV's
`tally`, the fold at the reveal (`last.audience`), the refusals, the award in the results, and
no audience frame carrying the target before the reveal. The anonymous socket, right every
time, is a count apart: never in the turn's right ones nor the award."""
import json

import pytest

from tests.games.audience_socket import Table, answer, frames_text, tally
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)


def game(c):
    return c.view["game"]


async def test_a_whole_game_with_the_audience_predicting():
    t = await Table().open(6)
    await t.start("jinx", {"first_player": "first_seat", "next_turn_seconds": 1})
    zoe, max_, anon = t.audience["zoe"], t.audience["max"], t.audience["anon"]
    turns = found = 0
    targets = []
    for _ in range(400):
        await t.drain()
        room = t.tv.view["room"]
        if room["phase"] == "over":
            break
        g = game(t.tv)
        active = t.players[g["active"]]
        await t.caught_up(zoe, anon, active)
        if g["phase"] == "clue":
            assert zoe.view["actions"] == [] and game(zoe).get("target") is None
            await active.act({"type": "clue", "text": "maze"})
            await t.tv.until(lambda v: v["game"]["phase"] == "race", timeout=5)
            continue
        if g["phase"] == "reveal":
            L = g["last"]
            assert L["audience"] == {"predicted": 2, "right": 1, "anonymous": 1}, L
            # after the race the ballot is closed
            ref = await zoe.act({"type": "audience_predict", "slot": 0})
            assert (await answer(zoe, ref))["d"]["code"] in ("no_ballot", "no_game_running")   # the timer may be quicker
            await t.tick()
            await t.tv.until(lambda v: v["room"]["phase"] == "over" or v["game"]["phase"] == "clue", timeout=5)
            continue
        assert g["phase"] == "race"
        target = game(active)["target"]
        targets.append(target)
        turns += 1
        ballot = f"t{g['turn']}"
        acts = [a for a in zoe.view["actions"] if a["type"] == "audience_predict"]
        assert sorted(a["slot"] for a in acts) == list(range(9))
        assert anon.view["actions"] == zoe.view["actions"]
        wrong = next(s for s in range(9) if s != target)
        refs = {}
        for c, slot in ((zoe, target), (max_, wrong), (anon, target)):
            refs[id(c)] = (await c.act({"type": "audience_predict", "slot": slot}), slot)
        for c in (zoe, max_, anon):
            ref, slot = refs[id(c)]
            mine = await answer(c, ref)
            assert mine["t"] == "mine", mine
            assert mine["d"]["ballot"] == ballot and mine["d"]["votes"] == {"slot": slot}
            assert mine["d"]["reply"] == {"slot": slot}        # never right or wrong
        # final: a second prediction is refused
        ref = await zoe.act({"type": "audience_predict", "slot": wrong})
        assert (await answer(zoe, ref))["d"]["code"] == "already_predicted"
        d = await tally(t.tv, lambda d: d["ballot"] == ballot and d["voters"] == 3)
        assert d["summary"] == {"predicted": 2} and d["anonymous"] == 1
        # a seated player is no audience
        guesser = next(p for p in g["guessers"])
        ref = await t.players[guesser].act({"type": "audience_predict", "slot": target})
        assert (await answer(t.players[guesser], ref))["d"]["code"] == "not_audience"
        # the race: every other turn the last guesser finds it, else everyone misses
        free = [s for s in range(9) if s != target]
        for i, p in enumerate(g["guessers"]):
            last = i == len(g["guessers"]) - 1
            slot = target if last and turns % 2 else free[i]
            await t.players[p].act({"type": "pick", "slot": slot})
            await t.players[p].drain()
        found += turns % 2
        await t.tv.until(lambda v: v["game"]["phase"] == "reveal", timeout=5)
    assert t.tv.view["room"]["phase"] == "over", "the game did not end"
    results = t.tv.view["room"]["results"]
    assert results["audience"] == {"best": [{"name": "Zoe", "right": turns}], "rounds": turns,
                                   "anonymous": turns}
    assert turns >= 5 and found >= 2
    # nothing an audience socket got before the end names a target of a running turn
    for c in (zoe, max_, anon):
        for text in frames_text(c):
            f = json.loads(text)
            if f["t"] == "view" and f["d"]["game"]:
                assert "target" not in f["d"]["game"], text[:300]
            if f["t"] == "mine":
                assert set(f["d"]["reply"]) <= {"slot"}
    for text in frames_text(t.tv):
        f = json.loads(text)
        if f["t"] == "tally":
            assert set(f["d"]["summary"]) == {"predicted"}
    await t.close()


async def test_a_reconnected_pass_gets_its_prediction_back():
    t = await Table().open(3)
    await t.start("jinx", {"first_player": "first_seat"})
    active = t.players[game(t.tv)["active"]]
    await active.act({"type": "clue", "text": ""})
    await t.drain()
    zoe = t.audience["zoe"]
    ref = await zoe.act({"type": "audience_predict", "slot": 5})
    assert (await answer(zoe, ref))["t"] == "mine"
    await zoe.close()
    again = Client(t.code, t.tokens["zoe"])
    assert await again.open() is True
    await again.drain()
    mine = [f for f in again.frames if f["t"] == "mine"]
    assert mine and mine[-1]["d"]["votes"] == {"slot": 5} and mine[-1]["d"]["ref"] is None
    t.audience["zoe"] = again
    await t.close()

