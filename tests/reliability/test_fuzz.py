"""Hostile input against live games of each of the four games (real sockets, real daphne).

One daphne serves a room per game (the TV, every player, an anonymous audience socket).
The fuzzer alternates bursts of hostile frames (random mutations of the frames the views
offer right now, and Hypothesis-drawn frames) from every kind of sender with legal steps
(a random offered action), and checks:

- every hostile frame is answered by exactly one `error` frame, in order, whose code is
  documented in docs/protocol.md or docs/games/<game>.md and whose `ref` is the frame's id;
- no other socket receives anything during a burst (only views of a timer that fell due,
  checked against the event log, and the TV's documented jinx `notice`);
- the room's state equals a replay, with the pure rules, of the legal actions alone (seed
  and options from the state and the log; sketch strokes folded in with `absorb`), and the
  log's `action` entries are exactly the legal actions that were accepted;
- no socket was closed, and the server log has no traceback and no 5xx.

The fuzz server runs with PARTYHUB_FPS=100000: the fuzzer answers-and-waits per batch, so
it is the socket budget (30 frames/s), not the fuzzer, that would otherwise be the limit.
Stream items (sketch strokes) have their own fixed budget (60/s): they are paced at 40/s.
"""
from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhub.gamekit import timed
from partyhub.rooms.gateway import registry
from tests.liveserver import Daphne, http, room_with_players
from tests.reliability import hostile
from tests.reliability.livekit import (LoopThread, Sock, db_room_state, documented_codes, rules_crashes,
                                       server_errors)

pytestmark = pytest.mark.slow

GAMES = {   # game -> (players, options)
    "association": (4, {}),
    "jinx": (4, {"first_player": "first_seat", "next_turn_seconds": 1}),
    "klepka": (3, {"reveal_seconds": 0, "table": "6x8"}),
    "sketch": (3, {"round_seconds": 5}),
}
DEFAULT_FRAMES = int(os.environ.get("FUZZ_FRAMES", "2600"))         # per game: 10,400 in the default run
LONG_FRAMES = 15000            # per game with --long: 60,000
STATS: dict = {}
# Rules that raise on hostile input: the platform turns them into a `bad_action` refusal
# (calls.rules_call), but every one is a bug in the game's rules, so the fuzz fails on
# any. None is known (sketch's board_at crash on a non-string "player" is fixed); add an
# entry here only to tolerate a crash being fixed elsewhere. FUZZ_STRICT=1 ignores this list.
KNOWN_RULE_CRASHES: set = set()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    srv = Daphne(tmp, {"PARTYHUB_FPS": "100000", "PARTYHUB_JOINS_PER_MINUTE": "10000",
                       "PARTYHUB_ROOMS_PER_MINUTE": "10000"}).migrate().start()
    srv.data = tmp
    yield srv
    srv.kill()


def ambient(viewer, frame) -> bool:
    """A frame the TV gets on its own clock, whoever sent what: the number watching (at most
    once a second; the fan's reconnects move it) and sketch's ink levels (at most once a
    second, after the legal strokes before)."""
    if viewer != "tv":
        return False
    return frame["t"] == "watchers" or (
        frame["t"] == "stream" and all(i["t"] == "progress" for i in frame["d"]["items"]))


