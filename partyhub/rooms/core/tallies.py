"""The audience's tallies: each open ballot's votes, kept outside the database until its phase
ends (docs/decisions.md, "The audience's tallies").

A ballot is one room's, one game's (game_no) and one key's (gamekit `audience_ballot`). Its
entries are {voter: {"name": str | None, "votes": {key: value}}}; a later value for the same
key replaces the earlier one, so each voter counts once per key. `seq` grows with every
recorded vote. A ballot takes at most `cap` voters (`voters_per_ballot`): a new voter past it
is refused (`full`), one already in may still change its votes.

A vote (`vote`, from the event loop: asynchronous) is one step: the rules judged it against
the voter's votes as `seen` (their count of recorded votes), and it is recorded only if the
voter's votes are still those (else `changed`, with the votes as they are now, and the caller
asks the rules again), so two sockets of one voter never both pass a "final" check.

`close` freezes a ballot and returns its entries: a vote after it is refused (`closed`;
`record` returns None), never counted half. A closed ballot keeps its frozen entries for a
short while, so that a write that closed it and was then retried (a lost race on PostgreSQL,
a rolled-back transaction) folds the same entries again; then it is dropped.

In process memory by default; in Redis when REDIS_URL or REDIS_SENTINELS is set (every process shares the
tallies): a hash per ballot, `partyhub:tally:<code>:<game_no>:<ballot>`, voter -> JSON
{"name", "votes", "n"} (n: the voter's recorded votes), with the fields `#seq`, `#voters` and
`#closed`; a vote (read, compare, cap, record) and a close are each one Lua script, and the
event loop's calls go through redis.asyncio (a slow Redis delays that vote, never the loop).
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache

from partyhub import redisconf

log = logging.getLogger(__name__)
CLOSED_KEEP = 2             # closed ballots a room keeps (memory), for a retried close
OPEN_TTL_MS = 6 * 3600 * 1000       # Redis: an open ballot nobody votes in or closes expires
CLOSED_TTL_MS = 60 * 1000           # Redis: a closed ballot's frozen entries


@dataclass(frozen=True)
class Vote:
    """What became of a vote: `status` "ok" (recorded: the ballot's new `seq`), "changed" (the
    voter's votes are no longer those seen: `votes`/`n` are the current ones), "full" (a new
    voter past the cap) or "closed"; `votes` and `n` are the voter's own after it."""
    status: str
    seq: int | None = None
    votes: dict = field(default_factory=dict)
    n: int = 0


class MemoryTallies:
    def __init__(self):
        self._rooms: dict = {}      # code -> OrderedDict((game_no, ballot) -> [seq, entries, closed])
        self._lock = threading.Lock()

    def vote(self, code, game_no, ballot, voter, name, key, value, seen=None, cap=0) -> Vote:
        with self._lock:
            room = self._rooms.setdefault(code, OrderedDict())
            tally = room.get((game_no, ballot))
            if tally is None:
                tally = room[(game_no, ballot)] = [0, {}, False]
            if tally[2]:
                return Vote("closed")
            entry = tally[1].get(voter)
            n = entry["n"] if entry else 0
            if seen is not None and n != seen:
                return Vote("changed", None, dict(entry["votes"]) if entry else {}, n)
            if entry is None:
                if cap and len(tally[1]) >= cap:
                    return Vote("full")
                entry = tally[1][voter] = {"name": name, "votes": {}, "n": 0}
            entry["votes"] = {**entry["votes"], key: value}
            entry["n"] += 1
            tally[0] += 1
            return Vote("ok", tally[0], dict(entry["votes"]), entry["n"])

    async def avote(self, *args, **kwargs) -> Vote:
        return self.vote(*args, **kwargs)

    async def aentries(self, code, game_no, ballot):
        return self.entries(code, game_no, ballot)

    async def avotes(self, code, game_no, ballot, voter):
        return self.votes_seen(code, game_no, ballot, voter)

    def votes_seen(self, code, game_no, ballot, voter) -> tuple[dict, int]:
        with self._lock:
            tally = self._rooms.get(code, {}).get((game_no, ballot))
            entry = tally[1].get(voter) if tally else None
            return (dict(entry["votes"]), entry["n"]) if entry else ({}, 0)

    def entries(self, code, game_no, ballot):
        with self._lock:
            tally = self._rooms.get(code, {}).get((game_no, ballot))
            return (0, {}) if tally is None else (tally[0], _copy(tally[1]))

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
# ARGV: voter, name (JSON), key, value (JSON), ttl ms, seen ('' for any: the voter's count of
# recorded votes the rules judged against), cap (0: none).
# Returns {'closed'}, {'full'}, {'changed', entry JSON} or {'ok', seq, entry JSON}.
_VOTE = """
if redis.call('HEXISTS', KEYS[1], '#closed') == 1 then return {'closed'} end
local raw = redis.call('HGET', KEYS[1], ARGV[1])
local e
if raw then e = cjson.decode(raw) else e = {name = cjson.decode(ARGV[2]), votes = {}, n = 0} end
local n = tonumber(e['n']) or 0
if ARGV[6] ~= '' and n ~= tonumber(ARGV[6]) then return {'changed', raw} end
if not raw then
  local cap = tonumber(ARGV[7])
  if cap > 0 and (tonumber(redis.call('HGET', KEYS[1], '#voters')) or 0) >= cap then return {'full'} end
  redis.call('HINCRBY', KEYS[1], '#voters', 1)
end
local votes = e['votes']
if type(votes) ~= 'table' then votes = {} end
votes[ARGV[3]] = cjson.decode(ARGV[4])
e['votes'] = votes
e['n'] = n + 1
raw = cjson.encode(e)
redis.call('HSET', KEYS[1], ARGV[1], raw)
local seq = redis.call('HINCRBY', KEYS[1], '#seq', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('SADD', KEYS[2], KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {'ok', seq, raw}
"""

