"""Shared helpers for the reliability tests (fuzz, abuse, races) against a real daphne.

- `LoopThread`: one asyncio loop in a background thread, so that synchronous code (a
  Hypothesis test body) can drive live sockets.
- `Sock`: a raw protocol socket that records every frame and offers a *barrier*: a ping
  whose pong proves that everything the server sent this socket before it has arrived
  (a consumer handles its frames one at a time, in order).
- `documented_codes(game)`: the error codes named in docs/protocol.md and docs/games/<game>.md.
- `server_errors(daphne)`: tracebacks / 5xx lines in a daphne log.
"""
from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import threading
import time
import uuid
from pathlib import Path

import websockets

from partyhub.blobs import Held
from tests.liveserver import ROOT

DOCS = ROOT / "docs"
CODE = re.compile(r"`([a-z][a-z0-9_]*)`")


def _section(text: str, start: str) -> str:
    i = text.find(start)
    if i < 0:
        return ""
    rest = text[i + len(start):]
    end = rest.find("\n#")
    return rest if end < 0 else rest[:end]


def protocol_codes() -> set:
    """Codes of the socket and of the room actions' refusals in docs/protocol.md."""
    text = (DOCS / "protocol.md").read_text()
    codes = set(CODE.findall(_section(text, "### Error codes of the socket")))
    room = _section(text, "### Room actions")
    for line in room.splitlines():
        cells = line.split("|")
        if len(cells) > 3:
            codes |= set(CODE.findall(cells[3]))
    return codes - {"t", "d", "id", "type"}


def game_codes(game: str) -> set:
    """The rejection codes listed in docs/games/<game>.md (its "Rejection codes" part)."""
    text = (DOCS / "games" / f"{game}.md").read_text()
    i = text.find("Rejection codes")
    assert i >= 0, f"docs/games/{game}.md has no 'Rejection codes' part"
    rest = text[i:]
    heading = text[max(0, i - 3):i] == "## "
    end = rest.find("\n## ") if heading else rest.find("\n\n")
    part = rest if end < 0 else rest[:end]
    return set(CODE.findall(part))


NOT_CODES = {"act", "clue", "race", "t", "d", "id", "type"}   # backticked words that are no codes


def documented_codes(game: str | None) -> set:
    return (protocol_codes() | (game_codes(game) if game else set())) - NOT_CODES


def server_errors(daphne) -> list:
    """Lines of the server log that show an exception that reached the ASGI layer (the
    socket is closed with 1011) or a 5xx answer."""
    text = daphne.log.read_text(errors="replace") if daphne.log.exists() else ""
    return [line for line in text.splitlines()
            if "Exception inside application" in line or re.search(r'" 5\d\d ', line)]


def rules_crashes(daphne) -> list:
    """The platform refused a frame because a game's rules raised on it (calls.rules_call):
    [(game.method, exception line)]."""
    text = daphne.log.read_text(errors="replace") if daphne.log.exists() else ""
    out, current = [], None
    for line in text.splitlines():
        # "game rules raised: jinx.apply(...)" (calls.rules_call) and the audience's
        # "game rules raised: jinx.audience_check" (partyhub/rooms/relay/audience.py)
        m = re.match(r"game rules raised: ([\w.]+)", line)
        if m:
            current = m.group(1)
        elif current and re.match(r"^[A-Za-z_.]+(Error|Exception)\b", line):
            out.append((current, line.strip()))
            current = None
    return out


def db_room_state(data_dir, code: str):
    """The room's committed state, read straight from the server's SQLite file."""
    con = sqlite3.connect(f"file:{Path(data_dir) / 'partyhub.sqlite3'}?mode=ro", uri=True, timeout=10)
    try:
        row = con.execute("SELECT state, version, phase FROM rooms_room WHERE code = ?", (code,)).fetchone()
    finally:
        con.close()
    return (json.loads(row[0]) if row[0] else None), row[1], row[2]


class LoopThread:
    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro, timeout=120):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Sock:
    """A live protocol socket: every frame kept in order; views tracked; barriers."""

    def __init__(self, base, code, token=None, name=""):
        self.url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}" + (f"?token={token}" if token else "")
        self.name = name
        self.frames: list = []
        self.view, self.version = None, -1
        self.held = Held()          # the drawings this connection was sent (blobs frames)
        self.closed = None          # close code once the server closed the socket
        self.cond = None
        self.sent_stream = []       # monotonic times of stream items sent (to pace them)

    async def open(self, timeout=10, **kw):
        self.cond = asyncio.Condition()
        self.ws = await websockets.connect(self.url, max_size=2 ** 23, open_timeout=timeout,
                                           ping_interval=None, **kw)
        self.reader = asyncio.create_task(self._read())
        await self.wait(lambda: self.view is not None, timeout)
        return self

    async def _read(self):
        try:
            async for raw in self.ws:
                f = self.held.take(json.loads(raw))
                self.frames.append(f)
                if f["t"] == "view" and f["v"] > self.version:
                    self.version, self.view = f["v"], f["d"]
                async with self.cond:
                    self.cond.notify_all()
        except websockets.ConnectionClosed as e:
            self.closed = e.rcvd.code if e.rcvd else -1
        finally:
            if self.closed is None:
                self.closed = -1
            async with self.cond:
                self.cond.notify_all()

    async def wait(self, pred, timeout=10):
        async with self.cond:
            try:
                async with asyncio.timeout(timeout):   # wait_for of 3.11 can swallow a cancel
                    await self.cond.wait_for(lambda: pred() or self.closed is not None)
            except asyncio.TimeoutError:
                raise TimeoutError(f"{self.name}: condition not met; view v{self.version}")
        if not pred():
            raise AssertionError(f"{self.name}: socket closed ({self.closed}) while waiting")

    async def send(self, raw):
        await self.ws.send(raw)

    async def barrier(self, timeout=20) -> int:
        """Ping and wait for its pong; returns the index of the pong in `frames`."""
        c = uuid.uuid4().int % 10 ** 15
        start = len(self.frames)
        await self.ws.send(json.dumps({"t": "ping", "d": {"c": c}}))
        found = {}

        def seen():
            for i in range(start, len(self.frames)):
                f = self.frames[i]
                if f["t"] == "pong" and f["d"].get("c") == c:
                    found["i"] = i
                    return True
            return False
        await self.wait(seen, timeout)
        return found["i"]

    async def pace_stream(self, per_second=40.0):
        """Keep this socket's stream items under the server's stream budget (60/s)."""
        now = time.monotonic()
        self.sent_stream = [t for t in self.sent_stream if t > now - 1.0]
        if len(self.sent_stream) >= per_second:
            await asyncio.sleep(self.sent_stream[0] + 1.0 - now + 0.001)
        self.sent_stream.append(time.monotonic())

    async def close(self):
        try:
            await self.ws.close()
        except Exception:
            pass
