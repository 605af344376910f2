"""Play a whole game in-process and record every frame every connection received.

Every committed version's full state is captured where it is published, so each frame can
be checked against the state it was built from: `secrets(state, viewer)` names the strings
that `viewer` must not see in that state (viewer: a player id, "@table" or "@audience").
Connections: the TV, every player, an audience socket; players reconnect now and then, and
the first frame after each reconnect is recorded too. A `blobs` frame (the drawings a view
references, partyhub/blobs.py) is checked against the state of the view it precedes. The
host's event log is checked last.
"""
from __future__ import annotations

import copy
import json
import random
import time
from dataclasses import dataclass, field

from channels.db import database_sync_to_async

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms.access import selectors
from partyhub.rooms.core import schema
from partyhub.rooms.domain import roomactions
from partyhub.rooms.live import publish as publish_module
from partyhub.rooms.write import services
from tests.rooms.helpers import make_room
from tests.rooms.wsclient import Client, until_quiet

ROOM_ACTIONS = frozenset(schema.SCHEMA)   # the room's own actions: the server's list, never a copy


@dataclass
class Recording:
    code: str = ""
    states: dict = field(default_factory=dict)        # version -> full game state
    published: set = field(default_factory=set)       # every version published (lobby ones too)
    frames: list = field(default_factory=list)        # (viewer, version or None, text)
    actions: int = 0
    reconnects: int = 0
    log: dict | None = None
    audience_actions: dict = field(default_factory=dict)    # socket key -> audience actions sent
    spectator: str | None = None

    def check(self, secrets) -> int:
        """Assert that no frame holds a secret of its viewer; returns the frames checked."""
        checked = 0
        last_state = None
        for viewer, version, text in self.frames:
            # a frame of a version no publish recorded would be checked against an older state
            assert version is None or version in self.published, f"no publish recorded for v{version}"
            state = self.states.get(version, last_state) if version is not None else last_state
            if version is not None and version in self.states:
                last_state = self.states[version]
            if state is None:
                continue
            for secret in secrets(state, viewer):
                assert secret not in text, f"{viewer} saw {secret!r} in v{version}: {text[:300]}"
            checked += 1
        return checked


def _fill(action, rnd, words=("moon", "ladder", "storm")):
    return {k: (rnd.choice(words) if v is None else v) for k, v in action.items()}


AUDIENCE_SOCKETS = {"aud": AUDIENCE, "pass": "@audience-pass", "spec": None}   # spec: its seat id


async def play_recorded(game: str, players: int, options: dict, *, seed=1, max_steps=3000,
                        reconnect_every=25, choose=None, fire=True, audience=False,
                        audience_choose=None, audience_rate=0.35, prepare=None) -> Recording:
    """Drive a game to its end by random legal actions; returns the recording.

    `audience`: besides the anonymous audience socket ("aud", viewer AUDIENCE), an audience
    pass's socket ("pass", viewer "@audience-pass") and a spectator seat joined once the game
    runs ("spec", viewer its player id) also take part, and each of the three acts now and
    then (chance `audience_rate` per step) with one of the audience actions its view offers
    (`audience_choose(view, acts, rnd)` picks, free text filled by default). `prepare(code,
    seats)`, when given, runs (sync) on the new room before its game is started."""
    rnd = random.Random(seed)
    rec = Recording()
    original = publish_module.remember

    def recording_remember(change):
        # publish's first step, whoever called publish (a move, the API, the timekeeper's
        # timer, which hold publish by name): every published version is recorded
        rec.published.add(change.room.version)
        if change.room.state is not None:
            rec.states[change.room.version] = copy.deepcopy(change.room.state)
        return original(change)

    publish_module.remember = recording_remember
    try:
        code, host, seats = await database_sync_to_async(make_room)(players)
        rec.code = code
        if prepare is not None:
            await database_sync_to_async(prepare)(code, seats)
        viewers = {"tv": TABLE, "aud": AUDIENCE, **{s.player_id: s.player_id for s in seats}}
        conns = {"tv": Client(code, host), "aud": Client(code)}
        for s in seats:
            conns[s.player_id] = Client(code, s.token)
        if audience:
            status, pass_ = await database_sync_to_async(_post)(f"/api/rooms/{code}/audience", {"name": "Fan"})
            assert status == 201, pass_
            conns["pass"] = Client(code, pass_["token"])
            viewers["pass"] = AUDIENCE_SOCKETS["pass"]
        for c in conns.values():
            assert await c.open() is True
        tokens = {s.player_id: s.token for s in seats}
        await conns["tv"].act({"type": "start", "game": game, "options": options})
        if audience:
            await _drain(conns, viewers, rec)
            status, spec = await database_sync_to_async(_post)(f"/api/rooms/{code}/join", {"name": "Late"})
            assert status == 201, spec
            viewers["spec"] = spec["player_id"]
            conns["spec"] = Client(code, spec["token"])
            assert await conns["spec"].open() is True
            rec.spectator = spec["player_id"]
        outsiders = {"tv", *AUDIENCE_SOCKETS}
        steps = 0
        while steps < max_steps:
            await _drain(conns, viewers, rec)
            tv_view = conns["tv"].view
            if tv_view["room"]["phase"] == "over":
                break
            ready = [(k, [a for a in c.view["actions"] if a["type"] not in ROOM_ACTIONS])
                     for k, c in conns.items() if c.view and k not in outsiders]
            ready = [(k, acts) for k, acts in ready if acts]
            if not ready and await _settle(conns, viewers, rec, news=not fire):
                continue                  # frames were still on their way: look again
            if not ready:
                if not fire:
                    raise AssertionError(f"stalled: {json.dumps(tv_view)[:500]}")
                await _fire_deadline(code)
                steps += 1
                continue
            if audience:
                await _audience_step(conns, rnd, audience_choose, audience_rate, rec)
            key, acts = rnd.choice(ready)
            pick = (choose or (lambda view, acts, rnd: _fill(rnd.choice(acts), rnd)))(
                conns[key].view, acts, rnd)
            await conns[key].act(pick)
            rec.actions += 1
            steps += 1
            if reconnect_every and steps % reconnect_every == 0:
                who = rnd.choice(list(tokens))
                await _drain(conns, viewers, rec)
                await conns[who].close()
                conns[who] = Client(code, tokens[who])
                assert await conns[who].open() is True
                rec.frames.append((viewers[who], conns[who].version, json.dumps(
                    {"t": "view", "v": conns[who].version, "d": conns[who].view})))
                rec.reconnects += 1
        await _drain(conns, viewers, rec)
        rec.log = await database_sync_to_async(_log)(code, host)
        for c in conns.values():
            await c.close()
    finally:
        publish_module.remember = original
    return rec