class Fuzz:
    def __init__(self, server, game, seed):
        self.server, self.game, self.rnd = server, game, random.Random(seed)
        self.codes = documented_codes(game)
        self.mut = hostile.Mutator(game, random.Random(seed + 1))
        self.legal = []            # ("action"|"stream", seat, d, wall ms) accepted, in order
        self.replay = {}           # seat -> raw frames of its accepted actions
        self.burst_views = set()   # versions seen by anyone during hostile bursts
        self.hostile = 0
        self.by_code: dict = {}
        self.refused_legal = 0
        self.notices = 0
        self.seen_phases = set()
        self.audience_budget = {}  # sender -> [tokens, monotonic time]: a mirror of its bucket

    async def open(self):
        n, options = GAMES[self.game]
        names = [f"{self.game[:4]}{i}" for i in range(n)]   # "ass0" is refused in family mode
        room, seats = await asyncio.to_thread(room_with_players, self.server.base, names)
        self.code, self.host = room["code"], room["host_token"]
        base = self.server.base
        self.tv = await Sock(base, self.code, self.host, "tv").open()
        self.aud = await Sock(base, self.code, None, "audience").open()
        status, pass_ = await asyncio.to_thread(http, "POST", f"{base}/api/rooms/{self.code}/audience",
                                                {"name": "Fan"})
        assert status == 201, pass_
        self.fan = await Sock(base, self.code, pass_["token"], "audience pass").open()
        self.players = {s["player_id"]: await Sock(base, self.code, s["token"], s["player_id"]).open()
                        for s in seats}
        self.vip = seats[0]["player_id"]
        self.socks = {"tv": self.tv, "aud": self.aud, "fan": self.fan, **self.players}
        await self.tv.send(json.dumps({"t": "act", "id": "start", "d": {
            "type": "start", "game": self.game, "options": options}}))
        for s in self.socks.values():
            await s.wait(lambda s=s: s.view["room"]["phase"] == "playing")
            await s.barrier()

    # -- the situation as the sockets see it
    def ctx(self, key):
        s = self.socks[key]
        me = key if key in self.players else None
        own = [a for a in s.view["actions"] if a["type"] not in hostile.ROOM_TYPES] if me else []
        others = [a for k, o in self.players.items() if k != key
                  for a in o.view["actions"] if a["type"] not in hostile.ROOM_TYPES]
        if self.game == "sketch":
            others += self.stroke_templates(exclude=me)
            if me:
                own += self.stroke_templates(only=me)
        views = [o.view for o in self.socks.values()]
        offered = [a for a in self.aud.view["actions"] if a["type"] in hostile.AUDIENCE_TYPES]
        return {"role": "tv" if key == "tv" else "audience" if key in ("aud", "fan") else "player",
                "audience_offered": offered,
                "is_vip": key == self.vip, "own": own, "others": others,
                "replay": self.replay.get(key, []), "phase": self.tv.view["room"]["phase"],
                "known": hostile.known_values(views), "players": list(self.players), "me": me}

    def stroke_templates(self, exclude=None, only=None):
        out = []
        for pid, sock in self.players.items():
            if pid == exclude or (only and pid != only):
                continue
            game = sock.view.get("game") or {}
            you = game.get("you") or {}
            for b in range(len(you.get("boards") or [])):
                out.append({"type": "stroke", "board": b, "points": [[0.2, 0.3], [0.4, 0.5]],
                            "color": "#000", "width": 4})
                out.append({"type": "undo", "board": b})
        return out

    # -- hostile bursts
    async def pace_audience(self, key, rate=4.0, burst=8.0):
        """Audience actions have their own budget per socket (5/s, burst 10): stay under it."""
        tokens, at = self.audience_budget.get(key, (burst, time.monotonic()))
        now = time.monotonic()
        tokens = min(burst, tokens + (now - at) * rate)
        if tokens < 1:
            await asyncio.sleep((1 - tokens) / rate)
            now, tokens = time.monotonic(), 1.0
        self.audience_budget[key] = (tokens - 1, now)

    def is_stream(self, raw):
        if self.game != "sketch":
            return False
        try:
            f = json.loads(raw)
            return isinstance(f, dict) and isinstance(f.get("d"), dict) and str(f["d"].get("type")) in hostile.STREAMS["sketch"]
        except (ValueError, UnicodeDecodeError, RecursionError):
            return False

    async def burst(self, key, raws, others=True):
        sender = self.socks[key]
        marks = {k: len(s.frames) for k, s in self.socks.items()}
        for raw in raws:
            if self.is_stream(raw) and (len(raw) <= 64 * 1024):
                await sender.pace_stream()
            if is_audience(raw):
                await self.pace_audience(key)
            await sender.send(raw)
        if any(self.is_stream(raw) for raw in raws):
            # stream items the rules refuse are answered at the room's tick, after the pong
            # of an immediate barrier: wait for as many errors as frames (or time out below)
            def answered():
                return sum(f["t"] == "error" for f in sender.frames[marks[key]:]) >= len(raws)
            try:
                await sender.wait(answered, 5)
            except (AssertionError, asyncio.TimeoutError, TimeoutError):
                pass
        pong = await sender.barrier()
        got = sender.frames[marks[key]:pong]
        errors = [f for f in got if f["t"] == "error"]
        rest = [f for f in got if f["t"] not in ("error", "pong", "blobs")   # blobs: a view's drawings
                and not ambient(key, f)]
        for f in rest:
            assert f["t"] == "view", (key, f, raws)
            self.burst_views.add(f["v"])
        assert len(errors) == len(raws), (
            f"{self.game}: {key} sent {len(raws)} hostile frames, got {len(errors)} errors: "
            f"{[str(r)[:200] for r in raws]} -> {got}")
        # every frame is refused with its own ref; a stream item's refusal comes at its tick,
        # so after the refusals of frames sent later
        assert sorted(str(e["d"]["ref"]) for e in errors) == sorted(
            str(hostile.expected_ref(raw)) for raw in raws), ([e["d"] for e in errors], raws)
        jinx_refusals = 0
        for err in errors:
            code = err["d"]["code"]
            assert code in self.codes, f"{self.game}: undocumented code {code!r} ({err['d']})"
            assert code != "flood", f"{self.game}: flood while fuzzing ({key})"
            self.by_code[code] = self.by_code.get(code, 0) + 1
            jinx_refusals += code == "jinx"
        self.hostile += len(raws)
        if others:
            await self.check_others(key, marks, jinx_refusals)
        for s in self.socks.values():
            assert s.closed is None, f"{s.name} closed with {s.closed}"

    def marks(self):
        return {k: len(s.frames) for k, s in self.socks.items()}

    async def check_others(self, key, marks, jinx_refusals, sent=None):
        """The sockets other than the sender(s) got nothing but timer views (and the TV's
        jinx notices); `sent`: {sender: frames} when several sockets sent since `marks`."""
        sent = sent or {key: None}
        for k, s in self.socks.items():
            if k in sent:
                continue
            if k == key:
                continue
            end = await s.barrier()
            for f in s.frames[marks[k]:end]:
                if f["t"] in ("pong", "blobs"):      # blobs: the drawings of the view after it
                    continue
                if f["t"] == "view":
                    self.burst_views.add(f["v"])
                    continue
                if ambient(k, f):
                    continue
                if k == "tv" and f["t"] == "notice" and f["d"]["code"] == "jinx" and jinx_refusals:
                    jinx_refusals -= 1
                    self.notices += 1
                    continue
                raise AssertionError(f"{self.game}: {k} got {f} from {key}'s hostile frames")

    # -- legal steps
    async def legal_step(self):
        rnd = self.rnd
        phase = self.tv.view["room"]["phase"]
        if phase != "playing":
            return
        game_view = self.tv.view.get("game") or {}
        self.seen_phases.add(game_view.get("phase"))
        ready = []
        for pid, s in self.players.items():
            acts = [a for a in s.view["actions"] if a["type"] not in hostile.ROOM_TYPES
                    and not (self.game == "klepka" and a["type"] == "word")]
            if acts:
                ready.append((pid, acts))
        if not ready:
            return
        pid, acts = rnd.choice(ready)
        d = hostile.fill(rnd.choice(acts), rnd)
        if await self.send_legal(pid, d, "action") and self.game == "sketch" and d["type"] == "draw":
            for _ in range(2):
                pts = [[round(rnd.random(), 3), round(rnd.random(), 3)] for _ in range(rnd.randint(1, 5))]
                await self.send_legal(pid, {"type": "stroke", "board": d["board"], "points": pts,
                                            "color": "#000", "width": 4, "join": False}, "stream")

    async def send_legal(self, pid, d, kind):
        s = self.players[pid]
        ref = f"L{self.rnd.getrandbits(48):x}"
        raw = json.dumps({"t": "act", "id": ref, "d": d})
        mark = len(s.frames)
        if kind == "stream":
            await s.pace_stream()
        at = int(time.time() * 1000)
        await s.send(raw)
        if kind == "stream":    # answered at the room's tick: acknowledged or refused
            await s.wait(lambda: any(
                (f["t"] == "error" and f["d"]["ref"] == ref) or (f["t"] == "stream" and ref in f["d"]["ack"])
                for f in s.frames[mark:]), 10)
        pong = await s.barrier()
        got = s.frames[mark:pong]
        if any(f["t"] == "error" and f["d"]["ref"] == ref for f in got):
            self.refused_legal += 1
            return False
        self.legal.append((kind, pid, d, at))
        if kind == "action":
            self.replay.setdefault(pid, []).append(raw)
        for o in self.socks.values():       # every socket has the new view before going on
            await o.barrier()
        return True

    # -- the end: replay and log
    async def finish(self):
        await self.tv.send(json.dumps({"t": "act", "id": "end", "d": {"type": "end"}}))
        await self.tv.wait(lambda: self.tv.view["room"]["phase"] == "lobby")
        status, log = await asyncio.to_thread(http, "GET", f"{self.server.base}/api/rooms/{self.code}/log",
                                              None, {"Authorization": f"Bearer {self.host}"})
        assert status == 200, log
        state, version, _ = db_room_state(self.server.data, self.code)
        for s in self.socks.values():
            assert s.closed is None, f"{s.name} closed with {s.closed}"
            await s.close()
        return log, state


