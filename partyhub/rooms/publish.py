"""After a commit: send each viewer its view, and carry out the change's side effects."""
from __future__ import annotations

import asyncio
import time

from channels.layers import get_channel_layer

from partyhub.rooms import groups, net, viewmodel

# code -> (version, room, seats, when): the last committed snapshot this process saw. Stream
# items are checked against it; it is re-read from the database when older than SNAPSHOT_TTL,
# so a change committed by another process is seen within that time.
SNAPSHOTS: dict = {}
SNAPSHOT_TTL = 0.5


def remember(change) -> None:
    room = change.room
    last = SNAPSHOTS.get(room.code)
    if last is None or last[0] <= room.version:
        SNAPSHOTS[room.code] = (room.version, room, change.seats, time.monotonic())


async def publish(change) -> None:
    room, seats = change.room, change.seats
    remember(change)
    frames = viewmodel.viewer_frames(room, seats, net.join_url(room.code))
    layer = get_channel_layer()
    await asyncio.gather(*(
        layer.group_send(groups.viewer_group(room.code, viewer),
                         {"type": "room.frame", "v": room.version, "text": text})
        for viewer, text in frames.items()))
    for effect in change.effects:
        await _carry_out(room, effect, layer)


async def _carry_out(room, effect, layer) -> None:
    kind = effect[0]
    if kind == "replace":
        _, player_id, channel = effect
        await layer.group_send(groups.seat_control_group(room.code, player_id),
                               {"type": "seat.replace", "keep": channel})
    elif kind == "kick":
        await layer.group_send(groups.seat_control_group(room.code, effect[1]), {"type": "seat.kick"})
    elif kind == "moved":
        await layer.group_send(groups.seat_control_group(room.code, effect[1]),
                               {"type": "seat.moved", "player": effect[2]})
    elif kind == "bot":
        from partyhub import bots
        bots.spawn(room.code)
