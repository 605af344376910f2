"""The WebSocket transport: parse one message shape, call the service, send views. No rules here."""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import time

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from partyhub import blobs, metrics
from partyhub.jsontext import compact
from partyhub.gamekit import TABLE, Rejected
from partyhub.http import limits
from partyhub.http import net
from partyhub.http.limits import Bucket
from partyhub.rooms.access import selectors
from partyhub.rooms.core.errors import MESSAGES, ServiceError, fail
from partyhub.rooms.gateway import registry
from partyhub.rooms.live import timekeeper, watchers
from partyhub.rooms.live.publish import publish, remember
from partyhub.rooms.live.publish import receive as receive_fanout
from partyhub.rooms.relay import audience, fanout, streams
from partyhub.rooms.store import store
from partyhub.rooms.views.viewmodel import viewer_frames, viewer_key
from partyhub.rooms.write import services

log = logging.getLogger(__name__)
CLOSE_REFUSED = 4003
CLOSE_REPLACED = 4000
CLOSE_FLOOD = 4008
CLOSE_MOVED = 4005
CLOSE_GONE = 4010      # the room has ended (closed for being idle, or purged)
CLOSE_LATER = 4029     # a door's limit (rate_limited, too_many_sockets, room_crowded): try later
GONE = ("room_closed", "room_not_found")
LATER = ("rate_limited", "too_many_sockets", "room_crowded")


