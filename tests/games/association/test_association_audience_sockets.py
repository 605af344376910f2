"""The audience plays a whole association game through the real consumers (issue 22): an
audience pass socket and an anonymous socket vote in every vote phase (the pass changes its
mind once a turn), each gets its `mine`, the TV gets a `tally` that counts voters and never
names a card, the reveal shows the audience's pick, and the results name the favourite.
The anonymous socket is a count apart: never in a card's votes, the pick or the favourite.
Scoring is the players' alone."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from partyhub.rooms.core import schema
from partyhub.rooms.domain import roomactions
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client, drain_all

pytestmark = pytest.mark.django_db(transaction=True)

ROOM_ACTIONS = frozenset(schema.SCHEMA)   # the room's own actions: the server's list, never a copy


def audience_pass(code, name):
    from django.test import Client as HttpClient
    r = HttpClient().post(f"/api/rooms/{code}/audience", {"name": name},
                          content_type="application/json")
    assert r.status_code == 201, r.content
    return r.json()


async def pump(clients, seconds=0.05):
    """Take in every frame that is waiting on any socket (until none gets one for `seconds`)."""
    await drain_all(clients, seconds)


async def wait_for(clients, pred, what, seconds=5.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not pred():
        if loop.time() > end:
            raise AssertionError(f"waited in vain for {what}")
        await pump(clients)


def frames_of(c, kind):
    return [f for f in c.frames if f.get("t") == kind]


def game_actions(c):
    return [a for a in (c.view or {}).get("actions", []) if a["type"] not in ROOM_ACTIONS]


async def test_the_audience_votes_through_a_whole_game():
    code, host, seats = await database_sync_to_async(make_room)(3)
    ticket = await database_sync_to_async(audience_pass)(code, "Zoe")
    tv, fan, anon = Client(code, host), Client(code, ticket["token"]), Client(code)
    players = {s.player_id: Client(code, s.token) for s in seats}
    everyone = [tv, fan, anon, *players.values()]
    for c in everyone:
        assert await c.open() is True
    await tv.act({"type": "start", "game": "association", "options": {"target_score": 12}})
    await wait_for(everyone, lambda: tv.view["room"]["phase"] == "playing", "the start")

    expected_total = {pid: 0 for pid in players}
    turns_voted = 0
    for _ in range(400):
        await pump(everyone)
        g = tv.view["game"]
        if tv.view["room"]["phase"] == "over":
            break
        if g["phase"] == "vote" and not any(f["d"]["ballot"] == f"t{g['turn']}"
                                            for f in frames_of(anon, "mine")):
            ballot = f"t{g['turn']}"
            await wait_for(everyone, lambda: game_actions(fan) and game_actions(anon)
                           and fan.view["game"]["phase"] == "vote", "the audience's actions")
            table = g["table"]
            assert [a["card"] for a in game_actions(fan)] == table
            assert [a["card"] for a in game_actions(anon)] == table
            assert all(a["type"] == "audience_vote" for a in game_actions(fan) + game_actions(anon))
            for p in players.values():
                assert all(a["type"] != "audience_vote" for a in game_actions(p))
            # the pass votes for one card, then changes its mind; the anonymous socket votes once
            first, final, other = table[0], table[-1], table[1]
            await fan.act({"type": "audience_vote", "card": first})
            await wait_for(everyone, lambda: any(f["d"]["ballot"] == ballot and f["d"]["votes"] == {"card": first}
                                                 for f in frames_of(fan, "mine")), "the pass's first mine")
            await fan.act({"type": "audience_vote", "card": final})
            await anon.act({"type": "audience_vote", "card": other})
            await wait_for(everyone, lambda: any(f["d"]["ballot"] == ballot and f["d"]["votes"] == {"card": final}
                                                 for f in frames_of(fan, "mine"))
                           and any(f["d"]["ballot"] == ballot and f["d"]["votes"] == {"card": other}
                                   for f in frames_of(anon, "mine")), "both mines")
            # the TV's live tally: two voters (the pass counted once), one of them anonymous
            # (counted apart: the summary's `voted` is the named ones), and no card named
            await wait_for(everyone, lambda: any(f["d"]["ballot"] == ballot and f["d"]["voters"] == 2
                                                 and f["d"]["anonymous"] == 1 and f["d"]["summary"] == {"voted": 1}
                                                 for f in frames_of(tv, "tally")), "the TV's tally")
            for f in frames_of(tv, "tally"):
                assert not any(json.dumps(card) in json.dumps(f) for card in table), f
            # players vote now; the reveal shows the audience's pick
            want = {final: 1}      # the anonymous vote for `other` is only counted
            turn = g["turn"]
            for _ in range(20):
                await pump(everyone)
                g = tv.view["game"]
                if g["phase"] != "vote":
                    break
                for pid, p in players.items():
                    acts = [a for a in game_actions(p) if a["type"] == "vote"]
                    if acts and p.view["game"]["phase"] == "vote":
                        await p.act(acts[0])
            await wait_for(everyone, lambda: tv.view["game"]["phase"] != "vote", "the reveal")
            last = tv.view["game"]["last"]
            assert last["turn"] == turn
            top = max(want.values())
            assert last["audience"] == {
                "votes": want, "pick": [c["card"] for c in last["cards"] if want.get(c["card"]) == top],
                "voters": 1, "found": want.get(last["story_card"], 0), "anonymous": 1}
            # every viewer sees the same public result; scoring ignores the audience
            await wait_for(everyone, lambda: all(c.view["game"]["last"] and c.view["game"]["last"]["turn"] == turn
                                                 for c in everyone), "everyone's reveal")
            for c in everyone:
                assert c.view["game"]["last"]["audience"] == last["audience"]
            owner = {c["card"]: c["owner"] for c in last["cards"]}
            for card, n in want.items():
                expected_total[owner[card]] += n
            turns_voted += 1
            continue
        # the players' own moves: the first listed action of whoever may act
        moved = False
        for pid, p in players.items():
            acts = game_actions(p)
            if acts and p.view["game"]["phase"] == g["phase"]:
                a = dict(acts[0])
                if a["type"] == "tell":
                    a["clue"] = "a long way home"
                if a["type"] == "next" and moved:
                    continue
                await p.act(a)
                moved = True
        if not moved:
            await pump(everyone, 0.2)
    else:
        raise AssertionError("the game did not end")

    await wait_for(everyone, lambda: tv.view["room"]["phase"] == "over" and tv.view["room"].get("results"),
                   "the results")
    results = tv.view["room"]["results"]
    assert turns_voted >= 1
    assert results["audience"]["votes"] == expected_total
    assert results["audience"]["anonymous"] == turns_voted
    top = max(expected_total.values())
    assert results["audience"]["favourite"] == [p for p in players if expected_total[p] == top]
    # the recap keeps each turn's audience result; the scores are the players' own
    assert sum(1 for r in results["recap"] if r.get("audience")) == turns_voted
    assert set(results["scores"]) == set(players)
    for c in everyone:
        await c.close()
