"""Recorded frames of whole sketch games through real consumers: no frame shows a viewer a
word, a drawing or a wrong guess it must not see at that version.

The random players draw (stream items through the socket), choose words, guess (sometimes the
right word, read from the latest state, otherwise a unique wrong text) and answer close/far.
Sketch players always have a `draw` to choose in a drawing round, so a watcher fires each
round's deadline every ROUND_WALL seconds (as the timekeeper would).
"""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms import publish as publish_module
from partyhub.rooms import services
from partyhub.rooms.models import Room
from tests.harness.recorded import play_recorded

pytestmark = pytest.mark.django_db(transaction=True)
ROUND_WALL = 1.6
LATEST = {}


def _word_forms(word):
    """Where a word can stand in a frame: a board's or a win's "word", a card or free-word
    list item, a guess "text" (not a bare quoted string: "lock" is also a room action type)."""
    q = json.dumps(word, ensure_ascii=False)
    return [f'"word":{q}', f"[{q}", f",{q}", f'"text":{q}']


def _num(v):
    return json.dumps(v / 1000)


def sketch_secrets(state, viewer):
    """The strings `viewer` must not see in `state`."""
    out = []
    over = state["phase"] == "over"
    where = {}
    for owner, boards in state["boards"].items():
        for b in boards:
            if b["word"] is not None:
                where[b["word"]] = (owner, b)
    for owner, cards in state["cards"].items():
        if owner == viewer:
            continue
        for word in (w for card in cards for w in card):
            on = where.get(word)
            if on and on[0] == owner and (over or viewer in on[1]["won_by"]):
                continue
            out.extend(_word_forms(word))
    if state["phase"] == "drawing":
        for owner, boards in state["boards"].items():
            if owner == viewer:
                continue
            for b in boards:
                for s in b["strokes"]:
                    p = s["p"]
                    out.append('"p":[' + ",".join(map(str, p[:6])))
                    out.append(f'"points":[[{_num(p[0])},{_num(p[1])}]')
    for g in state["guesses"]:
        if not g["correct"] and viewer not in (g["player"], g["owner"]):
            out.append(json.dumps(g["text"], ensure_ascii=False))
    return out


def choose(view, acts, rnd):
    me = view["you"]["id"]
    game = view["game"]
    drawable = game["you"]["drawable"] if game and game.get("you") else []
    if drawable and rnd.random() < 0.45:
        pts = [[round(rnd.random(), 3), round(rnd.random(), 3)] for _ in range(rnd.randint(2, 6))]
        return {"type": "stroke", "board": rnd.choice(drawable), "points": pts,
                "color": rnd.choice(["#000", "#e4572e", "#fff"]), "width": rnd.choice([2, 4, 8]),
                "join": rnd.random() < 0.3}
    if drawable and rnd.random() < 0.05:
        return {"type": rnd.choice(["undo", "clear"]), "board": rnd.choice(drawable)}
    feedback = [a for a in acts if a["type"] == "feedback"]
    if feedback and rnd.random() < 0.5:
        return rnd.choice(feedback)
    pick = rnd.choice(acts)
    if pick["type"] == "guess":
        state = LATEST.get("state")
        word = state["boards"][pick["player"]][pick["board"]]["word"] if state else None
        text = word if word and rnd.random() < 0.3 else f"zq{rnd.randrange(10 ** 9)}x"
        return {**pick, "text": text}
    return pick


async def _watch(stop):
    """Fire the running room's deadline every ROUND_WALL seconds until the game is over."""
    while not stop.is_set():
        await asyncio.sleep(ROUND_WALL)
        room = await database_sync_to_async(lambda: Room.objects.order_by("-id").first())()
        if room is None or room.phase != "playing" or room.deadline_at is None:
            continue
        change = await database_sync_to_async(services.room_tick)(room.code, room.deadline_at)
        if change is not None:
            await publish_module.publish(change)


async def record(players, seed, reconnect_every=9):
    original = publish_module.remember

    def remember(change):
        if change.room.state:
            LATEST["state"] = change.room.state
        original(change)

    publish_module.remember = remember
    stop = asyncio.Event()
    watcher = asyncio.create_task(_watch(stop))
    try:
        return await play_recorded("sketch", players, {"round_seconds": 600, "tie_window_ms": 500},
                                   seed=seed, max_steps=4000, reconnect_every=reconnect_every,
                                   choose=choose, fire=False)
    finally:
        stop.set()
        await watcher
        publish_module.remember = original
        LATEST.clear()


