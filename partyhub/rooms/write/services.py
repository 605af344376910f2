"""The one write path: every change to a room is orchestrated here.

A write is a ladder: load the room from the store (locked, inside one transaction; SQLite
takes the write lock at BEGIN IMMEDIATE), check the guards (a living room, a known seat, the
game running and not paused, a new action id), call the rules, then save the decided room
with its events through the store (version + 1), commit, and return a `Change`: what the
caller publishes after the commit. Game actions on PostgreSQL take the unlocked path instead
(`_apply_unlocked`): the same decision, saved in one statement on the condition that the
version is still the one decided on. Storage and every cache are the store's (store.py);
reads are selectors.py's; the clocks are clock.py's.
"""
from __future__ import annotations

from partyhub.gamekit import Rejected
from partyhub.rooms.access import claims, familymode
from partyhub.rooms.access.living import living
from partyhub.rooms.access.selectors import Actor
from partyhub.rooms.core import codes, pending, seating
from partyhub.rooms.core.errors import ServiceError, fail
from partyhub.rooms.core.seating import LANGUAGES
from partyhub.rooms.domain import roomactions
from partyhub.rooms.gateway import calls, registry
from partyhub.rooms.models import Room, Seat
from partyhub.rooms.store import store, strokes
from partyhub.rooms.store.store import Change
from partyhub.rooms.timers import clock, pace, standin, vip
from partyhub.rooms.views import viewmodel
from partyhub.rooms.write import ladder

RECENT_IDS = 32
UNLOCKED_TRIES = 3      # then the locked path: a room this contended queues on its row lock
ACTION_ID_MAX = 64
# A new room's host settings; rooms made before a setting existed read it as off.
NEW_ROOM_SETTINGS = {"locked": False, "streamer": False, "extended": False, "takeover": True,
                     "family": True, "standin": standin.DEFAULT_SECONDS, "audience": True}


# ---------------------------------------------------------------- writes

def room_create(language: str = "en", host_key_hash: str = "") -> tuple[Room, str]:
    if language not in LANGUAGES:
        language = "en"
    token = seating.new_token()
    for _ in range(5):      # a code found free can be taken by another creation meanwhile
        code = codes.new_code(lambda taken: store.find("held", taken))
        if code is None:
            break
        room = Room(code=code, host_token_hash=seating.token_hash(token), language=language,
                    settings=NEW_ROOM_SETTINGS, active_at=clock.wall_ms(), host_key_hash=host_key_hash)
        if store.save(room):
            return room, token
    raise ServiceError("room_full", "No free room code; try again.", 503)


def seat_join(code: str, raw_name, bot: bool = False, language: str | None = None) -> tuple[Change, Seat, str]:
    """A new seat; `language` is its phone's (en, uk, ru), else the room's."""
    with store.atomic():
        room, name, seats, live = _lock_named(code, raw_name)
        familymode.check(room, name)
        claims.check_name(room, live, name)     # first: a locked or full room still says "claimable"
        if room.settings.get("locked"):
            raise fail("room_locked")
        if roomactions.room_full(live):
            raise fail("room_full")
        color, symbol = seating.free_look({s.color for s in live})
        token = seating.new_token()
        seat = Seat(
            room=room, player_id=_free_player_id(seats), token_hash=seating.token_hash(token),
            name=name, name_key=seating.name_key(name), color=color, symbol=symbol,
            order=max([s.order for s in seats], default=-1) + 1,
            playing=room.phase == "lobby", bot=bot,
            language=language if language in LANGUAGES else room.language)
        store.put("seat", seat)
        live.append(seat)
        vip.ensure(room, live, clock.wall_ms())
        pending.append(room, "player_joined", seat.player_id, {"name": name})
        ladder.save(room, live, active=True)
    return Change(room, live), seat, token


def _lock_named(code: str, raw_name) -> tuple[Room, str, list, list]:
    """For a join or a claim: the locked room, the name as shown (else bad_name), every seat
    of the room and its live ones."""
    room = ladder.lock(code)
    name = seating.clean_name(raw_name)
    if name is None:
        raise fail("bad_name")
    seats = store.seats(room, kicked=True)
    return room, name, seats, [s for s in seats if not s.kicked]


def seat_claim(code: str, raw_name, now: int | None = None,
               address: str | None = None) -> tuple[Change, dict, str]:
    """A new browser asks for the disconnected seat of that name (claims.py): returns the
    change, the claim and the token it waits with (the seat's token once approved).
    `address`: where it asks from (one claim waits per address)."""
    now = clock.wall_ms() if now is None else now
    with store.atomic():
        room, name, seats, live = _lock_named(code, raw_name)
        effects = claims.prune(room, live, now)
        claim, token = claims.ask_by_name(room, seats, name, now, address)
        ladder.save(room, live, seats_changed=False, active=True)
    return Change(room, live, effects), claim, token


