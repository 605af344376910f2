"""Rate limits: a token bucket per socket; per-address windows and counts for the doors
(joins, new rooms, failed room lookups, anonymous sockets, open sockets); the request-body
limit a view names for itself (read by partyhub/edge.py before the body); and the client's
address as every limit sees it (`client_address`, for HTTP requests and socket scopes alike).

The doors' counting is behind small functions (`lookup_allowed`, `lookup_failed`,
`audience_allowed`, `open_socket`/`close_socket`) over `window(name, ...)` and `Count`, so
that they can be shared between processes (Redis) without changing their callers:
the windows count in Redis when REDIS_URL or REDIS_SENTINELS is set (every process shares one count); the open
socket counts are each process's own (docs/security.md).
"""
from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict, deque
from functools import cache

from django.conf import settings

from partyhub import redisconf

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
    kept: past that, keys with no event in the window go first, then the least recently hit.
    Safe from the event loop and request threads alike."""

    def __init__(self, limit: int, seconds: float = 60.0, max_keys: int = 10000):
        self.limit, self.seconds, self.max_keys = limit, seconds, max_keys
        self.hits: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Count one event for `key`, unless it has used up its limit (then False)."""
        with self._lock:
            q = self._recent(key, time.monotonic(), make=True)
            if len(q) >= self.limit:
                return False
            q.append(time.monotonic())
            return True

    def full(self, key: str) -> bool:
        """Whether `key` has used up its limit, without counting an event."""
        with self._lock:
            q = self._recent(key, time.monotonic(), make=False)
            return q is not None and len(q) >= self.limit

    def _recent(self, key: str, now: float, make: bool):
        q = self.hits.get(key)
        if q is None:
            if not make:
                return None
            if len(self.hits) >= self.max_keys:
                self._prune(now)
            q = self.hits[key] = deque()
        self.hits.move_to_end(key)
        while q and q[0] <= now - self.seconds:
            q.popleft()
        return q

    def _prune(self, now: float) -> None:
        for k in [k for k, v in self.hits.items() if not v or v[-1] <= now - self.seconds]:
            del self.hits[k]
        while len(self.hits) >= self.max_keys:
            self.hits.popitem(last=False)


class Count:
    """How many of something are open per key, at most `limit` (per process): sockets."""

    def __init__(self, limit: int):
        self.limit = limit
        self.open: dict = {}

    def enter(self, key: str) -> bool:
        n = self.open.get(key, 0)
        if n >= self.limit:
            return False
        self.open[key] = n + 1
        return True

    def leave(self, key: str) -> None:
        n = self.open.get(key, 0) - 1
        if n > 0:
            self.open[key] = n
        else:
            self.open.pop(key, None)


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


# How many hits are in the window now, without noting one.
_COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('ZCARD', KEYS[1])
"""


class RedisWindow:
    """Window's twin counted in Redis (a sorted set of hit times per key). While Redis cannot
    be reached it counts in this process, as Window does, rather than refuse everyone."""

    def __init__(self, limit: int, seconds: float = 60.0, *, name: str = "window", target=None):
        self.limit, self.seconds, self.name = limit, seconds, name
        self.client = redisconf.client(target or redisconf.target(), socket_timeout=1, socket_connect_timeout=1)
        self.slide = self.client.register_script(_SLIDE)
        self.count = self.client.register_script(_COUNT)
        self.local = Window(limit, seconds)

    def _key(self, key: str) -> str:
        return f"partyhub:limit:{self.name}:{key}"

    def allow(self, key: str) -> bool:
        import redis
        try:
            return bool(self.slide(keys=[self._key(key)],
                                   args=[int(self.seconds * 1000), self.limit, secrets.token_hex(4)]))
        except redis.RedisError as e:
            log.warning("limit %s counts in this process: Redis is unreachable (%s)", self.name, e)
            return self.local.allow(key)

    def full(self, key: str) -> bool:
        """Whether `key` has used up its limit, without counting an event."""
        import redis
        try:
            return int(self.count(keys=[self._key(key)], args=[int(self.seconds * 1000)])) >= self.limit
        except redis.RedisError:
            return self.local.full(key)


def window(name: str, limit: int, seconds: float = 60.0) -> Window | RedisWindow:
    """The window for one limit: shared through Redis (keyed by `name`) when Redis is set
    (REDIS_URL or REDIS_SENTINELS), so every web process behind the proxy counts one count;
    else per process."""
    target = redisconf.target()
    if target:
        return RedisWindow(limit, seconds, name=name, target=target)
    return Window(limit, seconds)


# ---------------------------------------------------------------- the client's address

def client_address(source) -> str:
    """The address a request (Django) or a socket (its ASGI scope) comes from: behind the
    compose proxy (TRUST_PROXY=1) the last X-Forwarded-For entry, which the proxy wrote;
    else the connection's peer."""
    if isinstance(source, dict):
        forwarded = dict(source.get("headers") or ()).get(b"x-forwarded-for", b"").decode("latin-1")
        peer = (source.get("client") or ("?",))[0]
    else:
        forwarded = source.META.get("HTTP_X_FORWARDED_FOR", "")
        peer = source.META.get("REMOTE_ADDR", "?")
    if forwarded and settings.PARTYHUB_TRUST_PROXY:
        return forwarded.split(",")[-1].strip()
    return peer or "?"


# ---------------------------------------------------------------- the doors

@cache
def _doors() -> dict:
    limits = settings.PARTYHUB_LIMITS
    return {"joins": window("joins", limits["joins_per_minute"]),
            "rooms": window("rooms", limits["rooms_per_minute"]),
            "lookups": window("lookups", limits["lookups_per_minute"]),
            "audience": window("audience", limits["audience_per_minute"]),
            "renders": window("renders", limits["renders_per_minute"]),
            "address": Count(limits["sockets_per_address"]),
            "room": Count(limits["sockets_per_room"])}


def join_allowed(address: str) -> bool:
    """Count a join (or a request for a seat) from this address; False past its limit."""
    return _doors()["joins"].allow(address)


def room_allowed(address: str) -> bool:
    """Count a new room from this address; False past its limit."""
    return _doors()["rooms"].allow(address)


def lookup_allowed(address: str) -> bool:
    """Whether this address may look a room up by its code: not while it has used up its
    failed lookups (probing codes costs hours, docs/security.md)."""
    return not _doors()["lookups"].full(address)


def lookup_failed(address: str) -> None:
    """A lookup from this address named no living room (room_not_found, room_closed)."""
    _doors()["lookups"].allow(address)


def audience_allowed(address: str) -> bool:
    """Count an anonymous (audience) socket from this address; False past its limit."""
    return _doors()["audience"].allow(address)


def render_allowed(address: str) -> bool:
    """Count a gallery picture made for this address (partyhub/keepsakes/renders.py); False
    past its limit."""
    return _doors()["renders"].allow(address)


def open_socket(address: str, code: str) -> str | None:
    """Take a socket's places (one of its address's, one of its room's); None when it may
    open, else the error code it is refused with (its places are then not taken)."""
    doors = _doors()
    if not doors["address"].enter(address):
        return "too_many_sockets"
    if not doors["room"].enter(code):
        doors["address"].leave(address)
        return "room_crowded"
    return None


def close_socket(address: str, code: str) -> None:
    """Give back the places `open_socket` took."""
    doors = _doors()
    doors["address"].leave(address)
    doors["room"].leave(code)


def reset() -> None:
    """Forget every door's counts (tests; the settings are read again)."""
    _doors.cache_clear()