def is_audience(raw) -> bool:
    """A frame the server counts on the socket's audience budget (an audience action type)."""
    if len(raw) > 64 * 1024:
        return False
    try:
        f = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return (isinstance(f, dict) and f.get("t") == "act" and isinstance(f.get("d"), dict)
            and isinstance(f["d"].get("type"), str) and f["d"]["type"] in hostile.AUDIENCE_TYPES)


def replay(game_id, log, legal, final_state):
    """The state rebuilt from the seed and the legal actions alone equals the server's."""
    game = registry.get(game_id)
    started = next(e for e in log["events"] if e["type"] == "game_started")
    data = started["data"]
    dealt = timed(game.options, data["options"], data["timer_factor"])
    state = game.setup(data["seats"], dealt, final_state["seed"])
    if hasattr(game, "begin"):
        state = game.begin(state, started["at"])
    moves = [e for e in log["events"] if e["type"] in ("action", "audience_closed")]
    actions = [e for e in moves if e["type"] == "action"]
    logged = [(e["seat"], e["data"]) for e in actions if e["seat"]]
    sent = [(seat, d) for kind, seat, d, _ in legal if kind == "action"]
    assert logged == sent, f"log actions differ from the legal actions sent ({len(logged)} vs {len(sent)})"
    streams = [(at, seat, d) for kind, seat, d, at in legal if kind == "stream"]
    deadlines = 0
    for e in moves:
        if e["type"] == "audience_closed":      # the write path's fold, logged after its move
            state = game.audience_close(state, e["data"]["ballot"], e["data"]["entries"])
            continue
        pending = [(seat, d) for at, seat, d in streams if at <= e["at"]]
        streams = [x for x in streams if x[0] > e["at"]]
        if pending:
            state = game.absorb(state, pending)
        if e["seat"]:
            result = game.apply(state, e["seat"], e["data"], e["at"])
            assert not hasattr(result, "code"), (e, result)
        else:
            assert e["data"] == {"type": "deadline"}, e
            result = game.on_deadline(state, e["at"])
            deadlines += 1
        state = result.state
    if streams:
        state = game.absorb(state, [(seat, d) for _, seat, d in streams])
    state = json.loads(json.dumps(state))
    assert state == final_state, "replayed state differs from the room's: " + _diff(state, final_state)
    return len(sent), deadlines


