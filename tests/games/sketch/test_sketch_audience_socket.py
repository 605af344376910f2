"""A whole sketch game through the real consumers with an audience guessing (issues 22, 31):
two audience passes and an anonymous socket guess the drawings in the guessing rounds; the
replies (`mine`: only "recorded" and the guesses left, right or wrong alike), the TV's
`tally` counting who guesses each board, the round's result after its close (named voters
only), no board and no point taken, one count per drawing, the award in the results, and no
audience frame carrying a word the socket did not type itself before the end. And the
players' own limits (words per guess, wrong guesses per board) over the socket."""
import asyncio
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
    assert right["d"]["reply"] == {"board": n0, "recorded": True, "left": 2}
    assert right["d"]["votes"] == {str(n0): [f"a {words[a0].upper()}!"]}
    wrong = await guess(max_, n0, "zzz nothing")
    assert wrong["t"] == "mine" and wrong["d"]["reply"] == {"board": n0, "recorded": True, "left": 2}
    assert wrong["d"]["seq"] is not None            # a wrong guess is counted like a right one
    assert (await guess(anon, n0, words[a0]))["d"]["reply"] == {"board": n0, "recorded": True, "left": 2}
    assert (await guess(zoe, n0, f"A {words[a0]}"))["d"]["code"] == "repeated_guess"
    assert (await guess(zoe, n0, "one two three four"))["d"]["code"] == "too_many_words"
    assert (await guess(zoe, n0, "guess two"))["d"]["reply"]["left"] == 1
    assert (await guess(zoe, n0, "guess three"))["d"]["reply"]["left"] == 0
    assert (await guess(zoe, n0, "guess four"))["d"]["code"] == "out_of_guesses"
    assert (await guess(zoe, n1, "   "))["d"]["code"] in ("empty_guess", "bad_action")
    d = await tally(t.tv, lambda d: d["ballot"] == "r2" and any(
        b["n"] == 3 for b in d["summary"]["boards"]))
    assert d["summary"]["boards"] == [{"player": a0[0], "board": 0, "n": 3}]   # guessing, not got
    # a player may not use the audience's action; the audience takes no board and no point
    ref = await t.players[pids[1]].act({"type": "audience_guess", "board": n0, "text": words[a0]})
    assert (await answer(t.players[pids[1]], ref))["d"]["code"] == "not_audience"
    await t.drain()
    g = game(t.tv)
    assert {p["id"]: p["score"] for p in g["players"]} == scores
    assert all(not b.get("won_by") for b in g["boards"])
    assert "audience" not in g
    # a player's own limits: three words a guess, five wrong guesses a board and round
    guesser = t.players[pids[2]]
    ref = await guesser.act({"type": "guess", "player": a0[0], "board": 0, "text": f"sun moon {words[a0]} star"})
    assert (await answer(guesser, ref))["d"]["code"] == "too_many_words"
    for k in range(5):
        await guesser.act({"type": "guess", "player": a0[0], "board": 0, "text": f"nope {k}"})
        await guesser.until(lambda v, k=k: any(x["left"] == 4 - k for x in v["game"]["you"]["left"]))
    assert not any(a["type"] == "guess" and a["player"] == a0[0] and a["board"] == 0
                   for a in guesser.view["actions"])
    ref = await guesser.act({"type": "guess", "player": a0[0], "board": 0, "text": words[a0]})
    assert (await answer(guesser, ref))["d"]["code"] == "out_of_guesses"
    # a player wins a board: the audience may still guess it
    await t.players[pids[2]].act({"type": "guess", "player": b1[0], "board": 1, "text": words[b1]})
    await t.drain()
    assert (await guess(max_, n1, words[b1]))["d"]["reply"]["recorded"] is True

    await t.tick()                                 # drawing round 3: round 2's result
    await t.caught_up(zoe, max_, anon)
    assert zoe.view["actions"] == []
    # who got it shows on the drawings out of play (b1, won); a0 can still be guessed
    assert game(t.tv)["audience"] == game(anon)["audience"] == {"ballot": "r2", "boards": [
        {"player": b1[0], "board": 1, "n": 1, "names": ["Max"]}]}
    assert (await guess(zoe, n1, words[b1]))["d"]["code"] == "no_ballot"
    await t.tick()                                 # guessing round 4
    assert game(t.tv)["round"] == 4
    assert (await guess(zoe, n0, words[a0]))["t"] == "mine"       # again: counted once
    assert (await guess(zoe, n1, words[b1]))["t"] == "mine"
    await t.tick()
    await t.tick()                                 # guessing round 6
    c0 = (pids[2], 0)
    assert (await guess(max_, number(game(t.tv), *c0), words[c0]))["d"]["reply"]["recorded"] is True
    assert (await guess(zoe, number(game(t.tv), *c0), "nope"))["d"]["reply"]["recorded"] is True
    await t.tick()
    room = t.tv.view["room"]
    assert room["phase"] == "over"
    assert room["results"]["audience"] == {"best": [{"name": "Max", "right": 2}, {"name": "Zoe", "right": 2}]}
    assert room["results"]["won"] == {pids[0]: 0, pids[1]: 0, pids[2]: 1}
    # before the end, no audience frame holds a word its socket did not type itself
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
                    assert f["t"] == "mine" and w in got[name] and f"\"{w}\"" not in json.dumps(
                        f["d"]["reply"], ensure_ascii=False), (name, w, part[:300])
    for text in frames_text(t.tv):
        f, part = game_part(text)
        for w in every:
            assert f"\"{w}\"" not in part, (w, part[:300])
    await t.close()


