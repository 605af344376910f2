"""Fires due deadlines through the write path.

Deadlines live in the room row (`deadline_at`, wall ms). Every web process runs this loop;
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

log = logging.getLogger(__name__)
_task: asyncio.Task | None = None


def ensure_started() -> None:
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_run())


def due_codes(now: int) -> list[str]:
    from partyhub.rooms.models import Room
    return list(Room.objects.filter(deadline_at__lte=now, phase="playing", paused_at__isnull=True)
                .values_list("code", flat=True)[:200])


def fire_due(now: int | None = None) -> list:
    """Fire every due deadline once (sync); returns the committed changes to publish."""
    from partyhub.rooms import services
    now = services.wall_ms() if now is None else now
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


GROUP_REFRESH_SECONDS = 2.0


async def _run() -> None:
    from partyhub.rooms import fanout
    from partyhub.rooms.publish import heal, publish
    loop = asyncio.get_running_loop()
    refreshed = loop.time()
    while True:
        try:
            for change in await database_sync_to_async(fire_due)():
                await publish(change)
            if loop.time() - refreshed >= GROUP_REFRESH_SECONDS:
                refreshed = loop.time()
                await fanout.refresh()      # room groups survive a Redis restart
                await heal()                # and frames lost meanwhile are sent again
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timekeeper pass failed")
        await asyncio.sleep(settings.TIMEKEEPER_INTERVAL)
