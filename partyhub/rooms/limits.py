"""Rate limits: a token bucket per socket, a sliding window per address for joins; the
request-body limit a view names for itself (read by partyhub/edge.py before the body); the
client's address as the limits see it."""
from __future__ import annotations

import time
from collections import OrderedDict, deque

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
    """At most `limit` events per `seconds` per key (per process). At most `max_keys` keys are
    kept: past that, keys with no event in the window go first, then the least recently hit."""

    def __init__(self, limit: int, seconds: float = 60.0, max_keys: int = 10000):
        self.limit, self.seconds, self.max_keys = limit, seconds, max_keys
        self.hits: OrderedDict = OrderedDict()

    def _recent(self, key: str, now: float) -> deque:
        """The key's events in the window (a key seen for the first time is kept, bounded)."""
        q = self.hits.get(key)
        if q is None:
            if len(self.hits) >= self.max_keys:
                self._prune(now)
            q = self.hits[key] = deque()
        self.hits.move_to_end(key)
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
        return True

    def _prune(self, now: float) -> None:
        for k in [k for k, v in self.hits.items() if not v or v[-1] <= now - self.seconds]:
            del self.hits[k]
        while len(self.hits) >= self.max_keys:
            self.hits.popitem(last=False)


def client_address(request) -> str:
    """The address a request comes from: behind the compose proxy (TRUST_PROXY=1) the last
    X-Forwarded-For entry, which the proxy wrote; else the socket's peer."""
    from django.conf import settings
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if forwarded and settings.PARTYHUB_TRUST_PROXY:
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "?")
