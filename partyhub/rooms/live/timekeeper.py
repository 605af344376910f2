"""Fires due deadlines through the write path.

Deadlines live in the room row (`deadline_at`, wall ms: a game's timer, or the first expiry
of a claim of a seat). Every web process runs this loop;
`room_tick` re-checks the deadline under the room lock, so a deadline fires once however
many processes see it, and a deadline that fell due while the server was down fires at
the first pass after the restart.
"""
from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from partyhub import metrics
from partyhub.rooms.live.publish import heal, publish
from partyhub.rooms.relay import fanout
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock
from partyhub.rooms.write import lifecycle
from partyhub.rooms.write import services

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None


def ensure_started() -> None:
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_run())


def due_codes(now: int) -> list[str]:
    # deadline_at is null while paused, unless a claim is waiting (clock.due_at)
    return store.find("due", now)


def fire_due(now: int | None = None) -> list:
    """Fire every due deadline once (sync); returns the committed changes to publish."""
    now = clock.wall_ms() if now is None else now
    changes = []
    for code in due_codes(now):
        try:
            change = services.room_tick(code, now)
        except Exception:   # one broken room must not stop the clock of the others
            log.exception("deadline of room %s failed", code)
            continue
        if change is not None:
            metrics.timer_fired()
            changes.append(change)
    return changes


GROUP_REFRESH_SECONDS = 2.0     # also how often the caches are swept
LIFECYCLE_SECONDS = 30.0        # how often idle rooms are closed and old ones purged


class Every:
    """Due once every `seconds` of the loop's clock (the first time at once)."""

    def __init__(self, seconds: float):
        self.seconds, self.last = seconds, None

    def due(self, now: float) -> bool:
        if self.last is not None and now - self.last < self.seconds:
            return False
        self.last = now
        return True


def _upkeep_sync(local: list, beat: bool, lifecycle_due: bool) -> None:
    """The database side of upkeep (one trip to a database thread)."""
    if beat:
        lifecycle.heartbeat(local)
    if lifecycle_due:
        closed, purged = lifecycle.maintain()
        if closed or purged.rooms:
            log.info("rooms closed: %d, purged: %d", closed, purged.rooms)


async def _run() -> None:
    loop = asyncio.get_running_loop()
    refresh, beat = Every(GROUP_REFRESH_SECONDS), Every(lifecycle.heartbeat_seconds())
    cycle = Every(min(LIFECYCLE_SECONDS, lifecycle.heartbeat_seconds()))
    while True:
        try:
            for change in await database_sync_to_async(fire_due)():
                await publish(change)
            now = loop.time()
            if refresh.due(now):
                await fanout.refresh()      # room groups survive a Redis restart
                await heal()                # and frames lost meanwhile are sent again
                store.sweep(fanout.rooms())  # forget the rooms nobody here uses
            beating, cycling = beat.due(now), cycle.due(now)
            if beating or cycling:
                await database_sync_to_async(_upkeep_sync)(fanout.rooms(), beating, cycling)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timekeeper pass failed")
        await asyncio.sleep(settings.TIMEKEEPER_INTERVAL)
