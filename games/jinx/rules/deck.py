"""Jinx's image cards: 71 double-sided cards made from a deck's face ids, and the deal sizes.

The deck comes as data: the platform resolves the `deck` option into options["_deck"]
({"id", "cards", "spares", ...}, partyhub.gamekit). Nothing here looks a deck up.
"""
from __future__ import annotations

CARDS = 71            # double-sided image cards in the box
FACES = 2 * CARDS     # 142 faces
GRID = 9              # the 3x3 square
REMOVED = {3: 30, 4: 20, 5: 10, 6: 0}   # image cards put back in the box, by player count


def synthetic_faces() -> list[str]:
    """Stand-in face ids "f000".."f141" for when no image deck is given."""
    return [f"f{i:03d}" for i in range(FACES)]


def faces(deck: dict | None) -> list[str]:
    """Up to 142 distinct face ids of `deck` (an even number, at least 18).

    A deck with fewer than 142 pictures (an uploaded one) is topped up from its `spares`
    (the default deck's other cards); its own pictures come first, so they are glued back
    to back with each other. Synthetic ids when there is no deck or it cannot fill the
    square twice.
    """
    ids = [str(i) for i in dict.fromkeys((deck or {}).get("cards") or ())]   # unique, in order
    if ids and len(ids) < FACES:
        own = set(ids)
        ids += [str(i) for i in dict.fromkeys(deck.get("spares") or ()) if str(i) not in own]
    if len(ids) < 2 * GRID:
        ids = synthetic_faces()
    return ids[: 2 * (min(len(ids), FACES) // 2)]


def pair(face_ids: list[str]) -> list[list[str]]:
    """Consecutive faces glued back to back: card i shows face_ids[2i] or face_ids[2i+1]."""
    return [[face_ids[i], face_ids[i + 1]] for i in range(0, len(face_ids) - 1, 2)]


def pile_size(cards: int, players: int) -> int:
    """How many image cards make up the draw pile: the box less REMOVED[players].

    A smaller custom deck is played whole, up to the same pile size.
    """
    return max(0, min(cards, CARDS - REMOVED[players]))


def families_of(deck: dict | None, cards: list[list[str]], key: str = "families") -> dict[str, str]:
    """Face id -> its scene family (or its palette, key="palettes"), for the faces in play
    whose deck tells one (the grid never shows two of a family, and seldom two of a
    palette); {} for a deck without them."""
    told = (deck or {}).get(key) or {}
    return {f: told[f] for pair_ in cards for f in pair_ if told.get(f)}
