"""The audience's tallies: each open ballot's votes, kept outside the database until its phase
ends (docs/decisions.md, "The audience's tallies").

A ballot is one room's, one game's (game_no) and one key's (gamekit `audience_ballot`). Its
entries are {voter: {"name": str | None, "votes": {key: value}}}; a later value for the same
key replaces the earlier one, so each voter counts once per key. `seq` grows with every
recorded vote. `close` freezes a ballot and returns its entries: a vote after it is refused
(`record` returns None), never counted half. A closed ballot keeps its frozen entries for a
short while, so that a write that closed it and was then retried (a lost race on PostgreSQL,
a rolled-back transaction) folds the same entries again; then it is dropped.

In process memory by default; in Redis when REDIS_URL is set (every process shares the
tallies): a hash per ballot, `partyhub:tally:<code>:<game_no>:<ballot>`, voter -> JSON
{"name", "votes"}, with the fields `#seq` and `#closed`; `record` and `close` are Lua scripts.
"""
from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from functools import cache

from django.conf import settings

log = logging.getLogger(__name__)
CLOSED_KEEP = 2             # closed ballots a room keeps (memory), for a retried close
OPEN_TTL_MS = 6 * 3600 * 1000       # Redis: an open ballot nobody votes in or closes expires
CLOSED_TTL_MS = 60 * 1000           # Redis: a closed ballot's frozen entries


class MemoryTallies:
    def __init__(self):
        self._rooms: dict = {}      # code -> OrderedDict((game_no, ballot) -> [seq, entries, closed])
        self._lock = threading.Lock()

    def record(self, code, game_no, ballot, voter, name, key, value):
        with self._lock:
            room = self._rooms.setdefault(code, OrderedDict())
            tally = room.get((game_no, ballot))
            if tally is None:
                tally = room[(game_no, ballot)] = [0, {}, False]
            if tally[2]:
                return None
            entry = tally[1].setdefault(voter, {"name": name, "votes": {}})
            entry["votes"] = {**entry["votes"], key: value}
            tally[0] += 1
            return tally[0]

    def entries(self, code, game_no, ballot):
        with self._lock:
            tally = self._rooms.get(code, {}).get((game_no, ballot))
            return (0, {}) if tally is None else (tally[0], _copy(tally[1]))

    def votes(self, code, game_no, ballot, voter) -> dict:
        with self._lock:
            tally = self._rooms.get(code, {}).get((game_no, ballot))
            entry = tally[1].get(voter) if tally else None
            return dict(entry["votes"]) if entry else {}

    def close(self, code, game_no, ballot):
        with self._lock:
            room = self._rooms.setdefault(code, OrderedDict())
            tally = room.get((game_no, ballot))
            if tally is None:
                tally = room[(game_no, ballot)] = [0, {}, True]
            tally[2] = True
            room.move_to_end((game_no, ballot))
            closed = [k for k, t in room.items() if t[2]]
            for k in closed[:-CLOSED_KEEP]:
                del room[k]
            return _copy(tally[1])

    def forget(self, code):
        with self._lock:
            self._rooms.pop(code, None)

    def sweep(self, keep) -> int:
        keep = set(keep)
        with self._lock:
            gone = [code for code in self._rooms if code not in keep]
            for code in gone:
                del self._rooms[code]
        return len(gone)

    def held(self) -> dict:
        """{code: number of ballots kept} (tests, memory bounds)."""
        with self._lock:
            return {code: len(room) for code, room in self._rooms.items()}


def _copy(entries: dict) -> dict:
    return {v: {"name": e["name"], "votes": dict(e["votes"])} for v, e in entries.items()}


# KEYS[1]: the ballot's hash, KEYS[2]: the room's set of ballot hashes.
# ARGV: voter, name (JSON), key, value (JSON), ttl ms. Returns the new seq, or false (closed).
_RECORD = """
if redis.call('HEXISTS', KEYS[1], '#closed') == 1 then return false end
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local e
if raw then e = cjson.decode(raw) else e = {name = cjson.decode(ARGV[2]), votes = {}} end
local votes = e['votes']
if type(votes) ~= 'table' then votes = {} end
votes[ARGV[3]] = cjson.decode(ARGV[4])
e['votes'] = votes
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(e))
local seq = redis.call('HINCRBY', KEYS[1], '#seq', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('SADD', KEYS[2], KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return seq
"""

