"""The one write path. Every change to a room goes through a function here.

Each write runs in one transaction with the room row locked (select_for_update; SQLite
takes the write lock at BEGIN IMMEDIATE), bumps the version, appends events, commits,
and returns a `Change`: what the caller publishes after the commit. Game actions on
PostgreSQL take the unlocked path instead (`_apply_unlocked`): the same decision, written
back in one statement on the condition that the version is still the one read.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from partyhub.gamekit import AUDIENCE, TABLE, Accepted, Rejected
from partyhub.rooms import registry, roomactions, rows, seating, streams
from partyhub.rooms.errors import ServiceError, fail
from partyhub.rooms.models import Event, Room, Seat, StreamItem

log = logging.getLogger(__name__)
RECENT_IDS = 32
UNLOCKED_TRIES = 3      # then the locked path: a room this contended queues on its row lock
ACTION_ID_MAX = 64


def wall_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class Actor:
    """Who acts: the TV (host token), a seat (player or spectator), or the anonymous audience."""
    role: str                    # "tv" | "player" | "audience"
    seat: Seat | None = None

    @property
    def viewer(self):
        if self.role == "tv":
            return TABLE
        if self.seat is not None and self.seat.playing:
            return self.seat.player_id
        return AUDIENCE


@dataclass
class Change:
    """A committed change: the room and seats as committed, plus side effects to carry out."""
    room: Room
    seats: list
    effects: list = field(default_factory=list)   # ("replace"|"kick"|"token"|"bot", ...)


# ---------------------------------------------------------------- reads

def room_get(code: str) -> Room:
    room = rows.read_room(str(code).upper())
    if room is None:
        raise fail("room_not_found")
    return room


def live_seats(room: Room) -> list:
    return rows.live_seats(room)


def actor_for(code: str, token: str | None) -> Actor:
    """Who a token opens in a room; raises unauthorized for a wrong or kicked token."""
    room = room_get(code)
    if not token:
        return Actor("audience")
    digest = seating.token_hash(token)
    if digest == room.host_token_hash:
        return Actor("tv")
    seat = next((s for s in live_seats(room) if s.token_hash == digest), None)
    if seat is None:
        raise fail("unauthorized", "That token does not open a seat in this room.")
    return Actor("player", seat)


def room_read(code: str):
    """The committed room and its seats, without a lock (a snapshot for streams)."""
    room = room_get(code)
    return Change(room, live_seats(room))


def room_versions(codes) -> dict:
    """{code: committed version} of these rooms."""
    return dict(Room.objects.filter(code__in=list(codes)).values_list("code", "version"))


def host_check(code: str, token: str | None) -> Room:
    room = room_get(code)
    if not token or seating.token_hash(token) != room.host_token_hash:
        raise fail("unauthorized")
    return room


# ---------------------------------------------------------------- writes

def room_create(language: str = "en") -> tuple[Room, str]:
    if language not in ("en", "uk", "ru"):
        language = "en"
    token = seating.new_token()
    for _ in range(50):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=seating.new_code(), host_token_hash=seating.token_hash(token),
                    language=language,
                    settings={"locked": False, "streamer": False, "extended": False, "takeover": True})
            return room, token
        except IntegrityError:
            continue
    raise ServiceError("room_full", "No free room code; try again.", 503)


def seat_join(code: str, raw_name, bot: bool = False) -> tuple[Change, Seat, str]:
    name = seating.clean_name(raw_name)
    with transaction.atomic():
        room = _lock(code)
        if name is None:
            raise fail("bad_name")
        seats = rows.all_seats(room)
        live = [s for s in seats if not s.kicked]
        if room.settings.get("locked"):
            raise fail("room_locked")
        if len(live) >= _seat_limit(room):
            raise fail("room_full")
        if any(s.name_key == seating.name_key(name) for s in live):
            raise fail("name_taken")
        color, symbol = seating.free_look({s.color for s in live})
        token = seating.new_token()
        seat = Seat(
            room=room, player_id=_free_player_id(seats), token_hash=seating.token_hash(token),
            name=name, name_key=seating.name_key(name), color=color, symbol=symbol,
            order=max([s.order for s in seats], default=-1) + 1,
            playing=room.phase == "lobby", bot=bot)
        rows.insert_seat(seat)
        live.append(seat)
        if not room.vip:
            room.vip = seat.player_id
        _append(room, "player_joined", seat.player_id, {"name": name})
        _commit(room, live)
    return Change(room, live), seat, token


def seat_connect(code: str, player_id: str, channel: str) -> Change:
    with transaction.atomic():
        room = _lock(code)
        seats = live_seats(room)
        seat = next((s for s in seats if s.player_id == player_id), None)
        if seat is None:
            raise fail("unauthorized")
        effects = [("replace", player_id, channel)] if seat.channel and seat.channel != channel else []
        seat.connected, seat.channel = True, channel
        rows.save_seat(seat, ("connected", "channel"))
        _absorb_streams(room, seats)
        _ensure_vip(room, seats)
        _commit(room, seats)
    return Change(room, seats, effects)


def seat_disconnect(code: str, player_id: str, channel: str) -> Change | None:
    with transaction.atomic():
        room = _lock(code)
        seats = live_seats(room)
        seat = next((s for s in seats if s.player_id == player_id and s.channel == channel), None)
        if seat is None:
            return None       # a newer connection has the seat, or it was kicked
        seat.connected, seat.channel = False, ""
        rows.save_seat(seat, ("connected", "channel"))
        _ensure_vip(room, seats)
        _commit(room, seats)
    return Change(room, seats)


def room_apply(code: str, actor: Actor, action_id, d, now: int | None = None,
               known: int | None = None) -> Change:
    """Apply one action (room action or game action); raises ServiceError for a refusal.

    `known`: the newest version of the room the caller has seen (a socket's process: the
    newest it delivered). A game action on PostgreSQL then decides on the room as this
    process last committed it, without reading the row, if that is no older (`_COMMITTED`)."""
    d = registry.cleaned(d)     # only its declared fields, checked (gamekit.clean_action)
    now = wall_ms() if now is None else now
    if not isinstance(d, dict) or not isinstance(d.get("type"), str) or len(d["type"]) > 40:
        raise fail("bad_action")
    if action_id is not None and (not isinstance(action_id, (str, int)) or len(str(action_id)) > ACTION_ID_MAX):
        raise fail("bad_frame", "The action id must be a short string.")
    room_action = d["type"] in roomactions.HANDLERS
    if not room_action:
        # Store queued stream items before the transaction: a refused action rolls the
        # transaction back, and items flushed inside it would be lost with it.
        flushed = streams.flush()
        if rows.unlocked_writes():
            change = _apply_unlocked(code, actor, action_id, d, now, None if flushed else known)
            if change is not None:
                return change
    with transaction.atomic():
        room = _lock(code)
        seats, effects = _decide(room, actor, action_id, d, now, room_action)
        _commit(room, seats, seats_changed=room_action)
    return Change(room, seats, effects)


def _apply_unlocked(code: str, actor: Actor, action_id, d: dict, now: int,
                    known: int | None = None) -> Change | None:
    """A game action on PostgreSQL, without BEGIN, a locking read and COMMIT: read the room,
    decide, and write back in one statement only if the version is still the one read
    (rows.save_room(expected=...)); when another write came first, read and decide again.
    Two round trips instead of four, one when the room as this process last committed it is
    current (`_committed`). Refusals are decided on the committed state read, as if the
    action had come just before the write that raced it. None: take the locked path (stream
    items to absorb, which deletes rows, or UNLOCKED_TRIES lost races)."""
    for attempt in range(UNLOCKED_TRIES):
        room = _committed(code, known) if attempt == 0 else None
        if room is None:
            room = rows.read_room(code)
        if room is None:
            raise fail("room_not_found")
        if room.streams_pending:
            return None
        read = room.version
        seats, effects = _decide(room, actor, action_id, d, now, False)
        if _commit(room, seats, expected=read, seats_changed=False):
            return Change(room, seats, effects)
    return None


def _decide(room: Room, actor: Actor, action_id, d: dict, now: int, room_action: bool):
    """Apply one action to `room` in memory (refusals raise); returns (seats, effects)."""
    # Game actions never change seats, so the seats may come from memory.
    seats = live_seats(room) if room_action else _seats_of(room)
    actor = _refresh_actor(actor, seats)
    recent = (room.recent or {}).get(actor.seat.player_id, []) if actor.seat else []
    if action_id is not None and str(action_id) in recent:
        raise fail("duplicate_action")
    if room_action:
        effects = roomactions.HANDLERS[d["type"]](room, seats, actor, d, now)
        seats = live_seats(room)      # room actions may change seats
    else:
        _game_action(room, seats, actor, d, now)
        effects = []
    if actor.seat is not None and action_id is not None:
        room.recent = {**(room.recent or {}),
                       actor.seat.player_id: (recent + [str(action_id)])[-RECENT_IDS:]}
    return seats, effects


def room_tick(code: str, now: int | None = None) -> Change | None:
    """Fire the room's due deadline through the write path; None when nothing was due."""
    now = wall_ms() if now is None else now
    with transaction.atomic():
        room = rows.lock_room(code, skip_locked=True)
        if room is None or room.phase != "playing" or room.paused_at is not None:
            return None
        if room.deadline_at is None or room.deadline_at > now:
            return None
        game = registry.get(room.game_id)
        seats = _seats_of(room)
        _absorb_streams(room, seats)
        result = game.on_deadline(room.state, game_now(room, now))
        _accept(room, game, result, "", {"type": "deadline"}, now)
        _commit(room, seats, seats_changed=False)
    return Change(room, seats)


