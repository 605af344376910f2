"""Custom decks: stored and listed (docs/protocol.md, "Decks").

The pictures of an upload are judged and re-encoded by partyhub/rooms/pictures.py, in a
worker process (partyhub/rooms/uploads.py). The deck goes through Django's storage API
(default_storage, MEDIA_ROOT = DATA_DIR) under decks/<id>/: the cards first, the manifest
last, since a deck is offered (partyhub/decks) only once its manifest is there. In compose
that folder is the `decks` volume every web replica mounts.
"""
from __future__ import annotations

import json
import secrets
import time

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from partyhub import decks
from partyhub.rooms.errors import fail

MAX_NAME = 40


def clean_name(name) -> str:
    """The deck's name as shown: invisible controls stripped, spaces folded."""
    from partyhub.text import visible
    name = " ".join(visible(str(name or "")).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise fail("bad_deck_name")
    return name


def card_key(deck_id: str, card_id: str) -> str:
    """Where a card lives in default_storage."""
    return f"decks/{deck_id}/{card_id}.webp"


def store(name: str, cards) -> dict:
    """Write the deck under decks/<id>/ in default_storage: cards, then the manifest that makes
    it a deck. A failure part-way removes what was written."""
    deck_id = "u" + secrets.token_hex(5)
    while default_storage.exists(f"decks/{deck_id}/{decks.MANIFEST}"):
        deck_id = "u" + secrets.token_hex(5)
    written = []
    try:
        ids = []
        for n, webp in enumerate(cards, start=1):
            card_id = f"{deck_id}-{n:03d}"
            written.append(default_storage.save(card_key(deck_id, card_id), ContentFile(webp)))
            ids.append(card_id)
        manifest = {"name": name, "image": f"/decks/{deck_id}/{{id}}.webp", "created": time.time(),
                    "credit": "", "cards": [{"id": i, "objects": []} for i in ids]}
        text = json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8")
        written.append(default_storage.save(f"decks/{deck_id}/{decks.MANIFEST}", ContentFile(text)))
    except BaseException:
        for key in written:
            default_storage.delete(key)
        raise
    return {"deck": deck_id, "name": name, "cards": len(ids)}


def listing() -> list[dict]:
    labels = decks.labels()
    return [{"id": d, "name": labels.get(d, d), "cards": len(decks.card_ids(d))}
            for d in decks.custom_ids()]
