"""Hidden texts out of a view (the host's `hide`, partyhub/rooms/familymode.py): pure.

Keys, not values, decide what is text: only the values of TEXT_KEYS fields are compared with
the hidden texts (ignoring case and runs of white space), so an id or a card that equals a
hidden clue is left alone, and drawings (NO_TEXT_KEYS) are not walked at all.
"""
from __future__ import annotations

PLACEHOLDER = "•••"          # a hidden text, in every view
HIDDEN_MAX = 200             # texts hidden in one room
# The keys under which views carry people's text (gamekit: a game's shown text goes under one
# of these); only their values are compared with the hidden texts, never ids or choices.
TEXT_KEYS = frozenset(("name", "clue", "text", "word", "seat", "barred"))
# Fields that never hold text and may be large (a drawing's strokes): not walked.
NO_TEXT_KEYS = frozenset(("strokes", "points"))


def key(text: str) -> str:
    """A text as hidden texts are compared: casefolded, runs of white space as one space."""
    return " ".join(text.casefold().split())


def redact(obj, keys: frozenset, under: str = ""):
    """`obj` (a view, or part of one) with every text in `keys` under a TEXT_KEYS key replaced
    by PLACEHOLDER; returned as it is when nothing is hidden."""
    if not keys:
        return obj
    if isinstance(obj, dict):
        return {k: v if k in NO_TEXT_KEYS else redact(v, keys, k) for k, v in obj.items()}
    if isinstance(obj, list):
        return [redact(v, keys, under) for v in obj]
    if isinstance(obj, str) and under in TEXT_KEYS and key(obj) in keys:
        return PLACEHOLDER
    return obj
