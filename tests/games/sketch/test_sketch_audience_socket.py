"""A whole sketch game through the real consumers with an audience guessing (issue 22): two
audience passes and an anonymous socket guess the drawings in the guessing rounds; the replies
(`mine`: right with the word, or not it), the TV's `tally` naming who got each board, no
board and no point taken, one count per drawing, the award in the results, and no audience
frame carrying a word the socket did not guess before the end."""
import json

import pytest

from tests.games.audience_socket import Table, answer, frames_text, tally

pytestmark = pytest.mark.django_db(transaction=True)

BOARDS = 6


def game(c):
    return c.view["game"]


def number(g, player, board):
    return [p["id"] for p in g["players"]].index(player) * BOARDS + board


async def guess(c, n, text):
    ref = await c.act({"type": "audience_guess", "board": n, "text": text})
    return await answer(c, ref)


async def test_a_whole_game_with_the_audience_guessing():
    t = await Table().open(3)
    await t.start("sketch", {"round_seconds": 60})
    zoe, max_, anon = t.audience["zoe"], t.audience["max"], t.audience["anon"]
    pids = list(t.players)
    # round 1: everyone puts a word on boards 0 and 1 (and a line on board 0)
    for pid, c in t.players.items():
        for board in (0, 1):
            draw = next(a for a in c.view["actions"] if a["type"] == "draw" and a["board"] == board)
            await c.act(draw)
            await c.drain()
        await c.act({"type": "stroke", "board": 0, "points": [[.1, .1], [.9, .9]], "color": "#000", "width": 4})
    await t.drain()
    await t.caught_up(zoe, *t.players.values())
    words = {(pid, b): c.view["game"]["you"]["boards"][b]["word"]
             for pid, c in t.players.items() for b in (0, 1)}
    cards = {w for c in t.players.values() for card in c.view["game"]["you"]["cards"] for w in card}
    assert zoe.view["actions"] == []                # nothing to guess while they draw
    await t.tick()
    await t.caught_up(zoe)
    g = game(t.tv)
    assert g["phase"] == "guessing" and g["round"] == 2
    acts = sorted(a["board"] for a in zoe.view["actions"] if a["type"] == "audience_guess")
    assert acts == sorted(number(g, pid, b) for pid in pids for b in (0, 1))
    scores = {p["id"]: p["score"] for p in g["players"]}

    a0, b1 = (pids[0], 0), (pids[1], 1)
    n0, n1 = number(g, *a0), number(g, *b1)
    right = await guess(zoe, n0, f"a {words[a0].upper()}!")
    assert right["t"] == "mine" and right["d"]["ballot"] == "r2"
    assert right["d"]["reply"] == {"board": n0, "right": True, "word": words[a0]}
    assert right["d"]["votes"] == {str(n0): True}
    wrong = await guess(max_, n0, "zzz nothing")
    assert wrong["t"] == "mine" and wrong["d"]["reply"] == {"board": n0, "right": False}
    assert wrong["d"]["votes"] == {}
    assert (await guess(anon, n0, words[a0]))["d"]["reply"]["right"] is True
    assert (await guess(zoe, n0, words[a0]))["d"]["code"] == "already_guessed"
    assert (await guess(zoe, n1, "   "))["d"]["code"] in ("empty_guess", "bad_action")
    d = await tally(t.tv, lambda d: d["ballot"] == "r2" and any(
        b["n"] == 2 for b in d["summary"]["boards"]))
    assert d["summary"]["boards"] == [{"player": a0[0], "board": 0, "n": 2, "names": ["Zoe"]}]
    # a player may not use the audience's action; the audience takes no board and no point
    ref = await t.players[pids[1]].act({"type": "audience_guess", "board": n0, "text": words[a0]})
    assert (await answer(t.players[pids[1]], ref))["d"]["code"] == "not_audience"
    await t.drain()
    g = game(t.tv)
    assert {p["id"]: p["score"] for p in g["players"]} == scores
    assert all(not b.get("won_by") for b in g["boards"])
    # a player wins a board: the audience may still guess it
    await t.players[pids[2]].act({"type": "guess", "player": b1[0], "board": 1, "text": words[b1]})
    await t.drain()
    assert (await guess(max_, n1, words[b1]))["d"]["reply"]["right"] is True

    await t.tick()                                 # drawing round 3
    await t.caught_up(zoe)
    assert zoe.view["actions"] == []
    assert (await guess(zoe, n1, words[b1]))["d"]["code"] == "no_ballot"
    await t.tick()                                 # guessing round 4
    assert game(t.tv)["round"] == 4
    assert (await guess(zoe, n0, words[a0]))["t"] == "mine"       # again: counted once
    assert (await guess(zoe, n1, words[b1]))["t"] == "mine"
    await t.tick()
    await t.tick()                                 # guessing round 6
    c0 = (pids[2], 0)
    assert (await guess(max_, number(game(t.tv), *c0), words[c0]))["d"]["reply"]["right"] is True
    assert (await guess(zoe, number(game(t.tv), *c0), "nope"))["d"]["reply"]["right"] is False
    await t.tick()
    room = t.tv.view["room"]
    assert room["phase"] == "over"
    assert room["results"]["audience"] == {"best": [{"name": "Max", "right": 2}, {"name": "Zoe", "right": 2}]}
    assert room["results"]["won"] == {pids[0]: 0, pids[1]: 0, pids[2]: 1}
    # before the end, no audience frame holds a word its socket did not just guess
    got = {"zoe": {words[a0], words[b1]}, "max": {words[b1], words[c0]}, "anon": {words[a0]}}
    every = set(cards)
    def game_part(text):
        """What the game put in a frame: a view's game and its non-room actions (the room's
        own words, such as the action "lock", are no card words); other frames whole."""
        f = json.loads(text)
        if f["t"] != "view":
            return f, text
        acts = [a for a in f["d"]["actions"] if a["type"].startswith("audience_")]
        return f, json.dumps([f["d"]["game"], acts], ensure_ascii=False)

    for name, c in t.audience.items():
        for text in frames_text(c):
            f, part = game_part(text)
            for w in every:
                if f"\"{w}\"" in part:
                    assert f["t"] == "mine" and w in got[name] and f["d"]["reply"].get("word") == w, (name, w, part[:300])
    for text in frames_text(t.tv):
        f, part = game_part(text)
        for w in every:
            assert f"\"{w}\"" not in part, (w, part[:300])
    await t.close()