async def _audience_step(conns, rnd, choose, rate, rec):
    """Each audience socket acts with chance `rate` (one offered audience action)."""
    for key in AUDIENCE_SOCKETS:
        c = conns.get(key)
        if c is None or not c.view or rnd.random() >= rate:
            continue
        acts = [a for a in c.view["actions"] if a["type"].startswith("audience_")]
        if not acts:
            continue
        pick = (choose or (lambda view, acts, rnd: _fill(rnd.choice(acts), rnd)))(c.view, acts, rnd)
        await c.act(pick)
        rec.audience_actions[key] = rec.audience_actions.get(key, 0) + 1


def _post(path, body):
    from django.test import Client as HttpClient
    r = HttpClient().post(path, body, content_type="application/json")
    return r.status_code, r.json()


async def _drain(conns, viewers, rec):
    """Record every frame the connections were sent until none gets one for 20 ms."""
    keys = list(conns)
    for i, out in await until_quiet([conns[k].comm for k in keys], 0.02):
        if out["type"] != "websocket.send":
            continue
        key = keys[i]
        c, text = conns[key], out["text"]
        frame = c.held.take(json.loads(text))     # a view's drawings: its blobs frame
        if frame["t"] == "view":
            if frame["v"] > c.version:
                c.version, c.view = frame["v"], frame["d"]
            rec.frames.append((viewers[key], frame["v"], text))
        elif frame["t"] == "blobs":      # checked against the state of the view it precedes
            rec.frames.append((viewers[key], frame["v"], text))
        elif frame["t"] == "pong":       # the answer to _settle's ping
            c.pongs += 1
        else:
            rec.frames.append((viewers[key], None, text))


async def _settle(conns, viewers, rec, seconds=2.0, news=False) -> bool:
    """Nobody seems to have an action: make sure no frame is still on its way before a timer
    is fired (a busy machine). A socket answers a ping only after the frames sent before it
    (the actions applied, their views published); then every socket must reach the room's
    committed version. `news`: the test fires the timers itself (play_recorded's `fire`
    off), so wait for a frame too. Waits for those, at most `seconds`. True if any frame
    arrived."""
    before = len(rec.frames)
    end = time.monotonic() + seconds
    asked = {k: c.pongs for k, c in conns.items()}
    for c in conns.values():
        await c.send({"t": "ping", "d": {"c": "settle"}})
    await _drain(conns, viewers, rec)
    while any(c.pongs <= asked[k] for k, c in conns.items()) and time.monotonic() < end:
        await _drain(conns, viewers, rec)
    version = (await database_sync_to_async(selectors.room_get)(rec.code)).version
    while any(c.version < version for c in conns.values()) and time.monotonic() < end:
        await _drain(conns, viewers, rec)
    while news and len(rec.frames) == before and time.monotonic() < end:
        await _drain(conns, viewers, rec)
    return len(rec.frames) > before


async def _fire_deadline(code):
    """Nobody can act: let the room's timer fall due now (as the timekeeper would)."""
    room = await database_sync_to_async(selectors.room_get)(code)
    if room.deadline_at is None:
        raise AssertionError(f"stalled with no timer in phase {room.phase}: {json.dumps(room.state)[:400]}")
    change = await database_sync_to_async(services.room_tick)(code, room.deadline_at)
    if change is not None:
        await publish_module.publish(change)


def _log(code, host):
    from django.test import Client as HttpClient
    r = HttpClient().get(f"/api/rooms/{code}/log", HTTP_AUTHORIZATION=f"Bearer {host}")
    return r.json()
