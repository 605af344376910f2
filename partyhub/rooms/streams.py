"""Stream items (drawing strokes): relayed at once, stored in batches, absorbed under the lock.

The consumer relays an accepted item to its viewers first and queues it here; a flusher
writes the queue with one bulk insert every FLUSH_SECONDS. Every locked write of this
process flushes the queue first (`flush()` runs in the database thread), so a round end
sees every stroke this process relayed. What a crash can lose is the last FLUSH_SECONDS of
strokes, which the drawer's phone still shows and can redraw.
"""
from __future__ import annotations

import asyncio
import threading

from channels.db import database_sync_to_async

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
    from partyhub.rooms.models import StreamItem
    with _lock:
        items = _queue[:]
        _queue.clear()
    if items:
        StreamItem.objects.bulk_create([StreamItem(room_id=r, game_no=g, seat=s, data=d)
                                        for r, g, s, d in items])
    return len(items)


async def _flusher() -> None:
    while True:
        await asyncio.sleep(FLUSH_SECONDS)
        if _queue:
            await database_sync_to_async(flush)()
