"""Table photos (issue 28, part 4): each phone in the lobby adds up to 5 of its own pictures to
a deck that belongs to its room alone (docs/games/association.md, "Table photos").

The host turns it on with the room setting `photos` (roomactions.SETTING_KEYS). A phone sends
its pictures to POST /api/rooms/<code>/photos (its seat token): they go through the deck
uploads' own pipeline (uploads.one_at_a_time, uploads.judged: the worker process, its limits,
the WebP re-encode that keeps no metadata), and are stored as the cards of the room's photo
deck, decks/<deck_id(room)>/<card>.webp. That deck has no manifest, so it is never offered,
listed or shared: its id is an HMAC of the room's row id, its pictures are served through the
room's picture pass (deckpass.py), and they are purged with the room (`purge`).

Which seat sent which photo is kept in room.settings["photo_cards"] and shown to that seat
alone (and to the TV, which may take any photo away: family mode's hide); every other view
says only how many photos the table has. When a game of association or jinx is dealt, the
visible photos join the chosen deck's cards (`mixed`).
"""
from __future__ import annotations

import shutil

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.crypto import salted_hmac

from partyhub import decks
from partyhub.rooms.core import pending
from partyhub.rooms.core.errors import fail

PER_SEAT = 5                # a phone's photos at once
MAX_NUMBER = 999            # card numbers a room may hand out in its life (<deck>-001..-999)
CARDS = "photo_cards"       # room.settings: [{"id", "seat"}], oldest first
NEXT = "photo_next"         # room.settings: the last card number handed out
SALT = "partyhub.rooms.photos"


def deck_id(room_pk: int) -> str:
    """The room's photo deck: "u" + 10 hex digits, the shape of an uploaded deck's id, so that
    its cards are served and numbered as theirs are; no other room can name it."""
    return "u" + salted_hmac(SALT, str(room_pk), algorithm="sha256").hexdigest()[:10]


def on(room) -> bool:
    return bool(room.settings.get("photos"))


def cards(room) -> list[dict]:
    got = room.settings.get(CARDS)
    return list(got) if isinstance(got, list) else []


def mine(room, player_id: str) -> list[str]:
    return [c["id"] for c in cards(room) if c.get("seat") == player_id]


def yours(room, player_id: str | None) -> dict:
    """The `you` part of a view: {"photos": a seat's own card ids (the TV's: every one)} while
    photos are on or there are some to take away; else {} (rooms without photos send nothing)."""
    ids = [c["id"] for c in cards(room)] if player_id is None else mine(room, player_id)
    return {"photos": ids} if on(room) or ids else {}


def public(room) -> dict:
    """What every view of the room says: on or off, and how many photos (the view model adds
    their deck and the pass that opens them, deckpass.room_pass, while there may be some)."""
    return {"on": on(room), "count": len(cards(room))}


def mixed(room, dealt: dict) -> dict:
    """The decks resolved for a deal (decks.options.resolved) with the table's photos added to
    each one's cards, when the host has photos on; the game shuffles them in with its seed."""
    ids = [c["id"] for c in cards(room)]
    if not on(room) or not ids:
        return dealt
    return {name: {**deck, "cards": ids + [c for c in deck["cards"] if c not in ids]}
            for name, deck in dealt.items()}


def may_add(room, player_id: str, incoming: int = 1) -> None:
    """Refuse an upload the room takes no more photos from (photos off, not in the lobby, or
    the seat's photos would be more than PER_SEAT)."""
    if not on(room):
        raise fail("photos_off")
    if room.phase != "lobby":
        raise fail("game_running", "Photos are added in the lobby.")
    if len(mine(room, player_id)) + incoming > PER_SEAT:
        raise fail("too_many_photos")


def add(write, code: str, player_id: str, pictures: list[bytes]):
    """Store a seat's judged pictures as cards of the room's photo deck, through the write
    path (`write(code, change)`: write/ladder.room_change), which returns the change."""
    written = []

    def change(room, seats):
        may_add(room, player_id, len(pictures))
        first = int(room.settings.get(NEXT) or 0) + 1
        if first + len(pictures) - 1 > MAX_NUMBER:
            raise fail("too_many_photos")
        deck, new = deck_id(room.pk), []
        for n, webp in enumerate(pictures, start=first):
            card = f"{deck}-{n:03d}"
            written.append(default_storage.save(f"decks/{deck}/{card}.webp", ContentFile(webp)))
            new.append({"id": card, "seat": player_id})
        room.settings = {**room.settings, CARDS: cards(room) + new, NEXT: first + len(pictures) - 1}

    try:
        return write(code, change)
    except BaseException:
        for key in written:
            default_storage.delete(key)
        raise


def remove(write, code: str, card: str, player_id: str | None):
    """Take a photo off the table: a seat its own (`player_id`), the TV any (None); through
    the write path, as `add`."""
    def change(room, seats):
        found = next((c for c in cards(room) if c["id"] == card), None)
        if found is None or (player_id is not None and found.get("seat") != player_id):
            raise fail("photo_not_found")
        if player_id is not None and room.phase != "lobby":
            raise fail("game_running", "Photos are taken away in the lobby.")
        room.settings = {**room.settings, CARDS: [c for c in cards(room) if c["id"] != card]}
        path = decks.card_file(deck_id(room.pk), card)
        if path is not None:
            pending.remove(room, path)
    return write(code, change)


def purge(room_pk: int) -> None:
    """The room's photos gone with it (lifecycle.purge_one)."""
    shutil.rmtree(decks.custom_root() / deck_id(room_pk), ignore_errors=True)