def _diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        return "; ".join(_diff(a.get(k), b.get(k), f"{path}.{k}") for k in sorted(set(a) | set(b))
                         if a.get(k) != b.get(k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return "; ".join(_diff(x, y, f"{path}[{i}]") for i, (x, y) in enumerate(zip(a, b)) if x != y)
    return f"{path}: replay {json.dumps(a)[:300]} != room {json.dumps(b)[:300]}"


def run_game(loop, server, game, frames, seed):
    fz = Fuzz(server, game, seed)
    loop.run(fz.open())
    senders = list(fz.socks)
    hyp_every = 3
    rounds = 0
    t0 = time.monotonic()
    min_seconds = 16 if game == "sketch" else 0     # sketch: see drawing and guessing rounds

    hyp_senders = []
    ctxs = {}     # the situation at the start of each Hypothesis run: its data must not change

    @settings(max_examples=15, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck), phases=[hypothesis_phase_generate()])
    @given(st.data())
    def hypothesis_burst(data):
        key = data.draw(st.sampled_from(hyp_senders), label="sender")
        raw = hostile.hypothesis_frame(data, game, ctxs[key])
        loop.run(fz.burst(key, [raw], others=False))

    while fz.hostile < frames or time.monotonic() - t0 < min_seconds:
        key = senders[rounds % len(senders)]
        batch = fz.mut.frames(fz.rnd.randint(30, 70), fz.ctx(key))
        loop.run(fz.burst(key, batch))
        if rounds % hyp_every == 0:
            # Hypothesis frames from two senders; the other sockets are checked after the run
            hyp_senders[:] = [senders[(rounds // hyp_every) % len(senders)],
                              senders[(rounds // hyp_every + 3) % len(senders)]]
            ctxs.update({k: fz.ctx(k) for k in hyp_senders})
            marks = fz.marks()
            before = fz.by_code.get("jinx", 0)
            hypothesis_burst()
            loop.run(fz.check_others(None, marks, fz.by_code.get("jinx", 0) - before,
                                     sent={k: None for k in hyp_senders}))
        loop.run(fz.legal_step())
        rounds += 1
        if fz.hostile >= frames and time.monotonic() - t0 >= min_seconds:
            break
    log, state = loop.run(fz.finish())
    n_legal, deadlines = replay(game, log, fz.legal, state)
    timer_versions = {e["v"] for e in log["events"] if e["type"] == "action" and not e["seat"]}
    stray = fz.burst_views - timer_versions
    assert not stray, f"{game}: views during hostile bursts not caused by a timer: {sorted(stray)}"
    STATS[game] = {"hostile": fz.hostile, "legal": n_legal, "strokes": sum(k == "stream" for k, *_ in fz.legal),
                   "timers": deadlines, "refused_legal": fz.refused_legal, "notices": fz.notices,
                   "codes": len(fz.by_code), "phases": sorted(p for p in fz.seen_phases if p),
                   "seconds": round(time.monotonic() - t0, 1)}
    return fz


def hypothesis_phase_generate():
    from hypothesis import Phase
    return Phase.generate


def _run_all(server, frames, seed):
    loop = LoopThread()
    try:
        total = 0
        for i, game in enumerate(GAMES):
            fz = run_game(loop, server, game, frames, seed + 100 * i)
            total += fz.hostile
            print(f"\nfuzz {game}: {STATS[game]} by code {dict(sorted(fz.by_code.items()))}")
        assert not server_errors(server), server_errors(server)[:20]
        crashes = sorted(set(rules_crashes(server)))
        print(f"\nrules that raised (refused as bad_action by the platform): {crashes}")
        unknown = [c for c in crashes if c not in KNOWN_RULE_CRASHES]
        if os.environ.get("FUZZ_STRICT") == "1":
            unknown = crashes
        assert not unknown, f"game rules raised on hostile input: {unknown}"
        print(f"\nfuzz total: {total} hostile frames, 0 server errors")
        return total
    finally:
        loop.close()


def test_fuzz_four_games(server):
    assert _run_all(server, DEFAULT_FRAMES, seed=int(os.environ.get("FUZZ_SEED", "7"))) >= 10000


@pytest.mark.long
def test_fuzz_four_games_long(server):
    assert _run_all(server, LONG_FRAMES, seed=int(os.environ.get("FUZZ_SEED", "1007"))) >= 60000


# ---------------------------------------------------------------- audience floods (issue 22)

async def _to_vote_phase(fz):
    """Legal steps until association's vote phase (the audience's ballot) is open."""
    for _ in range(40):
        if (fz.tv.view.get("game") or {}).get("phase") == "vote":
            for s in fz.socks.values():
                await s.barrier()
            return
        await fz.legal_step()
    raise AssertionError(f"no vote phase: {fz.tv.view.get('game')}")


async def _flood(fz, key, n, card):
    """`n` audience votes for a card not on the table at once from one socket: every frame
    answered by an error with its ref (bad_card, or flood once the budget is spent), the
    room's state untouched, nobody else hears of it."""
    sender = fz.socks[key]
    marks = fz.marks()
    before = db_room_state(fz.server.data, fz.code)
    refs = [f"F{key}{i}" for i in range(n)]
    for ref in refs:
        await sender.send(json.dumps({"t": "act", "id": ref, "d": {"type": "audience_vote", "card": card}}))
    if sender.closed is None:
        try:
            await sender.wait(lambda: sum(f["t"] == "error" for f in sender.frames[marks[key]:]) >= n
                              or sender.closed is not None, 10)
        except (AssertionError, TimeoutError):
            pass
    errors = [f["d"] for f in sender.frames[marks[key]:] if f["t"] == "error"]
    assert not [f for f in sender.frames[marks[key]:] if f["t"] in ("mine", "tally")], "a flood was counted"
    await fz.check_others(key, marks, 0)
    assert db_room_state(fz.server.data, fz.code) == before, "the room's state changed"
    return errors, refs


async def _audience_floods(server):
    fz = Fuzz(server, "association", 31)
    await fz.open()
    await _to_vote_phase(fz)
    codes = documented_codes("association")
    # an audience pass: 12 at once, the budget (burst 10) answers 10 on their merits
    errors, refs = await _flood(fz, "fan", 12, "nope")
    assert [e["ref"] for e in errors] == refs, errors
    assert all(e["code"] in codes for e in errors), errors
    kinds = [e["code"] for e in errors]
    assert kinds[:10] == ["bad_card"] * 10 and set(kinds[10:]) <= {"flood", "bad_card"}, kinds
    assert "flood" in kinds and fz.fan.closed is None
    # a playing seat: refused as not audience, then flood; its socket and its game go on
    pid = next(iter(fz.players))
    errors, refs = await _flood(fz, pid, 12, fz.tv.view["game"]["table"][0])
    kinds = [e["code"] for e in errors]
    assert kinds[:10] == ["not_audience"] * 10 and "flood" in kinds[10:], kinds
    assert fz.players[pid].closed is None
    # the anonymous socket floods on and on: closed after the third strike (4008), nobody
    # else is touched, and the room still plays
    errors, refs = await _flood(fz, "aud", 30, "nope")
    kinds = [e["code"] for e in errors]
    assert kinds[:10] == ["bad_card"] * 10 and kinds[10:] == ["flood"] * 3, kinds
    await fz.aud.wait(lambda: fz.aud.closed is not None, 5)
    assert fz.aud.closed == 4008, fz.aud.closed
    del fz.socks["aud"]
    await fz.legal_step()
    assert (fz.tv.view.get("game") or {}).get("phase") in ("vote", "reveal")
    for key in fz.socks:
        assert fz.socks[key].closed is None, key
    await fz.tv.send(json.dumps({"t": "act", "id": "end", "d": {"type": "end"}}))
    await fz.tv.wait(lambda: fz.tv.view["room"]["phase"] == "lobby")
    for s in fz.socks.values():
        await s.close()


def test_audience_floods_are_refused_one_by_one_and_touch_no_one_else(server):
    loop = LoopThread()
    try:
        loop.run(_audience_floods(server))
        assert not server_errors(server), server_errors(server)[:20]
    finally:
        loop.close()
