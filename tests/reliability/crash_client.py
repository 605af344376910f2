"""Clients for the crash tests: bots that keep account of what the server acknowledged.

A `Player` plays like partyhub.bots (it picks among the actions its view offers, choosing again
in the same view when refused: bots/turn.py, over the bots' reconnecting loop, bots/client.py
`dial`) but sends one action at a time followed by a ping. A socket handles its frames in order, so the pong
comes after the action was applied (the view of that version came first) or refused (an
`error` with its id came first). An action whose pong arrived without an error is
*acknowledged*: committed, and still there after any crash. One whose socket died before the
pong has an unknown fate. A player can be held (it stops sending) and it reconnects on its
own, trying its server URLs in turn, as a client behind a proxy would.

For sketch a player also streams strokes onto its boards and records which ones the server
acknowledged (in the `ack` of a tick's `stream` frame) and when.
"""
from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
import uuid

import websockets

from partyhub import bots
from partyhub.blobs import Held
from partyhub.bots.client import Redial, dial
from partyhub.bots.turn import Turn

# behind a proxy: a server gone (refused, reset, a 502) is the next URL's turn, soon
REDIAL = Redial(first=0.1, most=0.1, spread=2, open_timeout=3,
                drops=(OSError, websockets.WebSocketException, asyncio.TimeoutError))


class Player:
    def __init__(self, bases, code, token, player_id, seed, think=(0.02, 0.08), strokes=False):
        self.bases, self.code, self.token, self.player_id = list(bases), code, token, player_id
        self.rnd = random.Random(seed)
        self.think, self.strokes = think, strokes
        self.turn = Turn()      # the newest view, its version, the actions refused in it
        self.hold = False
        self.sent = []          # [{"id", "d", "v", "fate": "acked"|"refused"|"unknown"|"pending"}]
        self.pending = None
        self.stroke_log = []    # [{"id", "board", "p", "echo": time or None}]
        self.connects = 0
        self.view_connect = 0   # the connection that brought the newest view
        self.bases_used = []
        self.errors = []        # error frames other than the expected refusals
        self.changed = asyncio.Event()
        self.ws = None
        self.task = None
        self._seq = 0

    @property
    def view(self):
        return self.turn.view

    @property
    def version(self):
        return self.turn.version

    # -- accounting
    def acked(self):
        return [s for s in self.sent if s["fate"] == "acked"]

    def quiet(self):
        return self.pending is None

    def start(self):
        self.task = asyncio.create_task(self._run())
        return self

    async def stop(self):
        if self.task:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass

    async def wait(self, pred, timeout=20):
        end = time.monotonic() + timeout
        while not (self.view is not None and pred(self.view)):
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.player_id}: condition not met; v{self.version}: "
                                   f"{json.dumps(self.view)[:400]}")
            self.changed.clear()
            try:
                async with asyncio.timeout(min(left, 0.5)):   # wait_for of 3.11 can swallow a cancel
                    await self.changed.wait()
            except asyncio.TimeoutError:
                pass
        return self.view

    # -- the connection loop: reconnect, next URL on failure
    async def _run(self):
        await dial(self.bases, self.code, self.token, self._connected, self.rnd, REDIAL)

    async def _connected(self, ws, base):
        self.ws = ws
        self.connects += 1
        self.bases_used.append(base)
        try:
            await self._session(ws)
        finally:
            self.ws = None
            self._lost()

    def _lost(self):
        if self.pending is not None:
            self.pending["fate"] = "unknown"
            self.pending = None

    async def _session(self, ws):
        reader = asyncio.create_task(self._read(ws))
        try:
            while not reader.done():
                await asyncio.sleep(self.rnd.uniform(*self.think))
                if reader.done():
                    break
                if not self.hold and self.pending is None and self.view is not None:
                    await self._act(ws)
                if self.strokes and not self.hold:
                    await self._stroke(ws)
        finally:
            reader.cancel()

    async def _read(self, ws):
        held = Held()       # the drawings this connection was sent (a new one starts empty)
        async for raw in ws:
            f = held.take(json.loads(raw))
            t = f.get("t")
            if t == "view":
                if self.turn.seen(f["d"], f["v"]):
                    self.view_connect = self.connects
            elif t == "error":
                ref = f["d"].get("ref")
                if self.pending is not None and ref == self.pending["id"]:
                    self.pending["error"] = f["d"]["code"]
                elif f["d"]["code"] not in ("time_up", "wrong_phase", "no_game_running", "paused"):
                    self.errors.append(f["d"])
            elif t == "pong":
                p = self.pending
                if p is not None and f["d"].get("c") == p["seq"]:
                    if "error" in p:
                        p["fate"] = "refused"
                        self.turn.refused(p["id"])
                    else:
                        p["fate"] = "acked"
                        p["acked_v"] = self.version
                    self.pending = None
            elif t == "stream":     # a tick's frame acknowledges our accepted strokes
                acked = set(f["d"]["ack"])
                for s in reversed(self.stroke_log):
                    if s["id"] in acked:
                        s["echo"] = time.time()
            self.changed.set()

    async def _act(self, ws):
        action = self.turn.choose(self.rnd, pick=self._pick)
        if action is None:
            return
        self._seq += 1
        entry = {"id": self.turn.ref, "d": action, "v": self.version, "seq": self._seq,
                 "fate": "pending", "template": self.turn.key, "at": time.time()}
        self.pending = entry
        self.sent.append(entry)
        await ws.send(json.dumps({"t": "act", "id": entry["id"], "d": action}))
        await ws.send(json.dumps({"t": "ping", "d": {"c": self._seq}}))

    def _pick(self, view, rnd, failed):
        """A random offered action (bots.choose), not the strategy's: any move may be lost."""
        offered = [a for a in view.get("actions", []) if self._allowed(a)]
        return bots.choose(offered, view["room"].get("language", "en"), rnd, failed)

    def _allowed(self, a):
        # sketch: a board that has a word keeps it (a new word would wipe its strokes)
        if a.get("type") == "draw":
            you = (self.view.get("game") or {}).get("you") or {}
            mine = {b["board"]: b for b in you.get("boards", [])}
            return not (mine.get(a["board"]) or {}).get("word")
        return True

    async def _stroke(self, ws):
        game = (self.view or {}).get("game") or {}
        you = game.get("you") or {}
        boards = [b["board"] for b in you.get("boards", []) if b.get("word")
                  and b["board"] in (you.get("drawable") or [])]
        if not boards or game.get("phase") != "drawing":
            return
        board = self.rnd.choice(boards)
        pts = [[self.rnd.randint(0, 1000) / 1000, self.rnd.randint(0, 1000) / 1000]
               for _ in range(self.rnd.randint(2, 6))]
        ref = uuid.uuid4().hex
        self.stroke_log.append({"id": ref, "board": board, "p": pts, "echo": None,
                                "sent": time.time()})
        await ws.send(json.dumps({"t": "act", "id": ref, "d": {
            "type": "stroke", "board": board, "points": pts, "color": "#000", "width": 4}}))


