"""A player's face (issue 28, part 3): a small self-portrait drawn on the phone in the lobby, or
one of the ready-made characters (frontend/static/common/faces.js draws them).

The `portrait` room action sets it; it is kept with the seat (Seat.portrait), so it survives a
reload and a restart, and goes with the room when the room is purged. A drawing is a short
stroke stream checked as sketch's strokes are (partyhub/strokes.parse_stroke, the platform's
pen: points in 0..1, colours from its palette, its widths), and bounded in strokes and points. Views
carry it as a `blobs` value (partyhub/blobs.py), so a connection gets each drawing once; only
the room's own views carry it (never the public room summary).

In the seat: {} (the symbol disc), {"character": "c7"}, or {"strokes": [{"c","w","p"}, ...]};
"hidden": true once the host hid a drawing (familymode.hide): from then on the seat may take a
ready-made character only.
"""
from __future__ import annotations

import re

from partyhub.gamekit import Rejected
from partyhub.rooms.core.errors import fail
from partyhub.rooms.store import store
from partyhub.strokes import parse_stroke

CHARACTERS = 36                     # c0 .. c35, drawn by faces.js
CHARACTER = re.compile(r"^c([0-9]|[12][0-9]|3[0-5])$")
MAX_POINTS = 1200                   # over all strokes; a stroke has at most the pen's 200


def cleaned(d: dict) -> dict:
    """The face an action asks for ({"strokes"}, {"character"} or {} to clear), or raises
    `bad_portrait` (state unchanged)."""
    strokes, character = d.get("strokes"), d.get("character")
    if strokes is not None and character is not None:
        raise fail("bad_portrait", "Send strokes or a character, not both.")
    if character is not None:
        if not CHARACTER.match(character):
            raise fail("bad_portrait", f"A character is c0 to c{CHARACTERS - 1}.")
        return {"character": character}
    if not strokes:
        return {}
    out, total = [], 0
    for stroke in strokes:
        parsed = parse_stroke(stroke or {})
        if isinstance(parsed, Rejected):
            raise fail("bad_portrait", parsed.message)
        total += len(parsed["p"]) // 2
        if total > MAX_POINTS:
            raise fail("bad_portrait", f"A portrait has at most {MAX_POINTS} points.")
        out.append({"c": parsed["c"], "w": parsed["w"], "p": parsed["p"]})
    return {"strokes": out}


def portrait(room, seats, actor, d, now):
    """A seat sets its own face (any phase; not offered in `actions`, like `language`)."""
    if actor.seat is None:
        raise fail("not_allowed", "Only a player has a portrait.")
    face = cleaned(d)
    seat = next((s for s in seats if s.player_id == actor.seat.player_id), actor.seat)
    hidden = bool((seat.portrait or {}).get("hidden"))
    if hidden and "strokes" in face:
        raise fail("portrait_hidden")
    seat.portrait = {**face, "hidden": True} if hidden else face
    store.put("seat", seat, ("portrait",))
    return []


def hide(seat) -> None:
    """The host hides a seat's face: its drawing is gone, and no new one is taken."""
    seat.portrait = {"hidden": True}
    store.put("seat", seat, ("portrait",))


def shown(seat) -> dict:
    """The seat's face as views carry it: {"portrait": strokes} or {"character": id} or {}."""
    p = seat.portrait if isinstance(seat.portrait, dict) else {}
    if p.get("strokes"):
        return {"portrait": p["strokes"]}
    if p.get("character"):
        return {"character": p["character"]}
    return {}
