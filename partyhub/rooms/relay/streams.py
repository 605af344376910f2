"""Stream items (drawing strokes): gathered for a tick, checked together, stored, then relayed.

A socket's stream item waits here for its room's tick: the next turn of the event loop after
the tick's first item (TICK_SECONDS = 0), so every item that arrived meanwhile, and while the
room's previous tick was being sent, is in it; a busy process gathers more items per tick by
itself, an idle one adds no delay. (A fixed 30 ms tick was measured first: it added 30 ms to
every acknowledgement and saved nothing, docs/performance.md.) Then the tick's items are checked in one call against the room's snapshot
(`check`), the accepted ones are queued for storage, and only then is anything sent: one
`stream` frame per receiving socket carrying every item of the tick relayed to its viewer,
with the ids of that socket's own accepted items in `ack`; a refused item is answered with
an `error` frame and never relayed.

The storage queue (store/strokes.py) is written with one bulk insert every FLUSH_SECONDS.
Every locked write of this process flushes the queue first (`strokes.flush()` runs in the
database thread), so a round end absorbs every item this process accepted, and nothing else
(items still waiting for their tick are not accepted yet: they are checked after the round
end against its new state and refused). What a crash can lose is the last FLUSH_SECONDS of
strokes, which the drawer's phone still shows and can redraw.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time

from channels.db import database_sync_to_async

from partyhub import metrics
from partyhub.gamekit import Rejected
from partyhub.jsontext import compact
from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.gateway import registry
from partyhub.rooms.gateway import calls
from partyhub.rooms.relay import fanout, progress
from partyhub.rooms.store import store, strokes
from partyhub.rooms.timers import clock

log = logging.getLogger(__name__)
TICK_SECONDS = 0.0     # the next turn of the event loop (docs/decisions.md, "Streams")
# A snapshot older than this is re-read in the background, so a change committed by another
# process is seen by the stream checks within that time.
SNAPSHOT_TTL = 0.5
_waiting: dict = {}     # code -> [(consumer, ref, action, seat)] waiting for the room's tick
_sending: dict = {}     # code -> the task sending the room's previous tick


# ---------------------------------------------------------------- the tick

def offer(consumer, ref, action: dict) -> None:
    """A socket's stream item (its fields already cleaned): checked at the room's next tick,
    as coming from the seat the socket has now."""
    code = consumer.code
    items = _waiting.get(code)
    if items is None:
        _waiting[code] = items = []
        asyncio.get_running_loop().call_later(TICK_SECONDS, _start, code)
    items.append((consumer, ref, action, consumer.actor.seat if consumer.actor else None))


_ticks: set = set()     # the running ticks (a task nobody holds may be collected)


def _start(code: str) -> None:
    task = asyncio.get_running_loop().create_task(tick(code))
    _ticks.add(task)
    task.add_done_callback(_ticks.discard)


async def tick(code: str) -> None:
    """Check the room's waiting items in one call, queue the accepted ones for storage, then
    send each receiving socket one frame and each refused item its error."""
    items = _waiting.pop(code, [])
    if not items:
        return
    verdicts = check(code, [(seat, d) for _, _, d, seat in items])
    by_viewer: dict = {}        # viewer -> [item frame, ...] in arrival order
    acks: dict = {}             # consumer -> [ids]
    refused = []
    for (consumer, ref, d, _), (verdict, stored) in zip(items, verdicts):
        if isinstance(verdict, Rejected):
            refused.append((consumer, ref, verdict))
            continue
        strokes.push(*stored)   # stored before anything is relayed
        metrics.stream_item()
        item = {"t": d["type"], "d": verdict.frame}
        for viewer in verdict.to:
            by_viewer.setdefault(viewer, []).append(item)
        if ref is not None:
            acks.setdefault(consumer, []).append(ref)
    if acks or by_viewer:
        _progress(code)
    previous = _sending.get(code)
    if previous is not None and not previous.done():
        await previous          # a room's ticks reach every socket in order
    task = asyncio.ensure_future(_send(code, by_viewer, acks, refused))
    _sending[code] = task
    try:
        await task
    finally:
        if _sending.get(code) is task:
            del _sending[code]


async def _send(code, by_viewer, acks, refused) -> None:
    items = {v: compact(f) for v, f in by_viewer.items()}
    await fanout.stream_tick(code, items, {c: json.dumps(refs, ensure_ascii=False) for c, refs in acks.items()})
    for consumer, ref, verdict in refused:
        try:
            await consumer._error(verdict.code, ref, verdict.message or None)
        except Exception:   # a closed socket
            log.debug("refusal not delivered", exc_info=True)


def _progress(code: str) -> None:
    """Items were accepted: a game with a public `progress` tells the TV (progress.py)."""
    now = current(code)
    if now is not None and getattr(registry.get(now[0].game_id), "progress", None) is not None:
        progress.changed(code)


def check(code: str, items: list) -> list:
    """[(seat or None, action)] -> [(Relay | Rejected, (room pk, game no, seat, action) or None)]:
    every item checked against the room's snapshot in one call to the rules."""
    now = current(code)
    if now is None:         # forgotten since the items came (the cache's bound)
        return [(Rejected("no_game_running"), None)] * len(items)
    room = now[0]
    if room.phase != "playing" or room.paused_at is not None:
        why = Rejected("no_game_running" if room.phase != "playing" else "paused")
        return [(why, None)] * len(items)
    out: list = [None] * len(items)
    asked, index = [], []
    for i, (seat, d) in enumerate(items):
        if seat is None or seat.player_id not in room.game_seats:
            out[i] = (Rejected("not_a_player"), None)
        else:
            asked.append((seat.player_id, d))
            index.append(i)
    if asked:
        game = registry.get(room.game_id)
        now = clock.game_now(room, clock.wall_ms())
        for i, (player, d), verdict in zip(index, asked, rules_check(game, room.state, asked, now)):
            out[i] = (verdict, None if isinstance(verdict, Rejected) else (room.pk, room.game_no, player, d))
    return out


def current(code: str):
    """(room, seats) as this process last saw the room committed (its snapshot), or None;
    a snapshot older than SNAPSHOT_TTL is re-read in the background meanwhile. Stream items
    and audience actions (audience.py) are judged against it, without a read or a lock."""
    snap = store.kept(code, "snapshot")
    if snap is None:
        return None
    _, room, seats, taken = snap
    if time.monotonic() - taken > SNAPSHOT_TTL:
        refresh_soon(code)
    return room, seats


def rules_check(game, state: dict, items: list, now: int) -> list:
    """The game's verdicts on [(seat, action)]: its `stream_many` in one call where it has
    one, else `stream` per item. Rules that raise refuse only the item that made them raise."""
    if getattr(game, "stream_many", None) is not None:
        verdicts = calls.stream_many(game, state, items, now)
        if verdicts is not None:
            return verdicts
    return [calls.rules_call(game, "stream", state, seat, d, now) for seat, d in items]


_refreshing: set = set()


def refresh_soon(code: str) -> None:
    """Re-read a stale snapshot in the background, once per room at a time; the items that
    arrive meanwhile are checked against the snapshot at hand (the game clock still applies)."""
    if code in _refreshing:
        return
    _refreshing.add(code)

    async def refresh():
        try:
            change = await database_sync_to_async(selectors.room_read)(code)
            store.keep(change.room.code, "snapshot", (change.room, change.seats))
        except ServiceError:
            pass        # closed or gone: the next stream item is refused by the rules' state
        finally:
            _refreshing.discard(code)
    asyncio.get_running_loop().create_task(refresh())