# KEYS[1]: the ballot's hash. ARGV: ttl ms of the frozen entries. Returns HGETALL.
_CLOSE = """
redis.call('HSET', KEYS[1], '#closed', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('HGETALL', KEYS[1])
"""


class RedisTallies:
    def __init__(self, url: str):
        import redis
        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._record = self.client.register_script(_RECORD)
        self._close = self.client.register_script(_CLOSE)

    @staticmethod
    def _key(code, game_no, ballot) -> str:
        return f"partyhub:tally:{code}:{game_no}:{ballot}"

    @staticmethod
    def _room(code) -> str:
        return f"partyhub:tallies:{code}"

    def record(self, code, game_no, ballot, voter, name, key, value):
        seq = self._record(keys=[self._key(code, game_no, ballot), self._room(code)],
                           args=[voter, json.dumps(name), key, json.dumps(value), OPEN_TTL_MS])
        return None if seq is None else int(seq)

    def entries(self, code, game_no, ballot):
        return _decode(self.client.hgetall(self._key(code, game_no, ballot)))

    def votes(self, code, game_no, ballot, voter) -> dict:
        raw = self.client.hget(self._key(code, game_no, ballot), voter)
        return dict(json.loads(raw).get("votes") or {}) if raw else {}

    def close(self, code, game_no, ballot):
        flat = self._close(keys=[self._key(code, game_no, ballot)], args=[CLOSED_TTL_MS])
        return _decode(dict(zip(flat[::2], flat[1::2])))[1]

    def forget(self, code):
        room = self._room(code)
        keys = list(self.client.smembers(room))
        self.client.delete(room, *keys)

    def sweep(self, keep) -> int:
        return 0        # the keys expire; every process may still need them

    def held(self) -> dict:
        return {}


def _decode(fields: dict) -> tuple[int, dict]:
    seq, entries = 0, {}
    for k, v in fields.items():
        k = k.decode() if isinstance(k, bytes) else k
        if k == "#seq":
            seq = int(v)
        elif not k.startswith("#"):
            e = json.loads(v)
            entries[k] = {"name": e.get("name"), "votes": dict(e.get("votes") or {})}
    return seq, entries


@cache
def backend():
    """The tallies of this process: Redis's when REDIS_URL is set, else its own memory's."""
    if settings.REDIS_URL:
        return RedisTallies(settings.REDIS_URL)
    return MemoryTallies()


def record(code: str, game_no: int, ballot: str, voter: str, name, key: str, value):
    """Record one vote; the ballot's new seq, or None when the ballot is closed."""
    return backend().record(code, game_no, ballot, voter, name, key, value)


def entries(code: str, game_no: int, ballot: str) -> tuple[int, dict]:
    """(seq, {voter: {"name", "votes"}}) of a ballot ((0, {}) for one nobody voted in)."""
    return backend().entries(code, game_no, ballot)


def votes(code: str, game_no: int, ballot: str, voter: str) -> dict:
    """One voter's votes in a ballot ({key: value})."""
    return backend().votes(code, game_no, ballot, voter)


def close(code: str, game_no: int, ballot: str) -> dict:
    """Close a ballot and return its entries (the same entries for a repeated close)."""
    return backend().close(code, game_no, ballot)


def forget(code: str) -> None:
    """Drop every tally of a room (it closed, or this process forgot it)."""
    try:
        backend().forget(code)
    except Exception:   # Redis away: its keys expire
        log.warning("tallies of room %s not forgotten", code, exc_info=True)


def sweep(keep) -> int:
    """Forget the tallies (memory) of every room not in `keep`."""
    return backend().sweep(keep)


def reset() -> None:
    """A fresh backend, read from the settings as they are now (tests)."""
    backend.cache_clear()
