"""The storage queue of accepted stream items (relay/streams.py accepts them): written with
one bulk insert every FLUSH_SECONDS, and by every locked write of this process first
(`flush()` runs in the database thread), so a round end absorbs every item accepted here."""
from __future__ import annotations

import asyncio
import threading

from channels.db import database_sync_to_async

from partyhub.rooms.store import store

FLUSH_SECONDS = 0.05
_queue: list = []
_lock = threading.Lock()
_task = {"task": None}


def push(room_pk: int, game_no: int, seat: str, data: dict) -> None:
    with _lock:
        _queue.append((room_pk, game_no, seat, data))
    task = _task["task"]
    loop = asyncio.get_running_loop()
    if task is None or task.done() or task.get_loop() is not loop:
        _task["task"] = loop.create_task(_flusher())


def flush() -> int:
    """Store every queued item (sync; call from the database thread). Returns how many."""
    with _lock:
        items = _queue[:]
        _queue.clear()
    if items:
        store.BACKEND.add_items(items)
    return len(items)


async def _flusher() -> None:
    while True:
        await asyncio.sleep(FLUSH_SECONDS)
        if _queue:
            await database_sync_to_async(flush)()