def seat_claim_back(code: str, old_token, now: int | None = None,
                    address: str | None = None) -> tuple[Change, dict, str]:
    """The phone whose seat was handed to another phone asks for it back with its old token
    (claims.ask_back); as seat_claim."""
    now = clock.wall_ms() if now is None else now
    if not isinstance(old_token, str) or not old_token or len(old_token) > 200:
        raise fail("bad_request", "Send the token of the phone that lost its seat.")
    with store.atomic():
        room = ladder.lock(code)
        live = store.seats(room, fresh=True)
        effects = claims.prune(room, live, now)
        claim, token = claims.ask_back(room, live, seating.token_hash(old_token), now, address)
        ladder.save(room, live, seats_changed=False, active=True)
    return Change(room, live, effects), claim, token


def seat_connect(code: str, player_id: str, channel: str) -> Change:
    with store.atomic():
        room = ladder.lock(code)
        seats = store.seats(room, fresh=True)
        seat = next((s for s in seats if s.player_id == player_id), None)
        if seat is None:
            raise fail("unauthorized")
        effects = [("replace", player_id, channel)] if seat.channel and seat.channel != channel else []
        seat.connected, seat.channel = True, channel
        store.put("seat", seat, ("connected", "channel"))
        standin.back(room, player_id)       # the seat is its player's again, as it is now
        _absorb_streams(room, seats)
        vip.ensure(room, seats, clock.wall_ms())
        effects += claims.prune(room, seats, clock.wall_ms())     # the owner is back
        ladder.save(room, seats, active=True)
    return Change(room, seats, effects)


def seat_disconnect(code: str, player_id: str, channel: str) -> Change | None:
    with store.atomic():
        room = store.load(str(code).upper())
        if room is None or room.closed_at is not None:
            return None       # nothing left to tell
        seats = store.seats(room, fresh=True)
        seat = next((s for s in seats if s.player_id == player_id and s.channel == channel), None)
        if seat is None:
            return None       # a newer connection has the seat, or it was kicked
        seat.connected, seat.channel = False, ""
        store.put("seat", seat, ("connected", "channel"))
        now = clock.wall_ms()
        standin.left(room, player_id, now)
        vip.ensure(room, seats, now)
        ladder.save(room, seats, active=True)
    return Change(room, seats)


def room_apply(code: str, actor: Actor, action_id, d, now: int | None = None,
               known: int | None = None) -> Change:
    """Apply one action (room action or game action); raises ServiceError for a refusal.

    `known`: the newest version of the room the caller has seen (a socket's process: the
    newest it delivered). A game action on PostgreSQL then decides on the room as this
    process last committed it, without reading the row, if that is no older
    (`store.load(code, "unlocked", known)`)."""
    d = registry.cleaned(d)     # only its declared fields, checked (gamekit.clean_action)
    now = clock.wall_ms() if now is None else now
    if not isinstance(d, dict) or not isinstance(d.get("type"), str) or len(d["type"]) > 40:
        raise fail("bad_action")
    if action_id is not None and (not isinstance(action_id, (str, int)) or len(str(action_id)) > ACTION_ID_MAX):
        raise fail("bad_frame", "The action id must be a short string.")
    room_action = d["type"] in roomactions.HANDLERS
    # Store queued stream items before the transaction: a refused action rolls the
    # transaction back, and items flushed inside it would be lost with it.
    flushed = strokes.flush()
    if not room_action:
        change = _apply_unlocked(code, actor, action_id, d, now, None if flushed else known)
        if change is not None:
            return change
    with store.atomic():
        room = ladder.lock(code)
        seats, effects = _decide(room, actor, action_id, d, now, room_action)
        ladder.save(room, seats, seats_changed=room_action, active=True)
    return Change(room, seats, effects)


def _apply_unlocked(code: str, actor: Actor, action_id, d: dict, now: int,
                    known: int | None = None) -> Change | None:
    """A game action on PostgreSQL, without BEGIN, a locking read and COMMIT: read the room,
    decide, and write back in one statement only if the version is still the one read
    (store.save(expected=...)); when another write came first, read and decide again.
    Two round trips instead of four, one when the room as this process last committed it is
    current (`store.load(code, "unlocked", known)`). Refusals are decided on the committed state read, as if
    the action had come just before the write that raced it. None: take the locked path (stream
    items to absorb, which deletes rows, a game's last action, which writes its keepsake, or
    UNLOCKED_TRIES lost races; a backend that takes locks, SQLite's; a room that is not
    there: the locked path says so)."""
    for attempt in range(UNLOCKED_TRIES):
        room = store.load(code, "unlocked", known if attempt == 0 else None)
        if room is None:
            return None
        if room.streams_pending:
            return None
        read = room.version
        seats, effects = _decide(room, actor, action_id, d, now, False)
        if pending.keeping(room):
            return None     # the game's last action: its keepsake is written on the locked path
        if ladder.save(room, seats, expected=read, seats_changed=False, active=True):
            return Change(room, seats, effects)
    return None