# ---------------------------------------------------------------- what the database holds

class SqliteLog:
    """Reads the event log, seats and room row straight from a SQLite file (read-only)."""

    def __init__(self, path):
        self.path = path

    def _q(self, sql, args=()):
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=20)
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()

    def room(self, code):
        (pk, version, state), = self._q("SELECT id, version, state FROM rooms_room WHERE code=?", (code,))
        return pk, version, json.loads(state) if state else None

    def actions(self, code):
        pk = self.room(code)[0]
        return [(seat, json.loads(data)) for seat, data in self._q(
            "SELECT seat, data FROM rooms_event WHERE room_id=? AND type='action' ORDER BY id", (pk,))]

    def recent_ids(self, code):
        (recent,), = self._q("SELECT recent FROM rooms_room WHERE code=?", (code,))
        return json.loads(recent) if recent else {}


class PostgresLog(SqliteLog):
    def __init__(self, url):
        self.url = url

    def sessions(self, app: str) -> int:
        """How many sessions of the database a client named `app` (its PGAPPNAME) has."""
        (n,), = self._q("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                        "AND application_name = ?", (app,))
        return n

    def wait_ended(self, app: str, timeout=20) -> None:
        """Wait until the sessions of a killed process (PGAPPNAME `app`) have ended. kill -9
        ends the process, not its sessions: a statement it sent runs on in its backend and
        may still commit (an unlocked game action waiting for the room's row lock, a COMMIT
        in the socket's buffer). Only once they are gone is the fate of its last actions
        final (settle). Synchronous on purpose: no other task runs meanwhile."""
        end = time.monotonic() + timeout
        while self.sessions(app):
            if time.monotonic() > end:
                raise TimeoutError(f"the sessions of {app} did not end")
            time.sleep(0.02)

    def _q(self, sql, args=()):
        import psycopg
        with psycopg.connect(self.url, autocommit=True) as db:
            rows = db.execute(sql.replace("?", "%s"), args).fetchall()
        return [tuple(json.dumps(c) if isinstance(c, (dict, list)) else c for c in r) for r in rows]


def deadlines(log, code) -> int:
    return sum(1 for seat, d in log.actions(code) if seat == "" and d.get("type") == "deadline")


def check_acknowledged(log, code, players) -> int:
    """Every acknowledged action is in the event log, in order, for its seat, and its id is
    among the seat's applied ids; every logged action of a seat was sent by it. Returns the
    number of acknowledged actions checked."""
    by_seat = {}
    for seat, d in log.actions(code):
        by_seat.setdefault(seat, []).append(d)
    recent = log.recent_ids(code)
    checked = 0
    for p in players:
        logged = by_seat.get(p.player_id, [])
        sent = [s for s in p.sent if s["fate"] in ("acked", "unknown", "pending")]
        ids = set(recent.get(p.player_id, []))
        # the log of the seat is the sent actions minus some of unknown fate, in order; an
        # action of unknown fate was applied when `settle` found its id among the seat's last
        # applied ids after a restart, or, if it was not settled, when its id is among them now
        i = 0
        for s in sent:
            if s["fate"] != "acked":
                if not s.get("applied", True):
                    continue
                if "applied" not in s and sent.index(s) >= len(sent) - 32 and s["id"] not in ids:
                    continue
            if i < len(logged) and logged[i] == s["d"]:
                i += 1
            elif s["fate"] == "acked" or s.get("applied"):
                what = "acknowledged" if s["fate"] == "acked" else "applied (settled)"
                raise AssertionError(f"{p.player_id}: {what} {s['d']} (id {s['id']}) is not "
                                     f"in the event log at #{i}: {logged[i:i + 3]}")
        assert i == len(logged), f"{p.player_id}: the log holds actions it never sent: {logged[i:]}"
        acked = p.acked()
        for s in sent[-32:]:
            if s["fate"] == "acked":
                assert s["id"] in ids, f"{p.player_id}: acknowledged id {s['id']} not applied"
        checked += len(acked)
    return checked


def settle(log, code, players) -> None:
    """Right after a restart (players held), decide each action whose socket died before its
    pong (or is dying: its pong will never come): applied if its id is among the seat's last
    applied ids. The server that could have applied it is gone (and so are its database
    sessions: PostgresLog.wait_ended, before this), so the answer cannot change;
    decided later, once the seat has applied 32 more actions, the ids would no longer tell,
    and a lost action that a later one repeats word for word (the same vote sent again after
    reconnecting) would be matched to that one's log entry."""
    recent = log.recent_ids(code)
    for p in players:
        ids = set(recent.get(p.player_id, []))
        for s in p.sent:
            if s["fate"] in ("unknown", "pending") and "applied" not in s:
                s["applied"] = s["id"] in ids     # pending: its socket died with the server


async def quiesce(tv, players, settle=0.3, timeout=15):
    """Hold every player, let the actions in flight finish, and wait until every socket has
    the same newest version and nothing changed for `settle` seconds."""
    for p in players:
        p.hold = True
    end = time.monotonic() + timeout
    last, since = None, time.monotonic()
    while time.monotonic() < end:
        await asyncio.sleep(0.05)
        versions = {tv.version} | {p.version for p in players}
        state = (tuple(sorted(versions)), all(p.quiet() for p in players))
        if state != last:
            last, since = state, time.monotonic()
        elif len(versions) == 1 and state[1] and time.monotonic() - since >= settle:
            return tv.version
    raise TimeoutError(f"no quiet moment: tv v{tv.version}, players "
                       f"{[(p.version, p.pending) for p in players]}")


def release(players):
    for p in players:
        p.hold = False
