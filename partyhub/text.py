"""Text from people, cut to what can be seen: the one place that strips invisible controls.

Names, clues, guesses, custom word lists and deck names pass through `visible` (pure: the
rules of a game may import it). Stripped: every format character (Unicode category Cf:
the bidirectional embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069, the
marks U+200E, U+200F and U+061C, the zero-width space, joiners and no-break space U+200B-U+200D
and U+FEFF, the word joiner U+2060, soft hyphens, tag characters...), lone surrogates (Cs:
not text) and control characters (Cc) other than tab and line breaks. A right-to-left
override in a clue would otherwise reverse the text after it on the TV, and zero-width
characters let two names that look the same pass as different (docs/security.md).

The price: emoji sequences joined by U+200D fall apart into their parts (a family becomes its
members), and scripts that need the zero-width non-joiner (Persian) lose it: none of the
room languages (en, uk, ru) does.
"""
from __future__ import annotations

import unicodedata

STRIPPED = frozenset(("Cf", "Cs", "Cc"))
KEPT = frozenset("\t\n\r")


def visible(text: str) -> str:
    """`text` without invisible control characters (see the module's docstring)."""
    if text.isprintable():      # no Cc, Cf, Cs (nor separators but space): nothing to strip
        return text
    return "".join(ch for ch in text
                   if ch in KEPT or unicodedata.category(ch) not in STRIPPED)