def room_sync(code: str) -> Change:
    """Fold pending stream items into the state (before a resync view), if there are any."""
    with transaction.atomic():
        room = _lock(code)
        seats = _seats_of(room)
        if _absorb_streams(room, seats):
            _commit(room, seats, seats_changed=False)
    return Change(room, seats)


# ---------------------------------------------------------------- the game clock

def game_now(room: Room, wall: int) -> int:
    """The game clock: wall time less the time spent paused (frozen while paused)."""
    if room.paused_at is not None:
        wall = room.paused_at
    return wall - room.paused_total


def wall_deadline(room: Room) -> int | None:
    if room.phase != "playing" or room.paused_at is not None or not room.state:
        return None
    game = registry.get(room.game_id)
    due = game.deadline(room.state) if game else None
    return None if due is None else due + room.paused_total


# ---------------------------------------------------------------- internals

def _lock(code: str) -> Room:
    room = rows.lock_room(str(code).upper())
    if room is None:
        raise fail("room_not_found")
    return room


# code -> (seats_version, seats): the seats as this process last read or wrote them. Every
# write that may change a seat bumps the room's seats_version (`_commit(seats_changed=True)`),
# so a matching seats_version means they are current, whichever process wrote the room since.
_SEATS: dict = {}


def _seats_of(room: Room) -> list:
    cached = _SEATS.get(room.code)
    if cached is not None and cached[0] == room.seats_version:
        return cached[1]
    seats = live_seats(room)
    _SEATS[room.code] = (room.seats_version, seats)
    return seats


