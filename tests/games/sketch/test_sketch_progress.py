"""The drawing round's live progress (issue 27): the TV learns each board's ink level and who
has finished, throttled, and never a stroke (rules/progress.py, partyhub/rooms/relay/progress.py)."""
import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async

from games.sketch.rules.game import GAME
from games.sketch.rules.progress import INK_LEVELS, ink, progress
from partyhub.gamekit import TABLE
from partyhub.rooms.relay import progress as progress_module
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client

OPTIONS = {"round_seconds": 600, "tie_window_ms": 1000, "difficulty": "easy", "language": "en", "words": ""}


def _stroke(length_boards, colour="#000"):
    """A horizontal zigzag of about `length_boards` board widths, stored form."""
    p, x, y = [], 100, 100
    for i in range(int(length_boards * 1.25) + 1):
        p += [x, y]
        x = 900 if x == 100 else 100
        y = min(900, y + 5)
    return {"c": colour, "w": 4, "p": p}


def test_ink_is_coarse_and_erasing_draws_none():
    assert ink([]) == 0
    assert ink([{"c": "#000", "w": 4, "p": [500, 500]}]) == 1        # a dot
    assert ink([_stroke(1)]) == 1
    assert ink([_stroke(3)]) == 2
    assert ink([_stroke(7)]) == 3
    assert ink([_stroke(12)]) == INK_LEVELS
    assert ink([_stroke(400)]) == INK_LEVELS
    assert ink([_stroke(30, "#fff")]) == 0          # the eraser alone is no ink
    # a small change of the drawing does not move the level: nothing to read back
    assert ink([_stroke(3)]) == ink([_stroke(3), {"c": "#e4572e", "w": 8, "p": [1, 1, 200, 200]}])


def test_progress_names_levels_and_who_has_finished_only_while_drawing():
    s = GAME.setup(["a", "b", "c"], OPTIONS, 1)
    s = GAME.begin(s, 0)
    words = [w for card in s["cards"]["a"] for w in card]
    for i in range(6):
        s = GAME.apply(s, "a", {"type": "draw", "board": i, "word": words[i]}, 1).state
        s = GAME.apply(s, "a", {"type": "stroke", "board": i, "points": [[0.1, 0.1], [0.9, 0.9]],
                                "color": "#000", "width": 4}, 1).state
    s = GAME.apply(s, "b", {"type": "draw", "board": 2, "word": s["cards"]["b"][0][0]}, 1).state
    got = progress(s)
    assert got == {"round": 1, "players": [
        {"id": "a", "ink": [1] * 6, "done": True},
        {"id": "b", "ink": [0] * 6, "done": False},
        {"id": "c", "ink": [0] * 6, "done": False}]}
    for viewer in (TABLE, "b"):
        assert GAME.view(s, viewer)["progress"] == got
    text = json.dumps(got)
    assert '"p"' not in text and "points" not in text and not any(w in text for w in words)
    s = GAME.on_deadline(s, s["deadline"]).state        # the guessing round: drawings on show
    assert progress(s) is None and "progress" not in GAME.view(s, TABLE)


pytestmark_db = pytest.mark.django_db(transaction=True)


def _zigzag(k):
    return [[round(0.1 + 0.8 * (i % 2), 3), round(0.05 + 0.01 * (k % 80) + 0.0005 * i, 3)] for i in range(20)]


async def _texts(client, seconds):
    """The raw frames a socket receives within `seconds`."""
    out, end = [], time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if await client.comm.receive_nothing(timeout=min(0.05, left)):
            continue
        msg = await client.comm.receive_output(1)
        if msg["type"] == "websocket.send":
            out.append(msg["text"])
            client.held.take(json.loads(msg["text"]))
    return out


def _progress_items(texts):
    items = []
    for text in texts:
        f = json.loads(text)
        if f["t"] == "stream":
            items += [i for i in f["d"]["items"] if i["t"] == "progress"]
    return items


@pytestmark_db
async def test_the_tv_hears_ink_and_finishing_throttled_and_never_a_stroke():
    code, host, seats = await database_sync_to_async(make_room)(3)
    tv, audience = Client(code, host), Client(code)
    players = [Client(code, s.token) for s in seats]
    for c in [tv, audience, *players]:
        assert await c.open() is True
    await tv.act({"type": "start", "game": "sketch", "options": {"round_seconds": 600}})
    for p in players:
        await p.until(lambda v: (v["game"] or {}).get("phase") == "drawing")
    await tv.until(lambda v: (v["game"] or {}).get("phase") == "drawing")
    assert tv.view["game"]["progress"]["players"][0]["ink"] == [0] * 6
    for c in [tv, audience, *players]:
        await c.drain()
    ann, bob = players[0], players[1]
    # Ann: a word on every board and a line on each (she has finished); Bob: one long drawing
    for b in range(6):
        word = next(a["word"] for a in ann.view["actions"] if a["type"] == "draw" and a["board"] == b)
        await ann.act({"type": "draw", "board": b, "word": word})
        await ann.until(lambda v, b=b: v["game"]["you"]["boards"][b]["word"] is not None)
        await ann.act({"type": "stroke", "board": b, "points": _zigzag(b)[:2], "color": "#000", "width": 4})
    word = next(a["word"] for a in bob.view["actions"] if a["type"] == "draw" and a["board"] == 0)
    await bob.act({"type": "draw", "board": 0, "word": word})
    await bob.until(lambda v: v["game"]["you"]["boards"][0]["word"] is not None)
    tv_texts, aud_texts = [], []
    started = time.monotonic()
    batches = 60
    for k in range(batches):        # ~2.4 s of strokes, 25 batches a second
        await bob.act({"type": "stroke", "board": 0, "points": _zigzag(k), "color": "#000",
                       "width": 4, "join": k > 0})
        tv_texts += await _texts(tv, 0.04)
        aud_texts += await _texts(audience, 0.0)
    tv_texts += await _texts(tv, progress_module.PROGRESS_SECONDS + 0.6)
    aud_texts += await _texts(audience, 0.1)
    spent = time.monotonic() - started
    items = _progress_items(tv_texts)
    # throttled: one frame a PROGRESS_SECONDS at most (and one more for the first), never one per batch
    assert 2 <= len(items) <= spent / progress_module.PROGRESS_SECONDS + 2 < batches / 4
    last = {p["id"]: p for p in items[-1]["d"]["players"]}
    assert last[seats[0].player_id] == {"id": seats[0].player_id, "ink": [1] * 6, "done": True}
    assert last[seats[1].player_id]["ink"][0] == INK_LEVELS and not last[seats[1].player_id]["done"]
    assert last[seats[2].player_id] == {"id": seats[2].player_id, "ink": [0] * 6, "done": False}
    levels = [{p["id"]: p["ink"][0] for p in i["d"]["players"]}[seats[1].player_id] for i in items]
    assert levels == sorted(levels) and len(set(levels)) >= 2       # the bar grows as Bob draws
    # only the aggregates: no stroke item, no coordinates, to the TV or the audience
    for text in tv_texts + aud_texts:
        f = json.loads(text)
        assert '"points"' not in text and '"p":' not in text, text[:200]
        if f["t"] == "stream":
            assert {i["t"] for i in f["d"]["items"]} <= {"progress"}
            for i in f["d"]["items"]:
                assert set(i["d"]) == {"round", "players"}
                assert all(set(p) == {"id", "ink", "done"} for p in i["d"]["players"])
    assert not _progress_items(aud_texts)       # the TV's alone: audience phones do not show it
    for c in [tv, audience, *players]:
        await c.close()
    await asyncio.sleep(0)
