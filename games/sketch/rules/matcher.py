"""Is a guess correct? The card's word (all of its words, in order) as whole words of the guess.

Both sides are normalised: Unicode NFKC, case folded, ё -> е, apostrophes removed (so м'яч,
м’яч and мяч are one word), every other non-letter, non-digit character turned into a space.
"car" is guessed by "toy car" and "Car-hire!" but not by "supercar"; "ferry" is not guessed by
"ship".
"""
from __future__ import annotations

import re
import unicodedata

APOSTROPHES = "'’ʼ`‘´ʹ"
_APOSTROPHE_RE = re.compile(f"[{re.escape(APOSTROPHES)}]")
_NON_WORD_RE = re.compile(r"[\W_]+")


def normalise(text: str) -> str:
    """Lower-case words separated by single spaces; "" when nothing word-like is left."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("ё", "е")
    text = _APOSTROPHE_RE.sub("", text)
    return " ".join(_NON_WORD_RE.sub(" ", text).split())


def words_of(text: str) -> list[str]:
    return normalise(text).split()


def is_correct(word: str, guess: str) -> bool:
    """True when the card's word appears as whole, contiguous words in the guess."""
    target, said = words_of(word), words_of(guess)
    if not target:
        return False
    n = len(target)
    return any(said[i:i + n] == target for i in range(len(said) - n + 1))
