"""Card decks for association (and jinx): pure look-ups over shipped manifests.

The default deck is generated once (`python -m games.association.deck.generate`) into
default.json plus one WebP per card under frontend/static/games/association/cards/.
Reading a deck needs no browser, no Django and no network.

Custom decks (uploaded by the host) are future work: they will be registered here under
their own names, so `card_ids(name)` and the `deck` game option pick them up unchanged.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

DEFAULT = "default"
_HERE = Path(__file__).resolve().parent


def names() -> tuple[str, ...]:
    """Every deck that can be chosen in the game options."""
    return (DEFAULT,)


@functools.lru_cache(maxsize=8)
def _manifest(name: str) -> dict:
    if name not in names():
        raise KeyError(f"unknown deck {name!r}")
    return json.loads((_HERE / f"{name}.json").read_text(encoding="utf-8"))


def card_ids(name: str = DEFAULT) -> list[str]:
    """The deck's card ids in a fixed order (shuffle with the game's seed)."""
    return [card["id"] for card in _manifest(name)["cards"]]


def objects(name: str = DEFAULT) -> dict[str, list[str]]:
    """Card id -> the names of the things drawn on it (bots and captions use them)."""
    return {card["id"]: list(card["objects"]) for card in _manifest(name)["cards"]}


def cards(name: str = DEFAULT) -> list[dict]:
    """Each card's id, objects, scene family and palette."""
    return [{"id": c["id"], "objects": list(c["objects"]), "family": c["family"],
             "palette": c["palette"]} for c in _manifest(name)["cards"]]


def image_path(name: str = DEFAULT) -> str:
    """The static path template of the deck's pictures, with `{id}` for the card id."""
    return _manifest(name)["image"]


def credit(name: str = DEFAULT) -> str:
    return _manifest(name).get("credit", "")
