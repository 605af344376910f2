"""The bots' client: a player that joins through the public protocol (HTTP) and plays over
its socket, choosing as bots/turn.py does; and `dial`, the reconnecting loop of every bot
client that holds a socket (this one, and the crash tests' clients).

`python manage.py bots <code> --count N` runs N of them; the lobby's "add bot" starts one
inside the server process (`spawn`). They never see more than a phone would.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass

import websockets
from django.conf import settings

from partyhub.blobs import Held
from partyhub.bots.turn import Turn
from partyhub.rooms.core import botpass

log = logging.getLogger(__name__)
CLOSE_REFUSED = 4003     # transport/consumers.py: the seat is gone (kicked)
STROKE_GAP = 0.06        # seconds between two stream actions: well inside the stream budget
NAMES = ["Robo", "Beep", "Chip", "Bolt", "Pixel", "Gizmo", "Sprocket", "Widget", "Nano", "Zippy",
         "Cog", "Servo", "Byte", "Dot", "Echo", "Turbo"]
_tasks: set = set()


@dataclass(frozen=True)
class Redial:
    """How `dial` reconnects. The pause before the next try is `first` seconds, doubled after
    each try up to `most` (back to `first` once a socket opened), plus up to `spread` times it
    at random. `drops`: the errors that mean "try again"; a refused handshake (a token that
    opens nothing) ends the loop unless `drops` holds it."""
    first: float = 0.5
    most: float = 10
    spread: float = 1.0
    open_timeout: float = 10
    drops: tuple = (OSError, websockets.ConnectionClosed, asyncio.TimeoutError)


async def dial(bases: list, code: str, token: str, session, rnd: random.Random,
               redial: Redial = Redial(), seconds: float | None = None) -> str:
    """Hold a socket to the room as the seat of `token`, trying the `bases` in turn (the next
    one after each socket or try), until `session(ws, base)` returns a reason (its socket
    closed: None, connect again), the handshake is refused ("refused") or `seconds` have
    passed ("timeout"; None: never)."""
    loop = asyncio.get_running_loop()
    end = None if seconds is None else loop.time() + seconds
    pause, tries = redial.first, 0
    while end is None or loop.time() < end:
        base = bases[tries % len(bases)]
        tries += 1
        url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}?token={token}"
        try:
            async with websockets.connect(url, max_size=2 ** 22, open_timeout=redial.open_timeout) as ws:
                pause = redial.first
                reason = await session(ws, base)
                if reason:
                    return reason
        except redial.drops:
            pass
        except websockets.InvalidStatus:
            return "refused"
        await asyncio.sleep(pause + rnd.random() * pause * redial.spread)
        pause = min(pause * 2, redial.most)
    return "timeout"


async def play(base: str, code: str, token: str, rnd: random.Random,
               think=(0.3, 1.5), max_seconds: float = 4 * 3600) -> str:
    """Play as the seat of `token` until kicked, the room goes away, or time runs out.
    think: the range of seconds the bot waits before it acts, or a function of the view that
    gives it (a screenshot tool holds a short moment so); a newer view that it gives another
    range starts the wait again, from that view."""
    return await dial([base], code, token, lambda ws, _: session(ws, rnd, think), rnd,
                      seconds=max_seconds)


async def session(ws, rnd: random.Random, think) -> str | None:
    """One socket of a playing bot, until it closes: None (connect again) or "kicked"."""
    return await Session(ws, rnd, think).run()


class Session:
    """A bot on one socket: it takes each frame as it comes (`_take`), and acts a think time
    after it first had something to do, on the newest view (`_act`). Frames that arrive
    meanwhile do not put it off: in a busy room (strokes streaming, others chatting) a bot
    that waited for a quiet moment would never get its turn played."""

    def __init__(self, ws, rnd: random.Random, think):
        self.ws, self.rnd, self.think = ws, rnd, think
        self.turn = Turn()
        self.memory: dict = {}      # the game strategy's own notes (what it has seen), per socket
        self.held = Held()          # the drawings this socket was sent (partyhub/blobs.py)
        self.act_at: float | None = None    # when it acts (loop time), once it has something to do
        self.pace = None                    # the think range act_at was drawn from

    async def run(self) -> str | None:
        while True:
            try:
                raw = await self._next_frame()
            except websockets.ConnectionClosed as e:
                return "kicked" if e.rcvd and e.rcvd.code == CLOSE_REFUSED else None
            if raw is None:             # its think time is up
                self.act_at = None
                await self._act()
            elif self._take(raw) == "kicked":
                return "kicked"

    async def _next_frame(self) -> str | None:
        """The next frame, or None when the think time runs out first."""
        loop = asyncio.get_running_loop()
        if self.act_at is None and self.turn.due():
            self.pace = self.think(self.turn.view) if callable(self.think) else self.think
            self.act_at = loop.time() + self.rnd.uniform(*self.pace)
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancel
            async with asyncio.timeout(None if self.act_at is None else max(0.0, self.act_at - loop.time())):
                return await self.ws.recv()
        except asyncio.TimeoutError:
            return None

    def _take(self, raw) -> str | None:
        """A frame: a newer view, the refusal of its action (it chooses again), or "kicked"."""
        frame = self.held.take(json.loads(raw))
        if frame.get("t") == "kicked":
            return "kicked"
        if frame.get("t") == "view":
            if self.turn.seen(frame["d"], frame.get("v", 0)) and callable(self.think) \
                    and self.think(frame["d"]) != self.pace:
                self.act_at = None      # a view that asks another pace: it thinks again from here
        elif frame.get("t") == "error":
            self.turn.refused((frame.get("d") or {}).get("ref"))
        return None

    async def _act(self) -> None:
        """Its drawing first (all its strokes, once), else one action of the newest view."""
        if not self.turn.due():
            return
        strokes = self.turn.strokes()
        for move in strokes:
            await self._send(uuid.uuid4().hex, move)
            await asyncio.sleep(STROKE_GAP)
        if strokes:
            return
        action = self.turn.choose(self.rnd, self.memory)
        if action is not None:
            await self._send(self.turn.ref, action)

    async def _send(self, ref: str, action: dict) -> None:
        await self.ws.send(json.dumps({"t": "act", "id": ref, "d": action}))


def _post(url: str, body: dict) -> tuple[int, dict]:
    """(status, JSON body). A body that is not a JSON object (a proxy's or Django's own error
    page) becomes {"error": {"code": None, "message": its text}}."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        answer = json.loads(raw or b"{}")
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", raw.decode("utf-8", "replace"))).strip()
        answer = {"error": {"code": None, "message": text[:200]}}
    return status, answer


