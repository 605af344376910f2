"""A frame that follows a count which may change many times a second (the audience's tally,
the number watching) goes out at most once per period per room."""
from __future__ import annotations

import asyncio
import time


class Coalesced:
    """`changed(code)`: `send(code)` (a coroutine function) runs within `seconds`, once for
    however many changes came meanwhile, and never sooner than `seconds` after the last."""

    def __init__(self, seconds: float, send):
        self.seconds, self.send = seconds, send
        self._due: dict = {}        # code -> the handle of the room's next send
        self._sent: dict = {}       # code -> monotonic time of the room's last send
        self._tasks: set = set()

    def changed(self, code: str) -> None:
        if code in self._due:
            return
        wait = max(0.0, self._sent.get(code, 0.0) + self.seconds - time.monotonic())
        self._due[code] = asyncio.get_running_loop().call_later(wait, self._start, code)

    def _start(self, code: str) -> None:
        self._due.pop(code, None)
        now = time.monotonic()
        if len(self._sent) > 1000:      # bounded: a room's last send matters for `seconds` only
            for old in [c for c, at in self._sent.items() if at < now - self.seconds]:
                del self._sent[old]
        self._sent[code] = now
        task = asyncio.get_running_loop().create_task(self.send(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
