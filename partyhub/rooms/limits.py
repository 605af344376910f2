"""Rate limits: a token bucket per socket, a sliding window per address for joins and rooms.

`window()` is the one place that picks where a window counts: in this process, or in Redis
when REDIS_URL is set, so that every web process behind the proxy shares one count.
"""
from __future__ import annotations

import logging
import secrets
import time
from collections import defaultdict, deque

log = logging.getLogger(__name__)


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


# Drop what fell out of the window, refuse when full, else note this hit: one atomic step in
# Redis, on Redis's own clock (every process agrees on "now").
_SLIDE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local span = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - span)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
redis.call('PEXPIRE', KEYS[1], span)
return 1
"""


class RedisWindow:
    """Window's twin counted in Redis (a sorted set of hit times per key). While Redis cannot
    be reached it counts in this process, as Window does, rather than refuse everyone."""

    def __init__(self, limit: int, seconds: float = 60.0, *, name: str = "window", url: str = ""):
        import redis
        self.limit, self.seconds, self.name = limit, seconds, name
        self.client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self.slide = self.client.register_script(_SLIDE)
        self.local = Window(limit, seconds)

    def allow(self, key: str) -> bool:
        import redis
        try:
            return bool(self.slide(keys=[f"partyhub:limit:{self.name}:{key}"],
                                   args=[int(self.seconds * 1000), self.limit, secrets.token_hex(4)]))
        except redis.RedisError as e:
            log.warning("limit %s counts in this process: Redis is unreachable (%s)", self.name, e)
            return self.local.allow(key)


def window(name: str, limit: int, seconds: float = 60.0) -> Window | RedisWindow:
    """The window for one limit: shared through Redis when REDIS_URL is set, else per process."""
    from django.conf import settings
    if settings.REDIS_URL:
        return RedisWindow(limit, seconds, name=name, url=settings.REDIS_URL)
    return Window(limit, seconds)
