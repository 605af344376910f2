"""Recorded frames of whole sketch games through real consumers: no frame shows a viewer a
word, a drawing or a wrong guess it must not see at that version.

The random players draw (stream items through the socket), choose words, guess (sometimes the
right word, read from the latest state, otherwise a unique wrong text) and answer close/far.
Sketch players always have a `draw` to choose in a drawing round, so a watcher fires each
round's deadline every ROUND_WALL seconds (as the timekeeper would). A round is as long as
that, so the number of steps in it depends on the harness's speed: 1.6 s held about 50
actions a game when the harness waited for each socket in turn; 1.0 s holds about 70 now.
"""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms.live import publish as publish_module
from partyhub.rooms.models import Room
from partyhub.rooms.write import services
from tests.harness.recorded import play_recorded

pytestmark = pytest.mark.django_db(transaction=True)
ROUND_WALL = 1.0
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
    where = {b["word"]: (owner, b) for owner, boards in state["boards"].items() for b in boards
             if b["word"] is not None}
    # a guess the viewer typed, or was asked on its own boards, may read back another's card
    # word (the random players guess words a stale state had: a board not guessed is redrawn)
    typed = {g["text"] for g in state["guesses"] if viewer in (g["player"], g["owner"])}
    for owner, cards in state["cards"].items():
        if owner == viewer:
            continue
        for word in (w for card in cards for w in card):
            on = where.get(word)
            if on and on[0] == owner and (over or viewer in on[1]["won_by"]):
                continue
            out.extend(f for f in _word_forms(word) if not (word in typed and f.startswith('"text"')))
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


PROGRESS_KEYS = {"round", "players"}
PLAYER_KEYS = {"id", "ink", "done"}


def check_tv_streams(frames) -> int:
    """The TV's and the audience's stream frames carry only the drawing round's progress
    (issue 27): `progress` items of ink levels and who has finished, nothing of a drawing
    (the secrets check reads the strokes' coordinates; this one the shape). Returns how many
    progress items there were."""
    seen = 0
    for viewer, _, text in frames:
        if viewer not in (TABLE, AUDIENCE) or not text.startswith('{"t":"stream"'):
            continue
        for item in json.loads(text)["d"]["items"]:
            assert viewer == TABLE and item["t"] == "progress", f"{viewer} got {text[:300]}"
            assert set(item["d"]) == PROGRESS_KEYS, text[:300]
            for p in item["d"]["players"]:
                assert set(p) == PLAYER_KEYS and isinstance(p["done"], bool), text[:300]
                assert all(isinstance(n, int) and 0 <= n <= 4 for n in p["ink"]), text[:300]
            seen += 1
    return seen


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
    # the TV hears the drawing rounds' progress, and nothing else of a drawing (issue 27)
    assert check_tv_streams(rec.frames) >= 2
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
    check_tv_streams(rec.frames)
    # a stroke relayed to the TV, or a progress item with the drawing in it, fails the shape check
    stroke = {"player": "p1", "board": 0, "points": [[0.1, 0.2]], "color": "#000", "width": 4, "join": False}
    planted = {"round": 1, "players": [{"id": "p1", "ink": [1, 0, 0, 0, 0, 0], "done": False,
                                        "strokes": [[{"c": "#000", "w": 4, "p": [100, 200]}]]}]}
    for item in ({"t": "stroke", "d": stroke}, {"t": "progress", "d": planted}):
        leak = json.dumps({"t": "stream", "d": {"items": [item], "ack": []}}, separators=(",", ":"))
        with pytest.raises(AssertionError):
            check_tv_streams(rec.frames + [(TABLE, None, leak)])
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


async def record_audience(seed, players=3):
    """A whole game with the anonymous audience, an audience pass and a spectator seat
    guessing along (tests/harness/recorded.py)."""
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
                                   seed=seed, max_steps=4000, reconnect_every=9, choose=choose,
                                   fire=False, audience=True, audience_choose=audience_choose,
                                   audience_rate=0.5)
    finally:
        stop.set()
        await watcher
        publish_module.remember = original
        LATEST.clear()


def _outsiders(rec):
    return {AUDIENCE, "@audience-pass", rec.spectator}


# The refusals an audience guess may get while its ballot is open: none depends on whether a
# guess is right (issue 31). `already_guessed` ("you got it") is not among them.
BLIND_CODES = {"no_ballot", "bad_board", "not_drawn", "empty_guess", "long_guess",
               "too_many_words", "out_of_guesses", "repeated_guess", "bad_action", "flood",
               "paused", "no_game_running", "game_over"}


def blind_replies(rec):
    """No `mine` reply says right or wrong (nor a word), no refusal code depends on it; returns
    the replies checked."""
    n = 0
    for viewer, _, text in rec.frames:
        f = json.loads(text)
        if viewer in _outsiders(rec) and f["t"] == "mine":
            assert set(f["d"]["reply"]) <= {"board", "recorded", "left"}, text
            assert all(isinstance(v, list) and all(isinstance(x, str) for x in v)
                       for v in f["d"]["votes"].values()), text
            n += 1
        if viewer in _outsiders(rec) and f["t"] == "error":
            assert f["d"]["code"] in BLIND_CODES, text
    return n


