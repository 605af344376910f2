"""Reads: who a token opens, the committed room and its seats. Nothing here writes."""
from __future__ import annotations

from dataclasses import dataclass

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms import claims, clock, seating, store
from partyhub.rooms.errors import fail
from partyhub.rooms.models import Room, Seat


@dataclass
class Actor:
    """Who acts: the TV (host token), a seat (player or spectator), or the audience: anonymous,
    or a new browser waiting for its claim of a seat to be approved (`claim`: its id), or an
    audience pass (`voter`: (audience id, name), audiencepass.py)."""
    role: str                    # "tv" | "player" | "audience"
    seat: Seat | None = None
    claim: str | None = None
    voter: tuple | None = None

    @property
    def key(self) -> str | None:
        """Whom control messages for this connection are addressed to (fanout.control): its
        seat, or its claim (claims.key)."""
        if self.seat is not None:
            return self.seat.player_id
        return claims.browser_key(self.claim) if self.claim else None

    @property
    def viewer(self):
        if self.role == "tv":
            return TABLE
        if self.seat is not None and self.seat.playing:
            return self.seat.player_id
        return AUDIENCE


def living(room: Room | None) -> Room:
    """The room, if it exists and is not closed (else room_not_found / room_closed)."""
    if room is None:
        raise fail("room_not_found")
    if room.closed_at is not None:
        raise fail("room_closed")
    return room


def room_get(code: str) -> Room:
    return living(store.read(str(code).upper()))


def actor_for(code: str, token: str | None) -> Actor:
    """Who a token opens in a room (an audience pass opens the audience); raises unauthorized for a wrong or kicked token, and for
    a claim's token once the claim is denied or gone."""
    from partyhub.rooms import audiencepass
    room = room_get(code)
    if not token:
        return Actor("audience")
    voter = audiencepass.read(token, room.pk)
    if voter is not None:
        return Actor("audience", voter=voter)
    digest = seating.token_hash(token)
    if digest == room.host_token_hash:
        return Actor("tv")
    seat = next((s for s in store.live_seats(room) if s.token_hash == digest), None)
    if seat is not None:
        return Actor("player", seat)
    claim = claims.by_token(room, digest, clock.wall_ms())
    if claim is not None:
        return Actor("audience", claim=claim["id"])     # waits; opens the seat once approved
    raise fail("unauthorized", "That token does not open a seat in this room.")


def room_read(code: str) -> store.Change:
    """The committed room and its seats, without a lock (a snapshot for streams)."""
    room = room_get(code)
    return store.Change(room, store.live_seats(room))


def host_check(code: str, token: str | None) -> Room:
    room = room_get(code)
    if not token or seating.token_hash(token) != room.host_token_hash:
        raise fail("unauthorized")
    return room
