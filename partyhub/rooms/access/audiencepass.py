"""The audience pass: a name for someone who watches a room, without a seat (no row).

`POST /api/rooms/<code>/audience {"name"}` gives a token signed by the server: the room, an
audience id ("a" and 10 hex digits), the cleaned name, the room's pass generation and the
time it was made. A socket opened with it is an audience socket whose voter
is (audience id, name); a reload with the same token is the same voter. Nothing is stored:
the signature is the whole pass, and these end it (docs/security.md, "The audience"):

- its lifetime (`audience_pass_seconds`): an older pass opens nothing, and votes no more;
- the host's `revoke_passes`: the room's generation (`room.settings["passes"]`) moves on and
  every pass made before it is void (a new one is one "Watch" away);
- its name: a pass is never made for, and stops working under, a name a seat of the room has
  or the host has barred (kicked), as a join compares names (`claims.check_name`).
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core import signing

from partyhub.rooms.access import claims, familymode
from partyhub.rooms.access.living import room_get
from partyhub.rooms.core import seating
from partyhub.rooms.core.errors import ServiceError, fail
from partyhub.rooms.store import store

SALT = "partyhub.audience"


@dataclass(frozen=True)
class Pass:
    audience_id: str
    name: str
    generation: int
    expires: float      # wall-clock seconds

    @property
    def voter(self) -> tuple[str, str]:
        return self.audience_id, self.name


def generation(room) -> int:
    """The room's pass generation: passes of an older one are void."""
    n = (room.settings or {}).get("passes")
    return n if isinstance(n, int) else 0


def lifetime() -> float:
    return float(settings.PARTYHUB_LIMITS["audience_pass_seconds"])


def issue(code: str, raw_name) -> dict:
    """A pass for the living room `code` (room_not_found, room_closed, bad_name,
    not_family_friendly, name_taken, name_kicked as a join): {"token", "audience_id", "name",
    "expires" (ms)}."""
    room = room_get(code)
    name = seating.clean_name(raw_name)
    if name is None:
        raise fail("bad_name")
    familymode.check(room, name)
    _name_free(room, store.seats(room, fresh=True), name)
    audience_id = "a" + secrets.token_hex(5)
    made = int(time.time())
    token = signing.dumps({"r": room.pk, "a": audience_id, "n": name, "g": generation(room), "t": made},
                          salt=SALT, compress=True)
    return {"token": token, "audience_id": audience_id, "name": name,
            "expires": int((made + lifetime()) * 1000)}


def _name_free(room, seats, name: str) -> None:
    """name_taken (a seat has it) or name_kicked (barred), compared as a join compares."""
    claims.check_name(room, seats, name)


def read(token: str, room_pk: int) -> Pass | None:
    """The pass of this room the token is, within its lifetime, or None (not a pass, another
    room's, or expired). Its generation and name are judged by `refusal`."""
    if not token or ":" not in token:
        return None
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("r") != room_pk:
        return None
    if not isinstance(data.get("a"), str) or not isinstance(data.get("n"), str):
        return None
    made, g = data.get("t"), data.get("g")
    if not isinstance(made, int) or not isinstance(g, int):
        return None         # a pass from before passes had a lifetime: void
    expires = made + lifetime()
    if time.time() >= expires:
        return None
    return Pass(data["a"], data["n"], g, expires)


def refusal(pass_: Pass, room, seats) -> str | None:
    """Why a pass no longer counts in this room as it is now (None: it does): `pass_expired`,
    `pass_revoked` (the host revoked the passes), `name_taken` or `name_kicked`."""
    if time.time() >= pass_.expires:
        return "pass_expired"
    if pass_.generation != generation(room):
        return "pass_revoked"
    try:
        _name_free(room, seats, pass_.name)
    except ServiceError as e:
        return e.code
    return None
