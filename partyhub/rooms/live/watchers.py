"""The TV's "n watching": who watches the room without a seat in its game.

The view's `room.audience` counts the spectator seats (people who joined while a game ran).
The others watch with no seat: audience passes (named voters) and anonymous audience
sockets. Their sockets count here, one per pass however many tabs hold it, one per
anonymous socket; the room's TV sockets get `{"t": "watchers", "d": {"n": n}}` on connect
and, while the count changes, at most every WATCH_SECONDS (a crowd arriving is one frame a
second, not one per socket). The TV shows `room.audience + n`: the two never hold the same
person (a seat's sockets are never audience sockets).

Counted per process, from its own sockets (bounded by the room's socket limit): with several
web processes, the TV's process counts its own audience sockets (docs/decisions.md).
"""
from __future__ import annotations

import json
from collections import Counter

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms.core.coalesce import Coalesced
from partyhub.rooms.relay import fanout

WATCH_SECONDS = 1.0
_rooms: dict[str, Counter] = {}     # code -> {watcher key: its open sockets}


def _key(consumer) -> str | None:
    """A pass's voter id, or the socket's own channel; None for a seat's socket or the TV's."""
    if getattr(consumer, "viewer", None) != AUDIENCE or consumer.actor is None:
        return None
    voter = consumer.actor.voter
    return f"pass:{voter.voter[0]}" if voter is not None else f"socket:{consumer.channel_name}"


def count(code: str) -> int:
    return len(_rooms.get(code, ()))


def frame(code: str) -> str:
    return json.dumps({"t": "watchers", "d": {"n": count(code)}}, separators=(",", ":"))


def joined(consumer) -> None:
    if (key := _key(consumer)) is None:
        return
    consumer.watching = key
    _rooms.setdefault(consumer.code, Counter())[key] += 1
    _changed(consumer.code)


def left(consumer) -> None:
    key = getattr(consumer, "watching", None)
    if key is None:
        return
    consumer.watching = None
    room = _rooms.get(consumer.code)
    if room is None:
        return
    room[key] -= 1
    if room[key] <= 0:
        del room[key]
    if not room:
        del _rooms[consumer.code]
    _changed(consumer.code)


async def _send(code: str) -> None:
    await fanout.local_stream(code, (TABLE,), frame(code))


_changed = Coalesced(WATCH_SECONDS, _send).changed