def _decide(room: Room, actor: Actor, action_id, d: dict, now: int, room_action: bool):
    """Apply one action to `room` in memory (refusals raise); returns (seats, effects)."""
    living(room)
    # Game actions never change seats, so the seats may come from memory.
    seats = store.seats(room, fresh=True) if room_action else store.seats(room)
    actor = _refresh_actor(actor, seats)
    recent = (room.recent or {}).get(actor.seat.player_id, []) if actor.seat else []
    if action_id is not None and str(action_id) in recent:
        raise fail("duplicate_action")
    if room_action:
        # The game's accepted strokes go into its state before it is ended or dealt again.
        _absorb_streams(room, seats, flush=False)
        effects = roomactions.HANDLERS[d["type"]](room, seats, actor, d, now)
        seats = store.seats(room, fresh=True)      # room actions may change seats
        effects += claims.prune(room, seats, now)
    else:
        _game_action(room, seats, actor, d, now)
        effects = []
    if actor.seat is not None and action_id is not None:
        room.recent = {**(room.recent or {}),
                       actor.seat.player_id: (recent + [str(action_id)])[-RECENT_IDS:]}
    return seats, effects


def room_tick(code: str, now: int | None = None) -> Change | None:
    """Fire the room's due deadline through the write path: the game's timer, the claims
    that expired, the stand-ins whose time has come, the crown of a VIP away for longer than
    the grace and a reveal with only bots at the table (`clock.due_at`); None when nothing was
    due."""
    now = clock.wall_ms() if now is None else now
    with store.atomic():
        room = store.load(code, "skip")
        if room is None or room.closed_at is not None:
            return None
        if room.deadline_at is None or room.deadline_at > now:
            return None
        seats = store.seats(room)
        effects = claims.prune(room, seats, now)        # claims that expired
        due = clock.wall_deadline(room)
        if due is not None and due <= now:
            game = registry.get(room.game_id)
            _absorb_streams(room, seats)
            result = calls.rules_call(game, "on_deadline", room.state, clock.game_now(room, now))
            if not isinstance(result, Rejected):    # rules that raised (logged): the rest goes on
                roomactions.accept(room, game, result, "", {"type": "deadline"}, now)
        if room.away:
            _absorb_streams(room, seats)
            standin.cover(room, registry.get(room.game_id), now,
                          lambda pid, d: _stand_in_move(room, seats, pid, d, now),
                          lambda pid: viewmodel.seat_view(room, seats, pid))
        vip.ensure(room, seats, now)
        if pace.due(room) is not None:
            pace.move_on(room, registry.get(room.game_id), now,
                         lambda pid, d: _stand_in_move(room, seats, pid, d, now))
        ladder.save(room, seats, seats_changed=False)
    return Change(room, seats, effects)


def room_sync(code: str) -> Change:
    """A TV or audience socket opens: the room counts as active, and pending stream items are
    folded into the state (before its first view), if there are any."""
    with store.atomic():
        room = ladder.lock(code)
        seats = store.seats(room)
        if _absorb_streams(room, seats):
            ladder.save(room, seats, seats_changed=False, active=True)
        else:
            store.put("touch", [room.code])
    return Change(room, seats)


# ---------------------------------------------------------------- internals

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


def _stand_in_move(room: Room, seats, player_id: str, d: dict, now: int) -> bool:
    """A stand-in's move (standin.py) as an ordinary move of the seat: the same guards, rules
    and log as the seat's phone's; False when refused."""
    seat = next((s for s in seats if s.player_id == player_id), None)
    if seat is None:
        return False
    try:
        _game_action(room, seats, Actor("player", seat), registry.cleaned(d), now, stand_in=True)
    except ServiceError:
        return False
    return True


def _game_action(room: Room, seats, actor: Actor, d: dict, now: int, stand_in: bool = False) -> None:
    if room.phase == "lobby":
        raise fail("no_game_running")
    if room.phase == "over":
        raise fail("game_over")
    if room.paused_at is not None:
        raise fail("paused")
    game = registry.get(room.game_id)
    if actor.seat is None or not actor.seat.playing or actor.seat.player_id not in room.game_seats:
        raise fail("not_a_player")
    if d["type"] in game.streams and not stand_in:   # a stand-in draws inside the lock
        raise fail("bad_action", "Stream items are sent as their own frames.")
    familymode.check_action(room, d)
    _absorb_streams(room, seats, flush=False)   # flushed before the transaction (room_apply)
    result = calls.rules_call(game, "apply", room.state, actor.seat.player_id, d, clock.game_now(room, now))
    if isinstance(result, Rejected):
        raise ServiceError(result.code, result.message or result.code, public=result.public)
    roomactions.accept(room, game, result, actor.seat.player_id, d, now)
    if not stand_in:
        standin.seen(room, actor.seat.player_id)


def _absorb_streams(room: Room, seats, flush: bool = True) -> bool:
    if room.phase != "playing" or not room.state:
        return False
    game = registry.get(room.game_id)
    if not getattr(game, "streams", None):
        return False
    flushed = strokes.flush() if flush else 0
    if not flushed and getattr(room, "streams_pending", True) is False:
        return False      # the locking read saw none, and this process stored none since
    items = [item for item in store.find("stream_items", room) if item[0] > pending.absorbed(room)]
    if not items:
        return False
    absorbed = calls.absorb(game, room.state, [(seat, data) for _, seat, data in items])
    if absorbed is None:
        return False        # the rules raised (logged): the items wait, the room goes on
    room.state = absorbed
    pending.absorb(room, items[-1][0])
    return True

