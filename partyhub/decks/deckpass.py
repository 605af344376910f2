"""Who may see an uploaded deck's pictures: the people of a room that uses the deck, by the
room's picture pass (docs/security.md, "Deck pictures").

A deck id travels in every frame of a room that plays with it (`room.options.deck`), to
anonymous watchers too, so it cannot be what opens the pictures. A card's picture is served at
`/r/<code>/cards/<card>.webp?p=<pass>`, where the pass is an HMAC (the secret key's) of the
room's row id and the deck id: unguessable, the same for every picture of the deck in that
room (so a phone keeps each picture in its cache for the room's whole life), and sent once in
the view (`room.deck_pass`, only while the room's options name an uploaded deck). It opens a
picture only while its room uses the deck: the room's game was dealt with it
(`room.options`), or one of the room's keepsakes shows its cards; it ends with the room when
the room is purged, and no later room with the same code shares it (the row id differs).

The shipped default deck is not uploaded: its pictures are static files from the repository,
public like the rest of /static/. This is the one place the server builds a card's address;
the browser builds it in frontend/static/common/cards.js from the same pass.
"""
from __future__ import annotations

import base64
import hmac
import json
from pathlib import Path
from urllib.parse import quote

from django.templatetags.static import static
from django.utils.crypto import salted_hmac

from partyhub import decks
from partyhub.rooms.core.errors import fail
from partyhub.rooms.domain import photos
from partyhub.rooms.models import Room
from partyhub.rooms.store import store

SALT = "partyhub.decks.picture"
PASS_CHARS = 16                # 96 bits of the HMAC, base64url
SHIPPED = "games/association/cards/{id}.webp"   # the default deck's pictures (static files)


def deck_of(card_id) -> str | None:
    """The uploaded deck a card id belongs to ("u0123456789-004" -> "u0123456789"), else None."""
    m = decks.CUSTOM_CARD_ID.match(str(card_id))
    return m.group(1) if m else None


def room_pass(room_pk: int, deck_id: str) -> str:
    digest = salted_hmac(SALT, f"{room_pk}:{deck_id}", algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode()[:PASS_CHARS]


def current(room: Room) -> str | None:
    """The pass of the uploaded deck the room's options name (the view's `room.deck_pass`)."""
    deck = room.options.get("deck") if isinstance(room.options, dict) else None
    return room_pass(room.pk, deck) if isinstance(deck, str) and decks.CUSTOM_ID.match(deck) else None


def url(room: Room, card_id, template: str | None = None) -> str:
    """A card's picture address as a page of this room shows it: an uploaded deck's through
    the room's pass, any other deck's static file (its manifest's relative `template`)."""
    card = str(card_id)
    deck = deck_of(card)
    if deck:
        return f"/r/{room.code}/cards/{quote(card)}.webp?p={room_pass(room.pk, deck)}"
    shipped = template if template and not template.startswith("/") else SHIPPED
    return static(shipped.replace("{id}", quote(card)))


def uses(room: Room, deck_id: str) -> bool:
    """Whether the room uses the deck: its own photo deck (photos.py), its game was dealt with
    it, or a keepsake shows it."""
    if deck_id == photos.deck_id(room.pk):
        return True
    if isinstance(room.options, dict) and room.options.get("deck") == deck_id:
        return True
    kept = [k.data for k in store.find("keepsakes", room) if k.game != "sketch"]
    needle = f'"{deck_id}-'
    return any(needle in json.dumps(data) for data in kept)


def room_of(code) -> Room:
    """The room by its code, closed or not (its pictures live as long as its gallery)."""
    room = store.load(str(code).upper()[:8], "read")
    if room is None:
        raise fail("room_not_found")
    return room


def pass_ok(room: Room, card_id, given) -> bool:
    """Whether `given` is the room's pass of the card's uploaded deck."""
    deck = deck_of(card_id)
    return (deck is not None and isinstance(given, str)
            and hmac.compare_digest(given.encode(), room_pass(room.pk, deck).encode()))


def card_file(room: Room, card_id) -> Path:
    """The picture file of a card whose pass was checked (`pass_ok`); `deck_not_found` when
    the room does not use its deck (any more) or the card is not there."""
    deck = deck_of(card_id)
    path = decks.card_file(deck, str(card_id)) if deck and uses(room, deck) else None
    if path is None:
        raise fail("deck_not_found")
    return path
