"""Fan-out: a room's frames go straight to this process's sockets, and once to each other process.

Every process keeps its sockets by room and viewer. A change is encoded once per viewer and
handed to the local sockets directly; with a shared channel layer (Redis) the same frames go
once, as one message, to the room's process group, where each other process that has sockets
of the room delivers them to its own. The channel layer is used once per process per change,
never once per socket.

A room whose sockets are all in this process (the proxy routes a room's code to one replica)
needs no channel layer at all: its views are rendered for the viewers here only and never
published. Each process says so to the room's group when it gets the room's first socket
("hello"; the others answer "here"), every few seconds while it shares the room, and when its
last socket goes ("bye"); a process that heard no other for PEER_TTL seconds, nor in the first
GRACE seconds after its hello, keeps the room to itself. Routing is for speed only: a process
that missed a change because another thought itself alone finds it out in `publish.heal` and
says hello again.
"""
from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import defaultdict

from channels.layers import InMemoryChannelLayer, get_channel_layer

from partyhub.gamekit import AUDIENCE
from partyhub.rooms.core import groups

log = logging.getLogger(__name__)
CROWD_SLICE = 32     # sockets of one viewer served between two turns of the event loop
PROCESS = uuid.uuid4().hex
LOCAL: dict = defaultdict(lambda: defaultdict(set))     # code -> viewer -> {consumer}
SEATS: dict = defaultdict(lambda: defaultdict(set))     # code -> player id -> {consumer}
RECEIVERS: dict = {}                                    # code -> the consumer that receives
SEEN: dict = {}                                         # code -> newest version delivered here
PEERS: dict = defaultdict(dict)     # code -> {process: when last heard} of the processes sharing it
HELLO: dict = {}                    # code -> when this process said hello to the room's group
SENT: dict = {}                     # code -> when this process last sent to the room's group
GRACE = 1.0          # seconds after a hello in which the others' answers are awaited
PEER_TTL = 7.0       # a sharing process unheard for this long is gone (they beat every 2 s)


def _shared() -> bool:
    return not isinstance(get_channel_layer(), InMemoryChannelLayer)


async def attach(consumer, code: str, viewer: str, player_id: str | None) -> None:
    LOCAL[code][viewer].add(consumer)
    if player_id:
        SEATS[code][player_id].add(consumer)
    if _shared() and code not in RECEIVERS:
        await _receive_with(code, consumer)


async def detach(consumer, code: str, viewer: str, player_id: str | None) -> None:
    LOCAL[code][viewer].discard(consumer)
    if not LOCAL[code][viewer]:
        del LOCAL[code][viewer]
    if player_id:
        SEATS[code][player_id].discard(consumer)
        if not SEATS[code][player_id]:
            del SEATS[code][player_id]
    if RECEIVERS.get(code) is consumer:
        del RECEIVERS[code]
        try:
            await get_channel_layer().group_discard(groups.room_group(code), consumer.channel_name)
        except Exception:   # Redis away: the membership expires or is taken over by the heir
            log.warning("group_discard of room %s failed", code, exc_info=True)
        heir = next((c for viewers in LOCAL.get(code, {}).values() for c in viewers), None)
        if heir is not None:
            await _receive_with(code, heir)
    if not LOCAL[code]:
        LOCAL.pop(code, None)
        SEATS.pop(code, None)
        SEEN.pop(code, None)
        PEERS.pop(code, None)
        SENT.pop(code, None)
        if HELLO.pop(code, None) is not None:
            await _announce(code, "bye")


async def _receive_with(code: str, consumer) -> None:
    """One socket of this process receives the room's messages for all of them (Channels'
    own receive loop; see `RoomConsumer.fanout`). When the channel layer is away, the room
    has no receiver here until `refresh` finds one."""
    try:
        await get_channel_layer().group_add(groups.room_group(code), consumer.channel_name)
    except Exception:
        log.warning("group_add of room %s failed", code, exc_info=True)
        RECEIVERS.pop(code, None)
        return
    RECEIVERS[code] = consumer
    if code not in HELLO:
        await hello(code)


async def hello(code: str) -> None:
    """Tell the room's group that this process has sockets of the room (the others answer
    "here"); until GRACE has passed the room counts as shared."""
    if await _announce(code, "hello"):
        HELLO[code] = time.monotonic()
    else:
        HELLO.pop(code, None)       # said again at the next refresh


async def _announce(code: str, kind: str) -> bool:
    return await _send({"kind": kind, "code": code})


