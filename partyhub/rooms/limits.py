"""Rate limits: a token bucket per socket, a sliding window per address for joins; the
request-body limit a view names for itself (read by partyhub/edge.py before the body)."""
from __future__ import annotations

import time
from collections import defaultdict, deque

BODY_LIMIT = ("body_bytes", "body_too_large")   # (PARTYHUB_LIMITS key, error code): any path


def body_limit(setting: str, code: str):
    """Mark a view as accepting bodies up to PARTYHUB_LIMITS[setting], refused with `code`."""
    def mark(view):
        view.body_limit = (setting, code)
        return view
    return mark


class Bucket:
    """Allows `rate` per second sustained with bursts up to `burst`."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Window:
    """At most `limit` events per `seconds` per key (per process)."""

    def __init__(self, limit: int, seconds: float = 60.0):
        self.limit, self.seconds = limit, seconds
        self.hits: dict = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        q = self.hits[key]
        while q and q[0] <= now - self.seconds:
            q.popleft()
        if len(q) >= self.limit:
            return False
        q.append(now)
        if len(self.hits) > 10000:
            for k in [k for k, v in self.hits.items() if not v][:5000]:
                del self.hits[k]
        return True