# code -> the room as this process last committed it on PostgreSQL (frozen). A game
# action may decide on it instead of reading the row when the caller has seen no newer
# version. The write is conditional as always (the version, and no stream items stored):
# when another process wrote the room in between, or stored strokes, nothing is
# overwritten; the write fails and the action reads and decides again. Kept after the
# commit only (transaction.on_commit): never a version that was rolled back.
_COMMITTED: dict = {}
_COMMITTED_LOCK = threading.Lock()
COMMITTED_MAX = 2000


def _committed(code: str, known: int | None) -> Room | None:
    frozen = _COMMITTED.get(code) if known is not None else None
    if frozen is None or frozen[0] < known:
        return None
    return rows.thaw(frozen)


def adopt_committed(code: str, frozen) -> None:
    """Keep `frozen` (rows.save_room's) as the room's committed row here, unless one as new is
    kept: this process's commits, and the rows other processes' fan-out messages carry."""
    if not rows.fits(frozen):
        return
    with _COMMITTED_LOCK:       # the loop (other processes' rows) and database threads
        kept = _COMMITTED.get(code)
        if kept is not None and kept[0] >= frozen[0]:
            return
        _COMMITTED.pop(code, None)
        _COMMITTED[code] = frozen
        while len(_COMMITTED) > COMMITTED_MAX:
            _COMMITTED.pop(next(iter(_COMMITTED)))


def committed_row(code: str, version: int):
    """The frozen row of this version of the room, if it is the one kept here (else None)."""
    kept = _COMMITTED.get(code)
    return kept if kept is not None and kept[0] == version else None


def _commit(room: Room, seats=None, expected: int | None = None, seats_changed: bool = True) -> bool:
    """Write the room (version + 1) and this write's events. With `expected`, only if the
    stored version still is that (the unlocked path); False when another write came first.
    `seats_changed=False` when the write did not touch a seat (game actions, deadlines)."""
    room.version += 1
    if seats_changed:
        room.seats_version += 1
    room.deadline_at = wall_deadline(room)
    frozen = rows.save_room(room, room.__dict__.pop("unsaved_events", ()), expected)
    if frozen is None:
        return False
    if seats is not None:
        _SEATS[room.code] = (room.seats_version, seats)
    else:
        _SEATS.pop(room.code, None)
    if rows.unlocked_writes():
        transaction.on_commit(lambda: adopt_committed(room.code, frozen))
    return True


