"""The wall clock: milliseconds since the epoch, as every row and event stores time."""
from __future__ import annotations

import time


def wall_ms() -> int:
    return int(time.time() * 1000)
