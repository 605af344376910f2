"""Rate limits: a token bucket per socket, a sliding window per address for joins and rooms;
the request-body limit a view names for itself (read by partyhub/edge.py before the body);
the client's address as the limits see it.

`window()` is the one place that picks where a window counts: in this process, or in Redis
when REDIS_URL is set, so that every web process behind the proxy shares one count.
"""
from __future__ import annotations

import logging
import secrets
import time
from collections import OrderedDict, deque

log = logging.getLogger(__name__)
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