def blind_tallies(rec):
    """Every TV `tally` counts, per drawing, exactly the voters who had guessed it by its
    `seq` (from the `mine` frames: a vote with seq s is in every tally with seq >= s), right
    or wrong alike; returns the tallies checked."""
    votes = {}          # ballot -> [(seq, voter, board number)]
    for viewer, _, text in rec.frames:
        f = json.loads(text)
        if viewer in _outsiders(rec) and f["t"] == "mine" and f["d"]["seq"] is not None:
            votes.setdefault(f["d"]["ballot"], []).append((f["d"]["seq"], viewer, f["d"]["reply"]["board"]))
    n = 0
    state = None
    for viewer, version, text in rec.frames:
        state = rec.states.get(version, state) if version is not None else state
        f = json.loads(text)
        if f["t"] != "tally":
            continue
        assert viewer == TABLE, f"{viewer} got {text}"
        d = f["d"]
        seats = next(s for s in rec.states.values())["seats"]
        want = {}
        for seq, voter, board in votes.get(d["ballot"], []):
            if seq <= d["seq"]:
                want.setdefault(board, set()).add(voter)
        got = {}
        for b in d["summary"]["boards"]:
            assert set(b) == {"player", "board", "n"}, b
            got[seats.index(b["player"]) * 6 + b["board"]] = b["n"]
        assert got == {board: len(v) for board, v in want.items()}, (d, want)
        n += 1
    return n


def blind_views(rec):
    """A view shows the audience's result of a round only once that round is over, and before
    the end only on drawings a player has won (out of play); returns the results seen."""
    n = 0
    for viewer, version, text in rec.frames:
        f = json.loads(text)
        if f["t"] != "view" or not f["d"].get("game"):
            continue
        g = f["d"]["game"]
        if not g.get("audience"):
            continue
        if g["phase"] == "guessing":
            assert g["audience"]["ballot"] != f"r{g['round']}", text[:300]
        if g["phase"] != "over":
            won = {(b["player"], b["board"]) for b in g["boards"] if b["status"] == "won"}
            assert all((b["player"], b["board"]) in won for b in g["audience"]["boards"]), text[:300]
        n += 1
    return n


async def test_audience_sockets_guessing_through_a_whole_game_see_no_word():
    """Issues 22 and 31: the anonymous audience, an audience pass and a spectator seat guess
    through a whole game; no frame of theirs holds a word before the reveal that they did not
    type themselves, no drawing in a drawing round and no other's wrong guess; no frame before
    a round's close tells any socket whether a guess was right: `mine` only says "recorded",
    the refusals are blind to it, the TV's `tally` counts the guessers, right or wrong."""
    rec = await record_audience(seed=29)
    outsiders = _outsiders(rec)
    told = {v: set() for v in outsiders}        # what each voter typed itself
    checked = 0
    last_state = None
    kinds = {}
    for viewer, version, text in rec.frames:
        f = json.loads(text)
        kinds.setdefault(viewer, set()).add(f["t"])
        if viewer in outsiders and f["t"] == "mine":
            told[viewer].update(t for said in f["d"]["votes"].values() for t in said)
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
    replies, tallies, results = blind_replies(rec), blind_tallies(rec), blind_views(rec)
    cards = {w for s in rec.states.values() for cs in s["cards"].values() for c in cs for w in c}
    typed_right = sum(1 for v in outsiders for t in told[v] if t in cards)
    assert typed_right >= 1 and sum(rec.audience_actions.values()) >= 12, (told, rec.audience_actions)
    assert tallies >= 3 and replies >= 10
    last = rec.states[max(rec.states)]
    print(f"\nsketch audience: {checked} frames checked, {replies} replies, {tallies} tallies, {results} results, "
          f"{typed_right} right words typed, audience actions {rec.audience_actions}, "
          f"named credit {last.get('audience', {}).get('voters')}")


async def test_the_blind_checks_catch_a_planted_leak(monkeypatch):
    """Issue 31: rules that answer right/wrong at once, count only right guesses on the TV,
    or refuse a voter who got a drawing, fail the checks above."""
    from games.sketch.rules import audience as rules
    from games.sketch.rules.matcher import is_correct
    from partyhub.gamekit import Ballot, Rejected

    honest_check, honest_summary = rules.check, rules.summary

    def right(state, n, said):
        found = rules.place(state, n)
        return found is not None and found[2]["word"] is not None and any(
            is_correct(found[2]["word"], t) for t in said if isinstance(t, str))

    def check(state, action, mine):
        n = action.get("board") if isinstance(action, dict) else None
        if right(state, n, (mine or {}).get(str(n)) or []):
            return Rejected("already_guessed")
        verdict = honest_check(state, action, mine)
        if isinstance(verdict, Ballot):
            return Ballot(verdict.key, verdict.value, {**verdict.reply, "right": right(state, n, verdict.value)})
        return verdict

    def summary(state, entries):
        out = honest_summary(state, {v: {**e, "votes": {k: said for k, said in e["votes"].items()
                                                        if right(state, int(k), said)}}
                                     for v, e in entries.items()})
        return out

    monkeypatch.setattr(rules, "check", check)
    monkeypatch.setattr(rules, "summary", summary)
    rec = await record_audience(seed=29)
    with pytest.raises(AssertionError):
        blind_tallies(rec)
    with pytest.raises(AssertionError):
        blind_replies(rec)
    # the refusal alone
    rec.frames = [(v, ver, text) for v, ver, text in rec.frames if json.loads(text)["t"] != "mine"]
    with pytest.raises(AssertionError):
        blind_replies(rec)
