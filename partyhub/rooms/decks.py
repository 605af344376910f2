"""Custom decks: stored in DATA_DIR/decks/<id>/ and listed (docs/protocol.md, "Decks").

The pictures of an upload are judged and re-encoded by partyhub/rooms/pictures.py, in a
worker process (partyhub/rooms/uploads.py). The deck is written to a temporary folder and
renamed into DATA_DIR/decks/<id>/ at the end.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import time

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


def store(name: str, cards) -> dict:
    """Write the deck (WebP bytes, in order) under DATA_DIR/decks/<id>/ (atomically: a temp
    folder renamed)."""
    root = decks.custom_root()
    root.mkdir(parents=True, exist_ok=True)
    deck_id = "u" + secrets.token_hex(5)
    while (root / deck_id).exists():
        deck_id = "u" + secrets.token_hex(5)
    tmp = root / f".tmp-{deck_id}"
    tmp.mkdir()
    try:
        ids = []
        for n, webp in enumerate(cards, start=1):
            card_id = f"{deck_id}-{n:03d}"
            (tmp / f"{card_id}.webp").write_bytes(webp)
            ids.append(card_id)
        manifest = {"name": name, "image": f"/decks/{deck_id}/{{id}}.webp", "created": time.time(),
                    "credit": "", "cards": [{"id": i, "objects": []} for i in ids]}
        (tmp / decks.MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1),
                                          encoding="utf-8")
        os.replace(tmp, root / deck_id)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {"deck": deck_id, "name": name, "cards": len(ids)}


def listing() -> list[dict]:
    labels = decks.labels()
    return [{"id": d, "name": labels.get(d, d), "cards": len(decks.card_ids(d))}
            for d in decks.custom_ids()]