def alone(code: str) -> bool:
    """Whether, as far as this process knows, no other process has sockets of the room: it has
    sockets of it and receives for them, said hello at least GRACE ago, and has heard no other
    process sharing it for PEER_TTL. With an in-memory channel layer, every room is alone."""
    if not _shared():
        return True
    said = HELLO.get(code)
    now = time.monotonic()
    if code not in RECEIVERS or said is None or now - said < GRACE:
        return False
    peers = PEERS.get(code)
    if peers:
        for process, heard in list(peers.items()):
            if now - heard > PEER_TTL:
                del peers[process]
        if peers:
            return False
    return True


async def refresh() -> None:
    """Renew this process's membership of every room group it has sockets for (the timekeeper
    calls it every few seconds). A restarted Redis has forgotten every group, and a room whose
    group_add failed while Redis was away has no receiver: both are repaired here."""
    if not _shared():
        return
    now = time.monotonic()
    for code in list(LOCAL):
        consumer = RECEIVERS.get(code)
        if consumer is None or consumer not in {c for v in LOCAL.get(code, {}).values() for c in v}:
            consumer = next((c for viewers in LOCAL.get(code, {}).values() for c in viewers), None)
            if consumer is None:
                continue
        await _receive_with(code, consumer)
        if PEERS.get(code) and now - SENT.get(code, 0.0) > PEER_TTL / 4:
            await _announce(code, "here")       # the processes sharing it: still here


def foreign(msg: dict) -> bool:
    """Whether a fan-out message came from another process."""
    return msg.get("origin") != PROCESS


async def receive(msg: dict) -> None:
    """A fan-out message from the channel layer, handed in by the receiving socket."""
    if not foreign(msg):
        return
    code, kind = msg["code"], msg["kind"]
    if kind in ("hello", "here", "bye"):
        if code not in LOCAL:
            return
        if kind == "bye":
            PEERS[code].pop(msg["origin"], None)
            return
        PEERS[code][msg["origin"]] = time.monotonic()
        if kind == "hello":
            await _announce(code, "here")
        return
    if msg["origin"] in PEERS.get(code, ()):
        PEERS[code][msg["origin"]] = time.monotonic()
    await _local(msg)


async def frames(code: str, version: int, by_viewer: dict, local_only: bool = False, row=None) -> None:
    """Each viewer's frame (text) to its sockets here and in every other process, with the
    large values they reference (viewmodel.Frames: each socket sends those it lacks); `row`,
    the committed room row, travels along for the other processes (publish.receive)."""
    msg = {"kind": "frames", "code": code, "v": version, "frames": dict(by_viewer)}
    if getattr(by_viewer, "blobs", None):       # the large values the texts reference
        msg["blobs"], msg["refs"] = by_viewer.blobs, by_viewer.refs
    if row is not None:
        msg["row"] = row
    # The PUBLISH goes out first and its reply is awaited while the local sockets are written.
    remote = None if local_only or alone(code) else asyncio.ensure_future(_send(msg))
    await _local(msg)
    if remote is not None:
        await remote


def viewers(code: str):
    """The viewers a change of this room must be rendered for: those with sockets here, or
    None (all of them) when other processes may have sockets of the room too."""
    return local_viewers(code) if alone(code) else None


def seen(code: str) -> int:
    """The newest version of the room delivered to this process's sockets (-1: none yet)."""
    return SEEN.get(code, -1)


def local_viewers(code: str) -> set:
    """The viewers with sockets of this room in this process."""
    return set(LOCAL.get(code, ()))


def rooms() -> list:
    """The rooms with sockets in this process."""
    return list(LOCAL)


def shared_rooms() -> list:
    """The rooms with sockets here, when other processes may also send them frames."""
    return list(LOCAL) if _shared() else []


def stale(versions: dict) -> list:
    """The rooms with sockets here whose committed version ({code: version}) is newer than the
    newest this process delivered: frames from another process that never arrived."""
    return [code for code, v in versions.items() if code in LOCAL and v > SEEN.get(code, -1)]


async def stream(code: str, viewers, text: str) -> None:
    msg = {"kind": "stream", "code": code, "viewers": list(viewers), "text": text}
    await _local(msg)
    await _remote(msg)


async def local_stream(code: str, viewers, text: str) -> None:
    """A frame to this process's sockets of these viewers only (a count of its own sockets)."""
    await _local({"kind": "stream", "code": code, "viewers": list(viewers), "text": text})


