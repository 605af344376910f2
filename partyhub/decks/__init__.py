"""Card decks, a platform asset: the shipped default deck and the decks hosts upload.

The default deck's manifest is default.json here (made offline by association's asset
pipeline, `python -m games.association.deck.generate`); its pictures are static files
(frontend/static/games/association/cards/, the manifest's "image" template).

Uploaded decks (partyhub/decks/custom.py writes them) live in DATA_DIR/decks/<id>/: a
manifest.json ({"name", "image", "created", "owner", "bytes", "share", "shared",
"cards": [{"id", ...}]}) and one WebP per card. Their ids look like "u" + 10 hex digits,
their card ids "<deck id>-<nnn>", so they never collide with the default deck's "a001".. .
`custom_ids()` reads the folder each time, so a deck uploaded a moment ago is offered at once
and every deck survives a restart. A manifest is replaced whole (rename, share), so it is
cached by its path and modification time.

A deck belongs to its uploader's host key (`owner`, its hash) and to the hosts it was shared
with (`shared`): `allowed(host)` is what a room of that host may pick (docs/decisions.md
"Decks belong to whoever uploaded them"); `names()` is the default deck alone, what anyone
else is offered.

Games never call this module: the registry offers its decks as the choices of a game's deck
option, and the room service hands the chosen deck to the rules as plain data
(`partyhub.decks.options`, docs/decisions.md "Decks").
"""
from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

from partyhub.gamekit import DEFAULT_DECK

DEFAULT = DEFAULT_DECK
_HERE = Path(__file__).resolve().parent
CUSTOM_ID = re.compile(r"^u[0-9a-f]{10}$")
CUSTOM_CARD_ID = re.compile(r"^(u[0-9a-f]{10})-\d{3}$")
MANIFEST = "manifest.json"


def custom_root() -> Path:
    """MEDIA_ROOT/decks, where uploads are stored through default_storage (MEDIA_ROOT is
    DATA_DIR) when Django is configured, else $PARTYHUB_DATA/decks."""
    try:
        from django.conf import settings
        if settings.configured:
            return Path(settings.MEDIA_ROOT) / "decks"
    except ImportError:   # tools and a bare interpreter read the decks without Django
        pass
    return Path(os.environ.get("PARTYHUB_DATA", _HERE.parents[1] / "data")) / "decks"


def _uploaded() -> list[tuple[str, dict]]:
    """(id, manifest) of every uploaded deck, oldest first (by the `created` time in their
    manifests): one directory read and one `stat` per deck."""
    try:
        entries = [e for e in os.scandir(custom_root()) if CUSTOM_ID.match(e.name)]
    except OSError:
        return []
    found = []
    for e in entries:
        try:
            m = _read(e.path)
        except (OSError, ValueError):     # no manifest (yet, or any more), or a broken one
            continue
        found.append((m.get("created", 0), e.name, m))
    return [(name, m) for _, name, m in sorted(found, key=lambda x: (x[0], x[1]))]


def custom_ids() -> list[str]:
    """The uploaded decks, oldest first (by the `created` time in their manifests)."""
    return [name for name, _ in _uploaded()]


def names() -> tuple[str, ...]:
    """The decks anyone may choose: the default deck (uploaded ones are their hosts')."""
    return (DEFAULT,)


def labels(ids=None) -> dict[str, str]:
    """Deck id -> the name its uploader gave it (the options picker shows these); every
    uploaded deck, or those of `ids`."""
    return {name: _manifest(name).get("name", name) for name in (custom_ids() if ids is None else ids)}


def manifest(name: str) -> dict:
    """An uploaded deck's manifest (a copy; raises KeyError for an unknown deck)."""
    if name == DEFAULT:
        raise KeyError(name)
    return dict(_manifest(name))


def owned(host: str) -> list[str]:
    """The uploaded decks whose owner is the host key hash `host`, oldest first."""
    return [d for d, m in _uploaded() if host and m.get("owner") == host]


def allowed(host: str) -> list[str]:
    """The uploaded decks a room of `host` may pick: its own and those shared with it."""
    if not host:
        return []
    return [d for d, m in _uploaded() if m.get("owner") == host or host in m.get("shared", ())]


