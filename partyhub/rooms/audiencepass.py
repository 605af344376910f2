"""The audience pass: a name for someone who watches a room, without a seat (no row).

`POST /api/rooms/<code>/audience {"name"}` gives a token signed by the server: the room, an
audience id ("a" and 10 hex digits) and the cleaned name. A socket opened with it is an
audience socket whose voter is (audience id, name); a reload with the same token is the same
voter. Nothing is stored: the signature is the whole pass.
"""
from __future__ import annotations

import secrets

from django.core import signing

from partyhub.rooms import familymode, seating, selectors
from partyhub.rooms.errors import fail

SALT = "partyhub.audience"


def issue(code: str, raw_name) -> dict:
    """A pass for the living room `code` (room_not_found, room_closed, bad_name,
    not_family_friendly as a join): {"token", "audience_id", "name"}."""
    room = selectors.room_get(code)
    name = seating.clean_name(raw_name)
    if name is None:
        raise fail("bad_name")
    familymode.check(room, name)
    audience_id = "a" + secrets.token_hex(5)
    token = signing.dumps({"r": room.pk, "a": audience_id, "n": name}, salt=SALT, compress=True)
    return {"token": token, "audience_id": audience_id, "name": name}


def read(token: str, room_pk: int) -> tuple[str, str] | None:
    """(audience id, name) of a pass for this room, or None (not a pass, or another room's)."""
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
    return data["a"], data["n"]