async def stream_tick(code: str, items: dict, acks: dict) -> None:
    """One tick of a room's stream items (partyhub/rooms/relay/streams.py): `items` {viewer: JSON
    list of item frames}, `acks` {local consumer: JSON list of its accepted ids}. Each socket
    gets one `stream` frame: its viewer's items and its own acknowledgements; the other
    processes get the items (their sockets sent none of these)."""
    if items and not alone(code):
        remote = asyncio.ensure_future(_send({"kind": "streams", "code": code, "items": items}))
    else:
        remote = None
    await _local({"kind": "streams", "code": code, "items": items}, acks)
    if remote is not None:
        await remote


async def control(code: str, player_id: str, event: dict) -> None:
    """A control message (replace, kick, moved) to every socket of one seat."""
    msg = {"kind": "control", "code": code, "player": player_id, "event": event}
    await _local(msg)
    await _remote(msg)


async def _local(msg: dict, acks: dict | None = None) -> None:
    code, kind = msg["code"], msg["kind"]
    if kind == "frames":
        room = LOCAL.get(code, {})
        if room and msg["v"] > SEEN.get(code, -1):
            SEEN[code] = msg["v"]
        values, refs = msg.get("blobs") or {}, msg.get("refs") or {}
        # the seats and the TV first, the audience (maybe hundreds of sockets) last, after one
        # turn of the event loop so that the players' frames leave before the audience's are
        # written (issue 22's bench: 500 audience sockets cost ~30 ms of sends per change).
        # Two turns: Twisted writes a socket's buffer from a writer callback, which the loop
        # queues after this task's next step; the second turn lets those callbacks run first.
        order = sorted(msg["frames"].items(), key=lambda item: item[0] == AUDIENCE)
        for viewer, text in order:
            crowd = room.get(viewer, ())
            if viewer == AUDIENCE and len(crowd) > 1:
                await asyncio.sleep(0)
                await asyncio.sleep(0)
            for i, consumer in enumerate(list(crowd)):
                if i and i % CROWD_SLICE == 0:
                    await asyncio.sleep(0)      # a player's frame that came meanwhile goes first
                await _call(consumer.room_frame, {"v": msg["v"], "text": text,
                                                  "refs": refs.get(viewer, ()), "blobs": values})
    elif kind == "stream":
        room = LOCAL.get(code, {})
        for viewer in msg["viewers"]:
            for consumer in list(room.get(viewer, ())):
                await _call(consumer.room_stream, {"text": msg["text"]})
    elif kind == "streams":
        room = LOCAL.get(code, {})
        acks = dict(acks or {})
        for viewer, items in msg["items"].items():
            for consumer in list(room.get(viewer, ())):
                await _call(consumer.room_stream, {"text": frame(items, acks.pop(consumer, "[]"))})
        for consumer, refs in acks.items():      # a sender whose items went to other viewers
            await _call(consumer.room_stream, {"text": frame("[]", refs)})
    elif kind == "control":
        event = msg["event"]
        handler = event["type"].replace(".", "_")
        for consumer in list(SEATS.get(code, {}).get(msg["player"], ())):
            await _call(getattr(consumer, handler), event)


async def _call(fn, arg) -> None:
    try:
        await fn(arg)
    except Exception:   # one closed socket must not stop the others' frames
        log.debug("delivery failed", exc_info=True)


async def _remote(msg: dict) -> None:
    """To the other processes. The change is committed and this process's sockets have it;
    if Redis is away the others miss this frame, and the sender goes on: each process finds
    the rooms it fell behind on within a few seconds and sends fresh views (publish.heal)."""
    if not alone(msg["code"]):
        await _send(msg)


async def _send(msg: dict) -> bool:
    """A fan-out message to the room's group, whoever is in it; False when Redis is away."""
    code = msg["code"]
    try:
        await get_channel_layer().group_send(groups.room_group(code),
                                             {"type": "fanout", "origin": PROCESS, **msg})
    except Exception:
        log.warning("fan-out (%s) of room %s to other processes failed", msg["kind"], code, exc_info=True)
        return False
    if code in LOCAL:
        SENT[code] = time.monotonic()
    return True


def frame(items_json: str, acks_json: str = "[]") -> str:
    """The `stream` frame of one socket for one tick (docs/protocol.md)."""
    return '{"t":"stream","d":{"items":' + items_json + ',"ack":' + acks_json + '}}'