async def test_whole_sketch_games_leak_no_word_drawing_or_wrong_guess():
    rec = await record(4, seed=3)
    checked = rec.check(sketch_secrets)
    types = [e["type"] for e in rec.log["events"]]
    assert types[-1] == "game_ended" or "game_ended" in types
    assert "board_won" in types and "feedback_given" in types
    relays = sum(1 for _, v, text in rec.frames if v is None and text.startswith('{"t":"stream"')
                 and '"items":[{' in text)
    assert relays >= 5 and rec.reconnects >= 3
    # the drawings travel in blobs frames (checked above against the state of their view);
    # the server's view frames only name them
    blob_frames = [text for _, _, text in rec.frames if text.startswith('{"t":"blobs"')]
    assert len(blob_frames) >= 5 and all('"p":[' in text for text in blob_frames)
    assert not any('"p":[' in text for _, _, text in rec.frames if text.startswith('{"t":"view"'))
    print(f"\nsketch frames checked: {checked} ({relays} stream frames with strokes, {rec.actions} actions, "
          f"{rec.reconnects} reconnects)")
    assert checked > 250


async def test_the_check_catches_a_planted_leak():
    rec = await record(3, seed=5, reconnect_every=0)

    def planted(state, viewer):      # the viewer's own card words, treated as secret
        own = state["cards"].get(viewer, [])
        return [f for card in own for w in card for f in _word_forms(w)]

    with pytest.raises(AssertionError):
        rec.check(planted)

    def drawings(state, viewer):     # every stroke, even in guessing rounds
        return ['"p":[' + ",".join(map(str, s["p"][:6]))
                for bs in state["boards"].values() for b in bs for s in b["strokes"]]

    with pytest.raises(AssertionError):
        rec.check(drawings)
    assert rec.check(sketch_secrets) > 100
    # no reconnects here: only the blobs frames carry drawings, so the check reads them
    rec.frames = [f for f in rec.frames if f[2].startswith('{"t":"blobs"')]
    with pytest.raises(AssertionError):
        rec.check(drawings)


def audience_choose(view, acts, rnd):
    """An audience guess: the right word now and then (read from the latest state), else a
    unique wrong text."""
    pick = rnd.choice(acts)
    state = LATEST.get("state")
    word = None
    if state:
        seat, index = divmod(pick["board"], 6)
        if seat < len(state["seats"]):
            word = state["boards"][state["seats"][seat]][index]["word"]
    text = word if word and rnd.random() < 0.4 else f"zq{rnd.randrange(10 ** 9)}x"
    return {**pick, "text": text}


async def test_audience_sockets_guessing_through_a_whole_game_see_no_word():
    """Issue 22: the anonymous audience, an audience pass and a spectator seat guess through a
    whole game; no frame of theirs holds a word before the reveal that they did not guess
    right themselves (a right guess's reply repeats the word just typed), no drawing in a
    drawing round and no other's wrong guess; only the TV gets `tally` frames, naming who got
    a board and never a word."""
    original = publish_module.remember

    def remember(change):
        if change.room.state:
            LATEST["state"] = change.room.state
        original(change)

    publish_module.remember = remember
    stop = asyncio.Event()
    watcher = asyncio.create_task(_watch(stop))
    try:
        rec = await play_recorded("sketch", 3, {"round_seconds": 600, "tie_window_ms": 500},
                                  seed=29, max_steps=4000, reconnect_every=9, choose=choose,
                                  fire=False, audience=True, audience_choose=audience_choose,
                                  audience_rate=0.5)
    finally:
        stop.set()
        await watcher
        publish_module.remember = original
        LATEST.clear()
    outsiders = {AUDIENCE, "@audience-pass", rec.spectator}
    told = {v: set() for v in outsiders}        # words each voter guessed right itself
    checked = rights = 0
    last_state = None
    kinds = {}
    for viewer, version, text in rec.frames:
        f = json.loads(text)
        kinds.setdefault(viewer, set()).add(f["t"])
        if f["t"] == "tally":
            assert viewer == TABLE, f"{viewer} got {text}"
            assert set(f["d"]["summary"]) == {"boards"}, f
            for b in f["d"]["summary"]["boards"]:
                assert set(b) == {"player", "board", "n", "names"}, b
        if viewer in outsiders and f["t"] == "mine" and f["d"]["reply"].get("right"):
            told[viewer].add(f["d"]["reply"]["word"])
            rights += 1
        if version is not None and version in rec.states:
            last_state = rec.states[version]
        if last_state is None:
            continue
        allowed = {form for w in told.get(viewer, ()) for form in _word_forms(w)}
        for secret in sketch_secrets(last_state, viewer):
            if secret not in allowed:
                assert secret not in text, f"{viewer} saw {secret!r} in v{version}: {text[:300]}"
        checked += 1
    assert "tally" in kinds[TABLE]
    assert all("mine" in kinds[v] for v in outsiders), kinds
    assert rights >= 1 and sum(rec.audience_actions.values()) > 20, (rights, rec.audience_actions)
    print(f"\nsketch audience: {checked} frames checked, {rights} right audience guesses, "
          f"audience actions {rec.audience_actions}")
