"""The gallery's drawings as pictures, each made once (docs/security.md, "The gallery's pictures").

A sketch keepsake stores strokes; a PNG or a replay GIF is made from them (drawings.py, about
0.03-0.12 s of one core each) on its first request and kept in the database with its keepsake
(models.KeepsakePicture), where every process finds it; it is deleted with the keepsake (a room
keeps its last few) and so with the room: nothing outlives its room. What may cost:

- a room keeps at most `keepsake_picture_bytes` of made pictures; past that, a picture is made
  for each request and not kept;
- making a picture (a picture not kept yet) counts against the asker's address,
  `renders_per_minute`; past it, 429 `rate_limited` (a kept picture is served all the same);
- a process makes one picture at a time, and a request that waited for another's finds it made.
"""
from __future__ import annotations

import threading

from django.conf import settings

from partyhub.http import limits
from partyhub.keepsakes import drawings
from partyhub.rooms.core.errors import fail
from partyhub.rooms.models import Keepsake
from partyhub.rooms.store import store

KINDS = ("png", "gif")
_making = threading.Lock()


def picture(room, game_no: int, n: int, kind: str, address: str) -> bytes:
    """Drawing n of game game_no as `kind` ("png" | "gif"): kept, or made now."""
    if kind not in KINDS:
        raise fail("keepsake_not_found")
    kept = _kept(room, game_no, n, kind)
    if kept is not None:
        return kept
    keepsake = next((k for k in store.find("keepsakes", room) if k.game_no == game_no and k.game == "sketch"), None)
    found = (keepsake.data.get("drawings") or []) if keepsake else []
    if not 0 <= n < len(found):
        raise fail("keepsake_not_found")
    if not limits.render_allowed(address):
        raise fail("rate_limited")
    with _making:
        kept = _kept(room, game_no, n, kind)     # made by the request this one waited for
        if kept is not None:
            return kept
        make = drawings.png if kind == "png" else drawings.replay
        data = make(found[n].get("strokes") or [])
        _keep(keepsake, n, kind, data)
    return data


def _kept(room, game_no: int, n: int, kind: str) -> bytes | None:
    return store.find("picture", room, game_no, n, kind)


def _keep(keepsake: Keepsake, n: int, kind: str, data: bytes) -> None:
    """Keep the picture with its keepsake, while the room's pictures fit their bound."""
    store.put("picture", keepsake, n, kind, data, settings.PARTYHUB_LIMITS["keepsake_picture_bytes"])
