"""Hidden texts out of a view (the host's `hide`, partyhub/rooms/access/familymode.py): pure.

Keys, not values, decide what is text: only the values of TEXT_KEYS fields are compared with
the hidden texts, so an id or a card that equals a hidden clue is left alone, and drawings
(NO_TEXT_KEYS) are not walked at all. A text is compared as texts are (partyhub.text.keys):
ignoring case, runs of white space, invisible characters and letters that look alike, so a
hidden "rude one" hides "RUDE  ONE", "ru\u034fde one" and "rudе one" with a Cyrillic е.
"""
from __future__ import annotations

from partyhub.text import keys, visible

PLACEHOLDER = "•••"          # a hidden text, in every view
HIDDEN_MAX = 200             # texts hidden in one room
# The keys under which views carry people's text (gamekit: a game's shown text goes under one
# of these); only their values are compared with the hidden texts, never ids or choices.
TEXT_KEYS = frozenset(("name", "clue", "text", "word", "seat", "barred"))
# Fields that never hold text and may be large (a drawing's strokes): not walked.
NO_TEXT_KEYS = frozenset(("strokes", "points", "portrait"))


def shown(text) -> str:
    """A text as it is kept among the hidden ones: its visible part, runs of white space as
    one space ("" for no text)."""
    return " ".join(visible(text).split()) if isinstance(text, str) else ""


def hidden_keys(texts) -> frozenset:
    """The keys (partyhub.text.keys) of the hidden texts, for `redact`."""
    return frozenset().union(*(keys(t) for t in texts if isinstance(t, str)))


def redact(obj, hidden: frozenset, under: str = ""):
    """`obj` (a view, or part of one) with every text under a TEXT_KEYS key that shares a key
    with `hidden` (hidden_keys) replaced by PLACEHOLDER; returned as it is when nothing is
    hidden."""
    if not hidden:
        return obj
    if isinstance(obj, dict):
        return {k: v if k in NO_TEXT_KEYS else redact(v, hidden, k) for k, v in obj.items()}
    if isinstance(obj, list):
        return [redact(v, hidden, under) for v in obj]
    if isinstance(obj, str) and under in TEXT_KEYS and keys(obj) & hidden:
        return PLACEHOLDER
    return obj