def names_for(host: str) -> tuple[str, ...]:
    """The decks a room of `host` may pick: the default deck, then its allowed ones."""
    return (DEFAULT, *allowed(host))


def _read(folder) -> dict:
    path = os.path.join(folder, MANIFEST)
    st = os.stat(path)    # a replaced manifest is a new file: another inode, time and size
    return _custom(path, (st.st_ino, st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=1024)
def _custom(path: str, stamp: tuple) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=8)
def _shipped(name: str) -> dict:
    return json.loads((_HERE / f"{name}.json").read_text(encoding="utf-8"))


def _manifest(name: str) -> dict:
    if name == DEFAULT:
        return _shipped(name)
    if isinstance(name, str) and CUSTOM_ID.match(name):
        try:
            return _read(custom_root() / name)
        except FileNotFoundError:
            pass
    raise KeyError(f"unknown deck {name!r}")


def shipped_manifest_path(name: str = DEFAULT) -> Path:
    """Where a shipped deck's manifest lives (the generator writes it there)."""
    return _HERE / f"{name}.json"


def card_ids(name: str = DEFAULT) -> list[str]:
    """The deck's card ids in a fixed order (shuffle with the game's seed)."""
    return [card["id"] for card in _manifest(name)["cards"]]


def objects(name: str = DEFAULT) -> dict[str, list[str]]:
    """Card id -> the names of the things drawn on it (captions and tools use them)."""
    return {card["id"]: list(card.get("objects", [])) for card in _manifest(name)["cards"]}


def cards(name: str = DEFAULT) -> list[dict]:
    """Each card's id, objects, scene family, palette, title and its actor's mood ("" if none)."""
    return [{"id": c["id"], "objects": list(c.get("objects", [])), "family": c.get("family", ""),
             "palette": c.get("palette", ""), "title": c.get("title", ""), "mood": c.get("mood") or ""}
            for c in _manifest(name)["cards"]]


def image_path(name: str = DEFAULT) -> str:
    """The path template of the deck's pictures, with `{id}` for the card id: relative to
    STATIC_URL for the shipped deck, absolute ("/decks/<deck>/{id}.webp") for an uploaded one,
    whose pictures are served only to a room that uses it (partyhub/decks/deckpass.py)."""
    return _manifest(name)["image"]


def credit(name: str = DEFAULT) -> str:
    return _manifest(name).get("credit", "")


def card_file(deck_id: str, card_id: str) -> Path | None:
    """The picture file of an uploaded deck's card, or None when the ids cannot name one.

    Only well-formed ids of the same deck get a path, so a request cannot reach outside
    DATA_DIR/decks; whether the file exists is for the caller's open() to find out.
    """
    m = CUSTOM_CARD_ID.match(card_id)
    if not CUSTOM_ID.match(deck_id) or not m or m.group(1) != deck_id:
        return None
    return custom_root() / deck_id / f"{card_id}.webp"


def resolve(name: str) -> dict:
    """The deck as plain data for a game's setup (raises KeyError for an unknown deck):

    {"id", "name" (its label), "image" (the path template), "cards" (ids in a fixed order),
     "spares" (the default deck's ids not in this deck, for a game that tops a small deck
     up, as jinx does; [] for the default deck itself),
     "families" (card id -> scene family, for the cards that have one: the shipped deck's
     and its spares; a game deals so that a hand or a grid never repeats one),
     "palettes" (card id -> palette, likewise: jinx's square varies them too)}
    """
    ids = card_ids(name)
    own = set(ids)
    spares = [] if name == DEFAULT else [i for i in card_ids(DEFAULT) if i not in own]
    label = DEFAULT if name == DEFAULT else _manifest(name).get("name", name)
    known = [c for c in cards(name) + (cards(DEFAULT) if spares else []) if c["family"]]
    return {"id": name, "name": label, "image": image_path(name), "cards": ids, "spares": spares,
            "families": {c["id"]: c["family"] for c in known},
            "palettes": {c["id"]: c["palette"] for c in known if c["palette"]}}
