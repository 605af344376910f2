"""Drawings go to each connection once (partyhub/blobs.py): through real consumers, a guess in
a guessing round sends every socket a small view that names the drawings it already has, and
a reconnected socket gets every drawing again before its first view."""
import json

import pytest
from channels.db import database_sync_to_async

from games.sketch.rules.constants import CARDS, WORDS_PER_CARD
from games.sketch.rules.words import builtin
from partyhub.rooms.access import selectors
from partyhub.rooms.live import publish as publish_module
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client

pytestmark = pytest.mark.django_db(transaction=True)
PLAYERS = 8
GUESS_BUDGET = 8 * 1024         # issue 17: bytes a socket may receive for one guess
# The drawer's heaviest view holds its cards' words: dealt at random from the built-in list
# (3 to 15 letters), they made it 8,117 to 8,217 bytes from run to run, so the budget failed
# one run in many (CI, 2026-12-02). The room deals 80 words of 6 letters, the list's middle,
# and the view is the same size every run.
WORDS = "\n".join([w for w in builtin("en", "easy") if len(w) == 6][:PLAYERS * CARDS * WORDS_PER_CARD])


def _line(k, seed, n=200):
    """Batch k of a zigzag of its own for each `seed` (no two boards hold the same drawing)."""
    return [[round(0.1 + 0.8 * i / n, 3), round(0.1 + 0.6 * ((i * (k + 3)) % 17) / 17 + 0.005 * seed, 3)]
            for i in range(n)]


async def _frames_until(client, version):
    """Every frame the socket receives up to (and with) the view of `version`."""
    out = []
    while True:
        out.append(await client.recv())
        if out[-1]["t"] == "view" and out[-1]["v"] >= version:
            return out


PROGRESS = '{"t":"stream","d":{"items":[{"t":"progress"'


async def _raw_until(client, version):
    """The texts the socket receives up to (and with) the view of `version`, but the TV's
    drawing-round progress (issue 27: it may come up to a second after the last stroke)."""
    texts = []
    while True:
        msg = await client.comm.receive_output(3)
        if msg["text"].startswith(PROGRESS):
            continue
        texts.append(msg["text"])
        frame = client.held.take(json.loads(msg["text"]))
        if frame["t"] == "view":
            client.version, client.view = frame["v"], frame["d"]
            if frame["v"] >= version:
                return texts


async def _guessing_room(boards_each=2):
    """A sketch room of 8 players in its first guessing round: 8 x boards_each drawn boards,
    each one line of 1000 points (5 joined batches); the TV, every player, the audience."""
    code, host, seats = await database_sync_to_async(make_room)(PLAYERS)
    tv = Client(code, host)
    players = [Client(code, s.token) for s in seats]
    audience = Client(code)
    for c in [tv, *players, audience]:
        assert await c.open() is True
    await tv.act({"type": "start", "game": "sketch", "options": {"round_seconds": 600, "words": WORDS}})
    for p in players:
        await p.until(lambda v: (v["game"] or {}).get("phase") == "drawing")
    for n, p in enumerate(players):
        for b in range(boards_each):
            word = next(a["word"] for a in p.view["actions"] if a["type"] == "draw" and a["board"] == b)
            await p.act({"type": "draw", "board": b, "word": word})
            await p.until(lambda v, b=b: v["game"]["you"]["boards"][b]["word"] is not None)
            for k in range(5):
                await p.act({"type": "stroke", "board": b, "points": _line(k, n * 6 + b), "color": "#000",
                             "width": 4, "join": k > 0})
    for c in [tv, *players, audience]:
        await c.drain()
    room = await database_sync_to_async(selectors.room_get)(code)
    change = await database_sync_to_async(services.room_tick)(code, room.deadline_at)
    await publish_module.publish(change)
    return code, tv, players, audience, seats, change.room.version, host


async def _close(clients):
    for c in clients:
        await c.close()


