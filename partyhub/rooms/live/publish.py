"""After a commit: send each viewer its view, and carry out the change's side effects."""
from __future__ import annotations

from partyhub.bots import client
from partyhub.http import net
from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import ServiceError
from partyhub.rooms.relay import fanout
from partyhub.rooms.store import store
from partyhub.rooms.views import viewmodel


def remember(change) -> None:
    """Keep the committed room as the snapshot stream items are checked against."""
    store.keep(change.room.code, "snapshot", (change.room, change.seats))


async def publish(change) -> None:
    """Send each viewer of the room its view of `change`, then carry out its effects. Views
    are rendered only for the viewers with sockets here, or for all of them when another
    process may have sockets of the room (fanout.viewers)."""
    room = change.room
    remember(change)
    only = fanout.viewers(room.code)
    if only is None or only:
        frames = viewmodel.viewer_frames(room, change.seats, net.join_url(room.code), only)
        row = store.kept(room.code, "committed") if only is None else None
        row = row if row is not None and row[0] == room.version else None
        await fanout.frames(room.code, room.version, frames, row=row)
    for effect in change.effects:
        await _carry_out(room, effect)


async def receive(msg: dict) -> None:
    """A fan-out message from the channel layer (the room's receiving socket hands it in).
    Frames from another process carry the room row it committed: kept here, the next game
    action of the room in this process decides on it without reading the row."""
    if msg.get("row") is not None and fanout.foreign(msg):
        store.keep(msg["code"], "committed", msg["row"])
    await fanout.receive(msg)


async def heal() -> int:
    """Pub/sub delivers at most once: a frame published while Redis was away, or before this
    process had subscribed, is lost to this process's sockets. The timekeeper calls this
    every few seconds: compare the versions this process delivered with the database's and
    send a fresh view of each room that moved on without us. Returns how many it healed."""
    from channels.db import database_sync_to_async

    rooms = fanout.shared_rooms()
    if not rooms:
        return 0
    codes = fanout.stale(await database_sync_to_async(store.find)("versions", rooms))
    for code in codes:
        # another process changed the room without sending it here: perhaps it thinks itself
        # alone with the room (fanout.alone); the hello tells it otherwise
        await fanout.hello(code)
        try:
            change = await database_sync_to_async(selectors.room_read)(code)
        except ServiceError:    # closed or purged meanwhile: nothing to heal
            continue
        remember(change)
        frames = viewmodel.viewer_frames(change.room, change.seats, net.join_url(code),
                                         fanout.local_viewers(code))
        await fanout.frames(code, change.room.version, frames, local_only=True)
    return len(codes)


async def _carry_out(room, effect) -> None:
    kind = effect[0]
    if kind == "replace":
        _, player_id, channel = effect
        await fanout.control(room.code, player_id, {"type": "seat.replace", "keep": channel})
    elif kind == "kick":
        await fanout.control(room.code, effect[1], {"type": "seat.kick"})
    elif kind == "handed":
        await fanout.control(room.code, effect[1], {"type": "seat.handed", "handover": effect[2]})
    elif kind == "moved":
        await fanout.control(room.code, effect[1], {"type": "seat.moved", "player": effect[2]})
    elif kind == "claim_ended":
        await fanout.control(room.code, effect[1], {"type": "claim.ended", "claim": effect[2],
                                                    "state": effect[3]})
    elif kind == "bot":
        client.spawn(room.code)
