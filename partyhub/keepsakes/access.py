"""Who may open a room's gallery: its people, by a pass their token buys, and whoever holds the
host's share link (docs/decisions.md, "Keepsakes").

A token never goes into an address: a seat's or the TV's token (the bearer of
`POST /api/rooms/<code>/keepsakes`) buys a pass, a signed {room id, who} that opens the gallery
and its pictures for PASS_DAYS, read only. A seat's pass also names the seat's token (a keyed
hash of its hash, `_seat_mark`): it stops opening the gallery when the seat is kicked, and for
good when the seat changes hands (a claim approved on the TV gives it a new token), so a kicked
player's pass does not come back to life when someone else is given the seat. The host's share link is a pass of another kind: it names the room's KeepsakeLink by a
random key whose hash is stored; revoking deletes the link, and a new link has a new key. Every
pass names the room's row id, so none opens a later room that reuses the code, and all of them
end with the room when it is purged.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

from partyhub.rooms.core import seating
from partyhub.rooms.core.errors import fail
from partyhub.rooms.models import Room
from partyhub.rooms.store import store
from partyhub.rooms.timers import clock

PASS_SALT = "partyhub.keepsakes.pass"
SHARE_SALT = "partyhub.keepsakes.share"
SEAT_SALT = "partyhub.keepsakes.seat"
PASS_DAYS = 30


@dataclass
class Visitor:
    room: Room
    who: str             # "tv" | "player" | "share"
    player_id: str = ""
    key: str = ""        # the pass it came with (the page's links carry it on)

    @property
    def host(self) -> bool:
        return self.who == "tv"


def room_of(code: str) -> Room:
    """The room by its code, closed or not (its gallery lives until it is purged)."""
    room = store.load(str(code).upper()[:8], "read")
    if room is None:
        raise fail("room_not_found")
    return room


def pass_for(code: str, token: str | None) -> tuple[Room, str]:
    """A pass for the holder of a seat's or the TV's token (unauthorized otherwise)."""
    room = room_of(code)
    if not token:
        raise fail("unauthorized", "Send a seat's or the TV's token.")
    digest = seating.token_hash(token)
    if digest == room.host_token_hash:
        return room, _sign({"r": room.pk, "w": "tv"}, PASS_SALT)
    seat = next((s for s in store.seats(room, fresh=True) if s.token_hash == digest), None)
    if seat is None:
        raise fail("unauthorized", "That token does not open a seat in this room.")
    return room, _sign({"r": room.pk, "w": "p", "p": seat.player_id, "t": _seat_mark(seat.token_hash)},
                       PASS_SALT)


def host_room(code: str, token: str | None) -> Room:
    room = room_of(code)
    if not token or seating.token_hash(token) != room.host_token_hash:
        raise fail("unauthorized")
    return room


def visitor(code: str, key: str | None) -> Visitor:
    """Who a pass lets in (keepsake_pass when nobody)."""
    room = room_of(code)
    if not key or len(key) > 400:
        raise fail("keepsake_pass")
    try:
        data = signing.loads(key, salt=PASS_SALT, max_age=PASS_DAYS * 86400)
    except signing.BadSignature:
        data = None
    if isinstance(data, dict) and data.get("r") == room.pk:
        if data.get("w") == "tv":
            return Visitor(room, "tv", key=key)
        pid = data.get("p")
        if data.get("w") == "p" and _seat_holds(room, pid, data.get("t")):
            return Visitor(room, "player", pid, key=key)
        raise fail("keepsake_pass")
    try:
        data = signing.loads(key, salt=SHARE_SALT)
    except signing.BadSignature:
        raise fail("keepsake_pass")
    if (isinstance(data, dict) and data.get("r") == room.pk and isinstance(data.get("s"), str)
            and store.find("link", room) == _hash(data["s"])):
        return Visitor(room, "share", key=key)
    raise fail("keepsake_pass")


def share(room: Room) -> str:
    """A new share link's pass (any earlier link stops working)."""
    key = secrets.token_urlsafe(18)
    store.put("link", room, _hash(key), clock.wall_ms())
    return _sign({"r": room.pk, "s": key}, SHARE_SALT)


def unshare(room: Room) -> bool:
    """Revoke the share link; whether there was one."""
    return store.put("link", room, None, clock.wall_ms()) > 0


def shared(room: Room) -> bool:
    return store.find("link", room) is not None


def page_url(room: Room, key: str) -> str:
    return f"/r/{room.code}/keepsakes?k={key}"


def _seat_holds(room: Room, player_id, mark) -> bool:
    """Whether the seat a pass names is still in the room, not kicked, with the token the
    pass was bought with."""
    seat = next((s for s in store.seats(room, fresh=True) if s.player_id == player_id), None)
    return seat is not None and isinstance(mark, str) and constant_time_compare(mark, _seat_mark(seat.token_hash))


def _seat_mark(token_hash: str) -> str:
    """What a pass keeps of its seat's token: a keyed hash of the token's hash (the token and
    its hash stay out of addresses)."""
    return salted_hmac(SEAT_SALT, token_hash).hexdigest()[:20]


def _sign(data: dict, salt: str) -> str:
    return signing.dumps(data, salt=salt, compress=False)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