# KEYS[1]: the ballot's hash. ARGV: ttl ms of the frozen entries. Returns HGETALL.
_CLOSE = """
redis.call('HSET', KEYS[1], '#closed', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('HGETALL', KEYS[1])
"""


class RedisTallies:
    """The write path's calls (close, forget: in a worker thread) are synchronous; the event
    loop's (vote, a voter's votes, a ballot's entries) go through redis.asyncio, one client
    per event loop (a client's connections belong to the loop that opened them)."""

    def __init__(self, target: redisconf.Target):
        self.target = target
        self.client = redisconf.client(target, socket_timeout=2, socket_connect_timeout=2)
        self._vote = self.client.register_script(_VOTE)
        self._close = self.client.register_script(_CLOSE)
        self._loops: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _async(self):
        """(client, vote script) of the running event loop."""
        loop = asyncio.get_running_loop()
        mine = self._loops.get(loop)
        if mine is None:
            client = redisconf.async_client(self.target, socket_timeout=2, socket_connect_timeout=2)
            mine = self._loops[loop] = (client, client.register_script(_VOTE))
        return mine

    @staticmethod
    def _key(code, game_no, ballot) -> str:
        return f"partyhub:tally:{code}:{game_no}:{ballot}"

    @staticmethod
    def _room(code) -> str:
        return f"partyhub:tallies:{code}"

    def _vote_call(self, code, game_no, ballot, voter, name, key, value, seen, cap):
        return dict(keys=[self._key(code, game_no, ballot), self._room(code)],
                    args=[voter, json.dumps(name), key, json.dumps(value), OPEN_TTL_MS,
                          "" if seen is None else int(seen), int(cap or 0)])

    def vote(self, code, game_no, ballot, voter, name, key, value, seen=None, cap=0) -> Vote:
        return _answer(self._vote(**self._vote_call(code, game_no, ballot, voter, name, key, value, seen, cap)))

    async def avote(self, code, game_no, ballot, voter, name, key, value, seen=None, cap=0) -> Vote:
        _, script = self._async()
        return _answer(await script(**self._vote_call(code, game_no, ballot, voter, name, key, value, seen, cap)))

    def entries(self, code, game_no, ballot):
        return _decode(self.client.hgetall(self._key(code, game_no, ballot)))

    async def aentries(self, code, game_no, ballot):
        client, _ = self._async()
        return _decode(await client.hgetall(self._key(code, game_no, ballot)))

    def votes_seen(self, code, game_no, ballot, voter) -> tuple[dict, int]:
        return _entry(self.client.hget(self._key(code, game_no, ballot), voter))

    async def avotes(self, code, game_no, ballot, voter) -> tuple[dict, int]:
        client, _ = self._async()
        return _entry(await client.hget(self._key(code, game_no, ballot), voter))

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


def _entry(raw) -> tuple[dict, int]:
    """(votes, n) of a voter's stored entry (JSON), ({}, 0) for none."""
    if not raw:
        return {}, 0
    e = json.loads(raw)
    return dict(e.get("votes") or {}), int(e.get("n") or 0)


def _answer(reply) -> Vote:
    status = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
    if status == "ok":
        votes, n = _entry(reply[2])
        return Vote("ok", int(reply[1]), votes, n)
    if status == "changed":
        votes, n = _entry(reply[1])
        return Vote("changed", None, votes, n)
    return Vote(status)


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
    """The tallies of this process: Redis's when Redis is set (REDIS_URL or REDIS_SENTINELS),
    else its own memory's."""
    target = redisconf.target()
    if target:
        return RedisTallies(target)
    return MemoryTallies()


async def vote(code: str, game_no: int, ballot: str, voter: str, name, key: str, value,
               seen: int | None, cap: int) -> Vote:
    """Record one vote if the voter's votes are still the `seen` ones (their count; None: any)
    and the ballot has room for a new voter (at most `cap`; 0: no cap). Never blocks the
    event loop on Redis."""
    return await backend().avote(code, game_no, ballot, voter, name, key, value, seen, cap)


def record(code: str, game_no: int, ballot: str, voter: str, name, key: str, value):
    """Record one vote, whatever the voter had (no cap): the ballot's new seq, or None when
    the ballot is closed (a worker thread's and the tests' form of `vote`)."""
    return backend().vote(code, game_no, ballot, voter, name, key, value).seq


def entries(code: str, game_no: int, ballot: str) -> tuple[int, dict]:
    """(seq, {voter: {"name", "votes"}}) of a ballot ((0, {}) for one nobody voted in)."""
    return backend().entries(code, game_no, ballot)


async def read_entries(code: str, game_no: int, ballot: str) -> tuple[int, dict]:
    """`entries`, from the event loop."""
    return await backend().aentries(code, game_no, ballot)


async def read_votes(code: str, game_no: int, ballot: str, voter: str) -> tuple[dict, int]:
    """(votes, their count) of one voter in a ballot, from the event loop."""
    return await backend().avotes(code, game_no, ballot, voter)


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
