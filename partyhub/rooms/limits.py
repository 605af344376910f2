"""Rate limits: a token bucket per socket, a sliding window per address for joins; the
client's address as the limits see it."""
from __future__ import annotations

import time
from collections import defaultdict, deque


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

    def _recent(self, key: str, now: float) -> deque:
        q = self.hits[key]
        while q and q[0] <= now - self.seconds:
            q.popleft()
        return q

    def full(self, key: str) -> bool:
        """Whether `key` has used up its limit, without counting an event."""
        return key in self.hits and len(self._recent(key, time.monotonic())) >= self.limit

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        q = self._recent(key, now)
        if len(q) >= self.limit:
            return False
        q.append(now)
        if len(self.hits) > 10000:
            for k in [k for k, v in self.hits.items() if not v][:5000]:
                del self.hits[k]
        return True


def client_address(request) -> str:
    """The address a request comes from: behind the compose proxy (TRUST_PROXY=1) the last
    X-Forwarded-For entry, which the proxy wrote; else the socket's peer."""
    from django.conf import settings
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if forwarded and settings.PARTYHUB_TRUST_PROXY:
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "?")