async def test_a_guess_sends_each_socket_a_small_view_and_no_drawing_it_has():
    code, tv, players, audience, seats, v, _ = await _guessing_room()
    everyone = [tv, *players, audience]
    for c in everyone:        # the guessing round's first view: the drawings it lacks came first
        had = set(c.held.have)      # those of its last view (a player's own boards)
        texts = await _raw_until(c, v)
        assert len(texts) == 2 and texts[0].startswith('{"t":"blobs","v":%d,' % v)
        sent, refs = set(json.loads(texts[0])["d"]), set(c.held.have)
        assert sent == refs - had and len(refs) == 16
        assert '"p":[' not in texts[1] and '{"$blob":"' in texts[1]
    drawn = [b for b in tv.view["game"]["boards"] if b["status"] != "blank"]
    assert len(drawn) == 16 and all(len(b["strokes"][0]["p"]) == 2000 for b in drawn)
    guesser, owner = players[0], seats[1]
    room = await database_sync_to_async(selectors.room_get)(code)
    word = room.state["boards"][owner.player_id][0]["word"]
    # the drawer's heaviest view: 8 unanswered wrong guesses listed (`asked`), 16 close/far
    for k in range(8):      # by two guessers: five wrong guesses each a board (issue 31)
        await players[2 + k // 5].act({"type": "guess", "player": owner.player_id, "board": 0, "text": f"miss {k}"})
        v += 1
        for c in everyone:
            await _raw_until(c, v)
    for text in ("not-the-word", word):
        await guesser.act({"type": "guess", "player": owner.player_id, "board": 0, "text": text})
        v += 1
        for c in everyone:
            texts = await _raw_until(c, v)
            assert len(texts) == 1 and texts[0].startswith('{"t":"view"'), "no drawing again"
            size = len(texts[0].encode("utf-8"))
            assert size <= GUESS_BUDGET, size
            assert '"p":[' not in texts[0]
        if text != word:
            asked = players[1].view["game"]["you"]["asked"]
            assert len(asked) == 8 and asked[-1]["text"] == text
            assert len([a for a in players[1].view["actions"] if a["type"] == "feedback"]) == 16
        # the resolved views still hold every drawing
        shown = {(b["player"], b["board"]): b.get("strokes") for b in tv.view["game"]["boards"]}
        assert all(shown[(b["player"], b["board"])] == b["strokes"] for b in drawn)
    assert tv.view["game"]["last"]["type"] == "board_won"
    assert all(not c.held.missing for c in everyone)
    await _close(everyone)


async def test_a_reconnected_socket_gets_every_drawing_again():
    code, tv, players, audience, seats, v, host = await _guessing_room(boards_each=1)
    for c in [tv, *players, audience]:
        await c.drain()
    room = await database_sync_to_async(selectors.room_get)(code)
    expected = {(p, i): b["strokes"] for p, bs in room.state["boards"].items()
                for i, b in enumerate(bs) if b["word"] is not None}
    await players[2].close()
    again = Client(code, seats[2].token)
    assert await again.open() is True
    kinds = [f["t"] for f in again.frames]
    assert kinds[:2] == ["blobs", "view"]
    got = {(b["player"], b["board"]): b["strokes"] for b in again.view["game"]["boards"]
           if b["status"] != "blank"}
    assert got == expected and len(got) == PLAYERS
    own = again.view["game"]["you"]["boards"][0]["strokes"]
    assert own == expected[(seats[2].player_id, 0)] and not again.held.missing
    # a second TV socket (a reload in another tab) is a connection of its own: it gets them
    # all, while the first TV socket, which has them, gets only the small view
    tv2 = Client(code, host)
    assert await tv2.open() is True
    assert tv2.frames[0]["t"] == "blobs" and len(tv2.frames[0]["d"]) == PLAYERS
    for c in (tv, tv2):
        await c.drain()
    await players[0].act({"type": "guess", "player": seats[1].player_id, "board": 0, "text": "nope"})
    for c in (tv, tv2):
        fs = await _frames_until(c, c.version + 1)
        assert [f["t"] for f in fs] == ["view"]
        assert len(c.view["game"]["boards"][0]["strokes"][0]["p"]) == 2000
    await _close([tv, tv2, again, audience, *players[:2], *players[3:]])