def _event(room: Room, type_: str, seat: str, data: dict, at: int | None = None) -> Event:
    return Event(room=room, version=room.version + 1, game_no=room.game_no,
                 at=at or wall_ms(), seat=seat, type=type_, data=data)


def _append(room: Room, type_: str, seat: str, data: dict, at: int | None = None) -> None:
    _unsaved(room).append(_event(room, type_, seat, data, at))


def _unsaved(room: Room) -> list:
    """The events of this write, appended with the room row by `_commit`."""
    return room.__dict__.setdefault("unsaved_events", [])


def _seat_limit(room: Room) -> int:
    from django.conf import settings
    return settings.PARTYHUB_LIMITS["max_seats"]


def _free_player_id(seats) -> str:
    taken = {s.player_id for s in seats}
    while True:
        pid = seating.new_player_id()
        if pid not in taken:
            return pid


def _refresh_actor(actor: Actor, seats) -> Actor:
    if actor.seat is None:
        return actor
    fresh = next((s for s in seats if s.pk == actor.seat.pk), None)
    if fresh is None:
        raise fail("unauthorized", "This seat is no longer in the room.")
    return Actor(actor.role, fresh)


def _ensure_vip(room: Room, seats) -> None:
    """The VIP is a connected person; when the VIP leaves, the next connected player is."""
    current = next((s for s in seats if s.player_id == room.vip), None)
    if current is not None and (current.connected or not any(s.connected for s in seats)):
        return
    humans = [s for s in seats if not s.bot]
    start = current.order if current else -1
    ring = sorted(humans, key=lambda s: (s.order <= start, s.order))
    nxt = next((s for s in ring if s.connected), None) or (ring[0] if ring else None)
    room.vip = nxt.player_id if nxt else ""


def _game_action(room: Room, seats, actor: Actor, d: dict, now: int) -> None:
    if room.phase == "lobby":
        raise fail("no_game_running")
    if room.phase == "over":
        raise fail("game_over")
    if room.paused_at is not None:
        raise fail("paused")
    game = registry.get(room.game_id)
    if actor.seat is None or not actor.seat.playing or actor.seat.player_id not in room.game_seats:
        raise fail("not_a_player")
    if d["type"] in game.streams:
        raise fail("bad_action", "Stream items are sent as their own frames.")
    _absorb_streams(room, seats, flush=False)   # flushed before the transaction (room_apply)
    result = rules_call(game, "apply", room.state, actor.seat.player_id, d, game_now(room, now))
    if isinstance(result, Rejected):
        raise ServiceError(result.code, result.message or result.code, public=result.public)
    _accept(room, game, result, actor.seat.player_id, d, now)


def rules_call(game, name: str, *args):
    """Call apply/stream of a game's rules. Rules refuse by returning Rejected; if they raise
    on some malformed input instead, the frame is refused as `bad_action` (the room is not
    changed and the socket stays open) and the crash is logged for the game's authors."""
    try:
        return getattr(game, name)(*args)
    except Exception:
        log.warning("game rules raised: %s.%s(%s)", game.id, name, repr(args[2])[:300], exc_info=True)
        return Rejected("bad_action", "That action is malformed.")


def _accept(room: Room, game, result: Accepted, seat: str, d: dict, now: int) -> None:
    room.state = result.state
    _unsaved(room).extend([_event(room, "action", seat, d, now)] + [
        _event(room, str(ev.get("type", "event"))[:40], seat, ev, now) for ev in result.events])
    outcome = game.outcome(room.state)
    if outcome is not None:
        roomactions.finish(room, outcome)


def _absorb_streams(room: Room, seats, flush: bool = True) -> bool:
    if room.phase != "playing" or not room.state:
        return False
    game = registry.get(room.game_id)
    if not getattr(game, "streams", None):
        return False
    flushed = streams.flush() if flush else 0
    if not flushed and getattr(room, "streams_pending", True) is False:
        return False      # the locking read saw none, and this process stored none since
    items = rows.stream_items(room)
    if not items:
        return False
    room.state = game.absorb(room.state, [(seat, data) for _, seat, data in items])
    StreamItem.objects.filter(room=room, id__lte=items[-1][0]).delete()
    return True

