"""Jinx's image cards: 71 double-sided cards made from a deck's face ids, and the deal sizes."""
from __future__ import annotations

from functools import lru_cache

CARDS = 71            # double-sided image cards in the box
FACES = 2 * CARDS     # 142 faces
GRID = 9              # the 3x3 square
REMOVED = {3: 30, 4: 20, 5: 10, 6: 0}   # image cards put back in the box, by player count


def synthetic_faces() -> list[str]:
    """Stand-in face ids "f000".."f141" for when no image deck is installed."""
    return [f"f{i:03d}" for i in range(FACES)]


def _deck_ids(deck: str) -> list[str]:
    """The image ids of `deck` from the association decks, or [] when there are none.

    Expects `games.association.deck.card_ids(name) -> list[str]` (pure, no I/O beyond its
    own data files); `face_ids` is accepted as another name for the same function.
    """
    try:
        from games.association import deck as decks
    except ImportError:
        return []
    for name in ("card_ids", "face_ids"):
        fn = getattr(decks, name, None)
        if callable(fn):
            try:
                return [str(i) for i in fn(deck)]
            except (LookupError, ValueError):
                return []
    return []


def deck_names() -> tuple[str, ...]:
    """The decks the `deck` option offers: association's (the default and uploaded ones)."""
    try:
        from games.association import deck as decks
        return tuple(decks.names())
    except (ImportError, OSError):
        return ("default",)


def deck_labels() -> dict[str, str]:
    try:
        from games.association import deck as decks
        return dict(decks.labels())
    except (ImportError, OSError):
        return {}


@lru_cache(maxsize=32)
def _faces(deck: str) -> tuple[str, ...]:
    ids = list(dict.fromkeys(_deck_ids(deck)))   # unique, in order
    if ids and deck != "default" and len(ids) < FACES:
        # a small uploaded deck is topped up from the default deck to the full box (71 cards);
        # its own pictures come first, so they are glued back to back with each other
        own = set(ids)
        ids += [i for i in dict.fromkeys(_deck_ids("default")) if i not in own]
    if len(ids) < 2 * GRID:
        ids = synthetic_faces()
    return tuple(ids[: 2 * (min(len(ids), FACES) // 2)])


def faces(deck: str = "default") -> list[str]:
    """Up to 142 distinct face ids of `deck` (an even number, at least 18).

    An uploaded deck with fewer than 142 pictures is topped up from the default deck.
    Falls back to synthetic ids when the deck is missing or too small to fill the square twice.
    """
    return list(_faces(deck))


def pair(face_ids: list[str]) -> list[list[str]]:
    """Consecutive faces glued back to back: card i shows face_ids[2i] or face_ids[2i+1]."""
    return [[face_ids[i], face_ids[i + 1]] for i in range(0, len(face_ids) - 1, 2)]


def pile_size(cards: int, players: int) -> int:
    """How many image cards make up the draw pile: the box less REMOVED[players].

    A smaller custom deck is played whole, up to the same pile size.
    """
    return max(0, min(cards, CARDS - REMOVED[players]))