def _refusal(status: int, body: dict) -> str:
    """A server's refusal as a person reads it: "HTTP 400 host_not_allowed: This server ..."."""
    error = body.get("error") if isinstance(body.get("error"), dict) else {}
    said = ": ".join(str(p) for p in (error.get("code"), error.get("message")) if p)
    return f"HTTP {status}" + (f" {said}" if said else "")


async def join(base: str, code: str, rnd: random.Random, bot_pass: str | None = None) -> dict:
    """Join the room under a free bot name; returns {"player_id", "token", "name"}. With the
    server's bot pass (partyhub/rooms/core/botpass.py) the seat is flagged a bot: never VIP, shown
    as a bot; without it (a bot run against another server) it joins like a person."""
    names = NAMES[:]
    rnd.shuffle(names)
    for attempt in range(len(names) * 3):
        name = names[attempt % len(names)] + ("" if attempt < len(names) else f" {attempt}")
        status, body = await asyncio.to_thread(_post, f"{base}/api/rooms/{code}/join",
                                           {"name": name, **({"bot_pass": bot_pass} if bot_pass else {})})
        if status == 201:
            return {**body, "name": name}
        code_ = (body.get("error") or {}).get("code")
        if code_ not in ("name_taken", "name_kicked"):
            raise RuntimeError(f"join refused: {_refusal(status, body)}")
    raise RuntimeError("no free bot name")





async def run(base: str, code: str, seed: int | None = None, think=(0.3, 1.5),
              bot_pass: str | None = None) -> str:
    rnd = random.Random(seed)
    seat = await join(base, code, rnd, bot_pass)
    return await play(base, code, seat["token"], rnd, think)


def spawn(code: str) -> None:
    """Start one bot for a room inside this server process (the lobby's "add bot")."""
    task = asyncio.get_running_loop().create_task(
        run(settings.INTERNAL_URL, code, bot_pass=botpass.for_room(code)))
    _tasks.add(task)
    task.add_done_callback(_done)


def _done(task: asyncio.Task) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("bot stopped: %s", task.exception())
