"""A game's live progress while its streams run (sketch's ink levels, issue 27), to the TV.

The drawings themselves go only to their drawer (streams.py). A game with a `progress(state)`
hook (pure: a public summary, never a stroke) has it sent to the room's TV sockets as a
`stream` frame with one item `{"t": "progress", "d": <the summary>}`: after a tick with
accepted items, at most once every PROGRESS_SECONDS per room (per process), and only when the
summary differs from the last one sent. The summary is read from the committed state with
the stored items folded in (`absorb`, nothing written), after this process's queue is
flushed; the views carry the same summary, so a TV that connects has it at once.
"""
from __future__ import annotations

import asyncio
import logging
import time

from channels.db import database_sync_to_async

from partyhub.gamekit import TABLE
from partyhub.jsontext import compact
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.relay import fanout
from partyhub.rooms.store import rows, strokes

log = logging.getLogger(__name__)
PROGRESS_SECONDS = 1.0
_due: dict = {}         # code -> the handle of the room's next progress frame
_sent: dict = {}        # code -> (monotonic time of the last frame, its text)
_tasks: set = set()


def changed(code: str) -> None:
    """Stream items of the room were accepted: its TV hears within PROGRESS_SECONDS."""
    if code in _due:
        return
    last = _sent.get(code, (0.0, None))[0]
    wait = max(0.0, last + PROGRESS_SECONDS - time.monotonic())
    _due[code] = asyncio.get_running_loop().call_later(wait, _start, code)


def _start(code: str) -> None:
    _due.pop(code, None)
    now = time.monotonic()
    if len(_sent) > 1000:       # bounded: a room's entry matters for PROGRESS_SECONDS only
        for old in [c for c, (at, _) in _sent.items() if at < now - PROGRESS_SECONDS]:
            del _sent[old]
    _sent[code] = (now, _sent.get(code, (0.0, None))[1])
    task = asyncio.get_running_loop().create_task(send(code))
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def summary(code: str) -> str | None:
    """The room's progress now as the frame's JSON item list, or None (no game with progress
    running, or none now). Sync: call from the database thread."""
    strokes.flush()
    room = rows.read_room(code)
    if room is None or room.phase != "playing" or not room.state:
        return None
    game = registry.get(room.game_id)
    if not hasattr(game, "progress"):
        return None
    state = room.state
    if room.streams_pending:
        state = calls.absorb(game, state, [(seat, data) for _, seat, data in rows.stream_items(room)])
        if state is None:
            return None
    got = calls.progress(game, state)
    if got is None:
        return None
    return compact([{"t": "progress", "d": got}])


async def send(code: str) -> None:
    """The room's progress to its TV sockets (here and in the other processes), if it changed."""
    try:
        items = await database_sync_to_async(summary)(code)
    except Exception:
        log.warning("no progress for room %s", code, exc_info=True)
        return
    if items is None or _sent.get(code, (0.0, None))[1] == items:
        return
    _sent[code] = (_sent.get(code, (time.monotonic(), None))[0], items)
    await fanout.stream(code, (TABLE,), fanout.frame(items))