def _from(client, address):
    """The client's socket comes from `address` (the ASGI scope's peer)."""
    client.comm.scope["client"] = (address, 50000)
    return client


async def test_a_socket_beside_a_playing_seat_is_not_the_audience():
    """Issue 31: a seated player's second tab (no token, or an audience pass) from the same
    address cannot guess along; another address can, and a loopback address names no one
    (a proxy without TRUST_PROXY, the server's own browser)."""
    from channels.db import database_sync_to_async
    from tests.games.audience_socket import audience_pass
    from tests.rooms.helpers import make_room
    from tests.rooms.wsclient import Client

    code, host, seats = await database_sync_to_async(make_room)(3)
    tv = Client(code, host)
    players = [_from(Client(code, seats[0].token), "192.168.1.20"),
               _from(Client(code, seats[1].token), "127.0.0.1"), Client(code, seats[2].token)]
    token = await database_sync_to_async(audience_pass)(code, "Sly")
    twin = _from(Client(code), "192.168.1.20")
    twin_pass = _from(Client(code, token), "192.168.1.20")
    other = _from(Client(code), "192.168.1.21")
    local = _from(Client(code), "127.0.0.1")
    everyone = [tv, *players, twin, twin_pass, other, local]
    for c in everyone:
        assert await c.open() is True
    await tv.act({"type": "start", "game": "sketch", "options": {"round_seconds": 60}})
    for c in players:
        await c.until(lambda v: v["room"]["phase"] == "playing")
        draw = next(a for a in c.view["actions"] if a["type"] == "draw")
        await c.act(draw)
    for c in everyone:
        await c.drain()
    t = Table()
    t.code, t.tv, t.players, t.audience = code, tv, {}, {}
    await t.tick()                                  # the first guessing round
    await other.until(lambda v: any(a["type"] == "audience_guess" for a in v["actions"]))
    n = next(a["board"] for a in other.view["actions"] if a["type"] == "audience_guess")
    assert (await guess(twin, n, "cat"))["d"]["code"] == "not_audience"
    assert (await guess(twin_pass, n, "cat"))["d"]["code"] == "not_audience"
    assert (await guess(other, n, "cat"))["d"]["reply"]["recorded"] is True
    assert (await guess(local, n, "cat"))["d"]["reply"]["recorded"] is True
    # the player leaves: the address is free again
    await players[0].close()
    await asyncio.sleep(0.05)
    assert (await guess(twin, n, "dog"))["d"]["reply"]["recorded"] is True
    for c in everyone:
        if c is not players[0]:
            await c.close()
