"""Where Redis is, and the one way to a client of it (the channel layer, the tallies, the
per-address windows and the health check all go through here).

Two ways to name it, from the environment (README, "Configuration"):
- `REDIS_URL` alone: one server, `redis://[:password@]host:port/db`.
- `REDIS_SENTINELS` ("host:port,host:port") with `REDIS_SENTINEL_MASTER` (the master's name in
  the sentinels' configuration): Redis Sentinel. Every new connection asks a sentinel which
  server is the master now, so after a failover the clients reconnect to the promoted replica.
  `REDIS_URL`, when set too, gives the master's password and database number only
  (`redis://:secret@/2`); its host and port are not used.

`parse` is pure (settings.py calls it before Django is set up), `target` reads the settings as
they are now (tests change them); `client`, `async_client` and
`channel_host` build what each user needs from the same `Target`, with the caller's timeouts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from django.conf import settings

SENTINEL_PORT = 26379


class RedisSettingsError(ValueError):
    """The Redis settings contradict each other or do not parse."""


@dataclass(frozen=True)
class Target:
    url: str = ""                                   # one server (no sentinels)
    sentinels: tuple[tuple[str, int], ...] = ()     # (host, port) of each sentinel
    master: str = ""                                # the master's name the sentinels watch
    db: int = 0
    password: str | None = field(default=None, repr=False)
    username: str | None = None

    def __bool__(self) -> bool:
        return bool(self.url or self.sentinels)

    @property
    def sentinel(self) -> bool:
        return bool(self.sentinels)


def parse(url: str = "", sentinels: str = "", master: str = "") -> Target:
    """The Target the three settings name; a false one (no Redis) when all are empty."""
    url, sentinels, master = (url or "").strip(), (sentinels or "").strip(), (master or "").strip()
    if not sentinels:
        if master:
            raise RedisSettingsError("REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS is not")
        return Target(url=url)
    if not master:
        raise RedisSettingsError("REDIS_SENTINELS needs REDIS_SENTINEL_MASTER (the master's name)")
    db, password, username = _credentials(url)
    return Target(sentinels=tuple(_address(a) for a in sentinels.split(",") if a.strip()),
                  master=master, db=db, password=password, username=username)


def target() -> Target:
    """The Redis the settings name now (false: none, each process on its own)."""
    return parse(settings.REDIS_URL, settings.REDIS_SENTINELS, settings.REDIS_SENTINEL_MASTER)


def _address(text: str) -> tuple[str, int]:
    text = text.strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(SENTINEL_PORT)
    host = host.strip("[]")       # [fd00::5]:26379
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RedisSettingsError(f"REDIS_SENTINELS: {text!r} is not host:port")
    return host, int(port)


def _credentials(url: str) -> tuple[int, str | None, str | None]:
    """(db, password, username) from REDIS_URL beside sentinels: `redis://[user]:[pass]@/db`."""
    if not url:
        return 0, None, None
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise RedisSettingsError(f"REDIS_URL: {parts.scheme!r} is not redis://")
    path = parts.path.strip("/") or "0"
    if not path.isdigit():
        raise RedisSettingsError(f"REDIS_URL: the database {path!r} is not a number")
    password = unquote(parts.password) if parts.password else None
    username = unquote(parts.username) if parts.username else None
    return int(path), password, username


def _master_kwargs(target: Target, options: dict) -> dict:
    """The master's connection arguments; a sentinel's are the socket options alone (a
    sentinel has its own password, if any, which partyhub does not set)."""
    kw = {"db": target.db, **options}
    if target.password is not None:
        kw["password"] = target.password
    if target.username is not None:
        kw["username"] = target.username
    return kw


def _sentinel_kwargs(options: dict) -> dict:
    return {k: v for k, v in options.items() if k.startswith("socket_")}


def _connect(target: Target, redis_cls, sentinel_cls, options: dict):
    if not target.sentinel:
        return redis_cls.from_url(target.url, **options)
    return sentinel_cls(list(target.sentinels), sentinel_kwargs=_sentinel_kwargs(options)) \
        .master_for(target.master, **_master_kwargs(target, options))


def client(target: Target, **options):
    """A synchronous redis-py client of the target (of its master now, with sentinels)."""
    import redis
    from redis.sentinel import Sentinel
    return _connect(target, redis.Redis, Sentinel, options)


def async_client(target: Target, **options):
    """An asyncio redis-py client of the target; its connections belong to the running loop."""
    from redis import asyncio as aioredis
    from redis.asyncio.sentinel import Sentinel
    return _connect(target, aioredis.Redis, Sentinel, options)


def channel_host(target: Target, **options) -> dict:
    """One entry of channels_redis's `hosts`: an address, or (Sentinel) the master's name, the
    sentinels and their own socket options (channels_redis.utils.create_pool)."""
    if not target.sentinel:
        return {"address": target.url, **options}
    return {"master_name": target.master, "sentinels": list(target.sentinels),
            "sentinel_kwargs": _sentinel_kwargs(options), **_master_kwargs(target, options)}