class RoomConsumer(AsyncWebsocketConsumer):
    base: str | None = None     # the address its client used (net.socket_base), set on connect
    async def __call__(self, scope, receive, send):
        # A consumer can die without `disconnect` (its channel-layer receive fails when Redis
        # goes away): leave the fan-out tables and the seat as a disconnect would, or the
        # process keeps a dead socket as the room's receiver and never hears the others again.
        metrics.socket_opened()
        try:
            await self._serve(scope, receive, send)
        finally:
            metrics.socket_closed()
            if getattr(self, "counted", False):
                self.counted = False
                limits.close_socket(self.address, self.code)
            if getattr(self, "attached", False):
                try:
                    await self.disconnect(None)
                except Exception:
                    log.warning("cleanup of a dead socket failed", exc_info=True)
                    self.attached = False

    async def _serve(self, scope, receive, send):
        """Channels' `AsyncConsumer.__call__` (4.3) with a cheaper loop. Channels waits for the
        next message with `asyncio.wait` over a socket task and a channel-layer task and makes
        a new task for every message: a quarter of the server's time under a stroke load.
        Here one pump per source feeds a queue, and the messages are still handled one at a
        time, in arrival order; a source that fails ends the consumer as in Channels."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        inbox: asyncio.Queue = asyncio.Queue()
        pumps = [asyncio.ensure_future(_pump(source, inbox)) for source in sources]
        try:
            while True:
                message, error = await inbox.get()
                if error is not None:
                    raise error
                await self.dispatch(message)
        except StopConsumer:
            pass
        finally:
            for pump in pumps:
                pump.cancel()
            await asyncio.gather(*pumps, return_exceptions=True)

    async def dispatch(self, message):
        """Channels' dispatch, without its `aclose_old_connections()` before every handler: a
        hop to the database thread for each frame a socket sends (a fifth of the server's
        time under a stroke load). Every database call of this consumer goes through
        `database_sync_to_async`, which closes stale connections around each call itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        timekeeper.ensure_started()
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        self.token = _query_token(self.scope)
        self.base = net.socket_base(self.scope)     # the join link's address in its views
        self.last_v = -1
        self.held: set = set()      # hashes of the large values this connection's client holds
        self.views = asyncio.Lock()     # a view goes out right after its blobs frame
        self.actor = None
        budget = settings.PARTYHUB_LIMITS
        self.bucket = Bucket(budget["frames_per_second"], budget["frames_burst"])
        self.stream_bucket = Bucket(budget["stream_per_second"], budget["stream_burst"])
        self.audience_bucket = Bucket(budget["audience_per_second"], budget["audience_burst"])
        self.strikes = 0
        self.address = limits.client_address(self.scope)
        refusal = self._door()
        # Accept before any database work: a busy server then delays the first view, where
        # it would otherwise let the handshake time out and drop the socket. A token that
        # opens nothing is closed with CLOSE_REFUSED right after.
        await self.accept()
        if refusal is not None:
            return await self._refuse_socket(fail(refusal))
        try:
            self.actor = await database_sync_to_async(selectors.actor_for)(self.code, self.token)
        except ServiceError as e:
            if e.code in GONE:
                limits.lookup_failed(self.address)
            return await self._refuse_socket(e)
        seat = self.actor.seat
        self.viewer = viewer_key(self.actor.role, seat)
        self.player_id = self.actor.key     # a seat, or a new browser's claim (control messages)
        await fanout.attach(self, self.code, self.viewer, self.player_id)
        self.attached = True
        try:
            if seat is not None:
                change = await database_sync_to_async(services.seat_connect)(
                    self.code, seat.player_id, self.channel_name)
                await publish(change)   # everyone sees the dot, this socket gets its first view
            else:
                change = await database_sync_to_async(services.room_sync)(self.code)
                await self._send_own_view(change)
        except ServiceError as e:       # the room closed (or the seat went) meanwhile
            return await self._refuse_socket(e)
        await audience.greet(self)      # the TV's tally, an audience member's own votes
        if self.viewer == TABLE:
            await self.send(text_data=watchers.frame(self.code))
        watchers.joined(self)

    def _door(self) -> str | None:
        """The limits a socket passes before anything is looked up (docs/security.md): the
        address's failed lookups, its anonymous sockets, then its places and the room's.
        None: it may open (its places are taken, `counted`); else the refusal's code."""
        if not limits.lookup_allowed(self.address):
            return "rate_limited"
        if self.token is None and not limits.audience_allowed(self.address):
            return "rate_limited"
        refusal = limits.open_socket(self.address, self.code)
        self.counted = refusal is None
        return refusal

    async def disconnect(self, close_code):
        watchers.left(self)
        if getattr(self, "attached", False):
            self.attached = False
            await fanout.detach(self, self.code, self.viewer, self.player_id)
        seat = self.actor.seat if self.actor else None
        if seat is not None:
            try:
                change = await database_sync_to_async(services.seat_disconnect)(
                    self.code, seat.player_id, self.channel_name)
            except ServiceError:
                return
            if change is not None:
                await publish(change)

    async def receive(self, text_data=None, bytes_data=None):
        """One frame, in named steps: read it, answer a ping, check the act's shape, then its
        lane's budget and its lane (`_lane`)."""
        started = time.perf_counter()
        frame = await self._read(text_data if text_data is not None else bytes_data)
        if frame is None:
            return
        if frame["t"] == "ping":
            return await self._pong(frame.get("d"))
        ref, d = _ref(frame.get("id")), frame.get("d")
        if frame["t"] != "act" or not isinstance(d, dict) or not isinstance(d.get("type"), str):
            return await self._refuse("bad_frame", ref)
        bucket, handle = self._lane(d["type"])
        if not bucket.take():
            return await self._flood(ref)
        if await handle(ref, d):
            metrics.acted(started)

    async def _read(self, raw) -> dict | None:
        """The frame as a dict with a string `t`, or None: dropped (nothing, or queued behind
        a close: a flood), or refused (too large, not JSON, not a frame) and answered so."""
        if raw is None or getattr(self, "closing", False):
            return None
        limit = settings.PARTYHUB_LIMITS["frame_bytes"]
        if len(raw) > limit or (isinstance(raw, str) and len(raw) * 4 > limit
                                and len(raw.encode("utf-8", "surrogatepass")) > limit):
            return await self._refuse("frame_too_large", None)
        try:
            frame = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return await self._refuse("bad_frame", None, "That frame is not valid JSON.")
        if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
            return await self._refuse("bad_frame", None)
        return frame

    async def _pong(self, d) -> None:
        """A ping counts like any frame (a client pings every 5 s); its `c` comes back."""
        if not self.bucket.take():
            return await self._flood(None)
        d = d if isinstance(d, dict) else {}
        await self._send_json({"t": "pong", "d": {"c": d.get("c"), "s": int(time.time() * 1000)}})

    def _lane(self, kind: str):
        """(its budget, its handler) for an act: an audience act is judged on the snapshot (no
        lock, no write), a stroke streams, anything else goes down the write path. A handler
        returns True for an act applied (metrics.acted)."""
        if kind in audience.kinds():
            return self.audience_bucket, self._audience_act
        if self._is_stream(kind):
            return self.stream_bucket, self._stream
        return self.bucket, self._apply

    async def _audience_act(self, ref, d) -> None:
        await audience.offer(self, ref, d)

    async def _apply(self, ref, d) -> bool:
        """An action down the write path; a refusal the table should see is noticed there."""
        try:
            change = await database_sync_to_async(services.room_apply)(
                self.code, self.actor, ref, d, known=fanout.seen(self.code))
        except ServiceError as e:
            if e.public and self.actor.seat is not None:
                await fanout.stream(self.code, (TABLE,), json.dumps(
                    {"t": "notice", "d": {"code": e.code, "player": self.actor.seat.player_id,
                                          "action": registry.clean(d)}}, ensure_ascii=False))
            await self._error(e.code, ref, e.message)
            return False
        await publish(change)
        return True

    # -- streams (drawing strokes): no room lock; checked, stored and relayed once a tick
    def _is_stream(self, kind: str) -> bool:
        snap = store.kept(self.code, "snapshot")
        game = registry.get(snap[1].game_id) if snap else None
        return bool(game and kind in getattr(game, "streams", ()))

    async def _stream(self, ref, d):
        if isinstance(d := registry.clean(d), Rejected):   # only its declared fields, checked
            return await self._error(d.code, ref, d.message)
        streams.offer(self, ref, d)     # answered by the room's next tick (streams.tick)

    # -- group messages
    async def room_frame(self, event):
        """A view, preceded by the `blobs` frame of the values it references that this
        connection has not been sent: the client holds those of the last view (blobs.py).
        Two changes delivered at once (two tasks) go out one after the other, each view
        right after its blobs frame, the older one not at all once the newer is out."""
        async with self.views:
            if event["v"] <= self.last_v:
                return
            self.last_v = event["v"]
            refs = event.get("refs") or ()
            lacking = {h: event["blobs"][h] for h in refs if h not in self.held}
            self.held = set(refs)
            if lacking:
                await self.send(text_data=blobs.frame(event["v"], lacking))
            await self.send(text_data=net.view_for_base(event["text"], self.base))

    async def fanout(self, event):
        await receive_fanout(event)

    async def room_stream(self, event):
        await self.send(text_data=event["text"])

    async def seat_replace(self, event):
        if event["keep"] != self.channel_name:
            self.actor = None   # the newer connection owns the seat now
            await self.close(code=CLOSE_REPLACED)

    async def seat_kick(self, event):
        await self._send_json({"t": "kicked", "d": {}})
        self.actor = None
        await self.close(code=CLOSE_REFUSED)

    async def seat_handed(self, event):
        """This socket's seat was handed to another phone (the TV approved a claim): it is told
        so and closed; its token now opens nothing but a request to get the seat back."""
        await self._send_json({"t": "handed", "d": event["handover"]})
        self.actor = None
        self.closing = True
        await self.close(code=CLOSE_REFUSED)

    async def seat_moved(self, event):
        """A claim was approved: this connection's own token now opens the seat."""
        await self._send_json({"t": "token", "d": {"token": self.token, "player_id": event["player"]}})
        self.actor = None
        await self.close(code=CLOSE_MOVED)

    async def claim_ended(self, event):
        """A claim was denied, expired or dropped. A new browser's token opens nothing now."""
        await self._send_json({"t": "claim", "d": {"id": event["claim"], "state": event["state"]}})
        if self.actor is not None and self.actor.seat is None:
            self.actor = None
            self.closing = True
            await self.close(code=CLOSE_REFUSED)

    async def _end_pass(self):
        """This socket's audience pass no longer counts (audiencepass.refusal): closed as a
        token that opens nothing, so its page forgets the pass and asks again."""
        self.actor = None
        self.closing = True
        await self.close(code=CLOSE_REFUSED)

    # -- helpers
    async def _send_own_view(self, change):
        frames = viewer_frames(change.room, change.seats, net.join_url(change.room.code), {self.viewer})
        remember(change)
        await self.room_frame({"v": change.room.version, "text": frames[self.viewer],
                               "refs": frames.refs.get(self.viewer, ()), "blobs": frames.blobs})

    async def _refuse_socket(self, e: ServiceError):
        """A token that opens nothing: closed at once (CLOSE_REFUSED), before any frame; the
        token of a phone whose seat was handed to another gets a `handed` frame first. A room
        that has ended: an error frame that says so, then CLOSE_GONE. A door's limit: an
        error frame with its code, then CLOSE_LATER (the client tries again later)."""
        self.closing = True
        if e.code == "seat_handed":     # the phone whose seat was handed: told so, then 4003
            await self._send_json({"t": "handed", "d": e.extra})
            return await self.close(code=CLOSE_REFUSED)
        if e.code in GONE or e.code in LATER:
            await self._error(e.code, None, e.message)
            return await self.close(code=CLOSE_GONE if e.code in GONE else CLOSE_LATER)
        await self.close(code=CLOSE_REFUSED)

    async def send(self, text_data=None, bytes_data=None, close=False):
        """A frame, dropped on a socket in its closing handshake: autobahn (daphne's WebSocket
        library) refuses it there until daphne hears the socket is gone, and an answer to an
        action under way when the client or a stopping server closed it is no error (CI's
        stack log, 2026-12-03: a game_over refusal raised again while it was answered)."""
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            log.debug("a frame to a closing socket of room %s dropped", getattr(self, "code", None))

    async def _send_json(self, obj):
        await self.send(text_data=compact(obj))

    async def _error(self, code, ref, message=None):
        metrics.refused(code)
        await self._send_json({"t": "error", "d": {"code": code, "message": message or MESSAGES.get(code, code),
                                                   "ref": ref}})

    async def _refuse(self, code, ref, message=None):
        """A malformed frame: answered with an error, and it counts against the socket's budget."""
        if not self.bucket.take():
            return await self._flood(ref)
        await self._error(code, ref, message)

    async def _flood(self, ref):
        self.strikes += 1
        await self._error("flood", ref)
        if self.strikes >= settings.PARTYHUB_LIMITS["strikes_before_close"]:
            self.closing = True
            await self.close(code=CLOSE_FLOOD)


async def _pump(source, inbox: asyncio.Queue) -> None:
    """Every message of one source (the socket, the channel layer) into the consumer's inbox;
    an error of the source goes in as the last item."""
    try:
        while True:
            inbox.put_nowait((await source(), None))
    except asyncio.CancelledError:
        raise
    except BaseException as e:      # noqa: BLE001 - handed to the consumer, which raises it
        inbox.put_nowait((None, e))


def _ref(ref):
    """A frame's `id` as its answers carry it back: a string or number of at most 64
    characters, else None."""
    return ref if isinstance(ref, (str, int)) and len(str(ref)) <= 64 else None


def _query_token(scope) -> str | None:
    from urllib.parse import parse_qs
    qs = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    tokens = qs.get("token")
    return tokens[0] if tokens and tokens[0] else None
