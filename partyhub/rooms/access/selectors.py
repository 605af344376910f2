"""Reads: who a token opens, the committed room and its seats. Nothing here writes."""
from __future__ import annotations

from dataclasses import dataclass

from partyhub.gamekit import AUDIENCE, TABLE
from partyhub.rooms.access import audiencepass, claims
from partyhub.rooms.access.living import room_get
from partyhub.rooms.core import seating
from partyhub.rooms.core.errors import fail
from partyhub.rooms.models import Room, Seat
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock


@dataclass
class Actor:
    """Who acts: the TV (host token), a seat (player or spectator), or the audience: anonymous,
    or a new browser waiting for its claim of a seat to be approved (`claim`: its id), or an
    audience pass (`voter`: audiencepass.Pass, whose `voter` is (audience id, name))."""
    role: str                    # "tv" | "player" | "audience"
    seat: Seat | None = None
    claim: str | None = None
    voter: object | None = None

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


def actor_for(code: str, token: str | None) -> Actor:
    """Who a token opens in a room (an audience pass opens the audience); raises unauthorized
    for a wrong or kicked token, and for a claim's token once the claim is denied or gone;
    seat_handed (with the hand-over, claims.handover) for the token of a phone whose seat
    was handed to another."""
    room = room_get(code)
    if not token:
        return Actor("audience")
    pass_ = audiencepass.read(token, room.pk)
    if pass_ is not None:
        if audiencepass.refusal(pass_, room, store.seats(room, fresh=True)) is not None:
            raise fail("unauthorized", "That audience pass no longer opens this room.")
        return Actor("audience", voter=pass_)
    digest = seating.token_hash(token)
    if digest == room.host_token_hash:
        return Actor("tv")
    seat = next((s for s in store.seats(room, fresh=True) if s.token_hash == digest), None)
    if seat is not None:
        return Actor("player", seat)
    claim = claims.by_token(room, digest, clock.wall_ms())
    if claim is not None:
        return Actor("audience", claim=claim["id"])     # waits; opens the seat once approved
    handed = claims.handed_from(room, digest)
    if handed is not None:      # its seat was handed to another phone: it may ask it back
        raise fail("seat_handed", **claims.handover(handed))
    raise fail("unauthorized", "That token does not open a seat in this room.")


def room_read(code: str) -> store.Change:
    """The committed room and its seats, without a lock (a snapshot for streams)."""
    room = room_get(code)
    return store.Change(room, store.seats(room, fresh=True))


def host_check(code: str, token: str | None) -> Room:
    room = room_get(code)
    if not token or seating.token_hash(token) != room.host_token_hash:
        raise fail("unauthorized")
    return room
