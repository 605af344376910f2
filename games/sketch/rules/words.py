"""The word lists (games/sketch/words/<language>-<difficulty>.txt) and the deal of word cards."""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from .constants import CARDS, MAX_WORD_CHARS, WORDS_PER_CARD
from .matcher import normalise

WORDS_DIR = Path(__file__).resolve().parent.parent / "words"


def clean_list(lines) -> list[str]:
    """Entries stripped, empty, over-long and repeated (after normalising) ones dropped."""
    out, seen = [], set()
    for line in lines:
        word = " ".join(line.split())
        key = normalise(word)
        if not key or len(word) > MAX_WORD_CHARS or key in seen:
            continue
        seen.add(key)
        out.append(word)
    return out


@lru_cache(maxsize=None)
def builtin(language: str, difficulty: str) -> tuple[str, ...]:
    path = WORDS_DIR / f"{language}-{difficulty}.txt"
    return tuple(clean_list(path.read_text(encoding="utf-8").splitlines()))


def deal(seats: list, options: dict, rnd: random.Random) -> dict:
    """{seat: [[5 words], [5 words]]}; no word appears twice in a game (after normalising).

    The host's custom list (option `words`, one entry a line) is dealt first; the built-in
    list of the room language and difficulty tops it up, so a short custom list still deals.
    """
    custom = clean_list((options.get("words") or "").splitlines())
    taken = {normalise(w) for w in custom}
    rest = [w for w in builtin(options["language"], options["difficulty"])
            if normalise(w) not in taken]
    rnd.shuffle(custom)
    rnd.shuffle(rest)
    need = len(seats) * CARDS * WORDS_PER_CARD
    words = (custom + rest)[:need]
    if len(words) < need:
        raise ValueError(f"the word list has {len(words)} words, {need} are needed")
    rnd.shuffle(words)
    it = iter(words)
    return {seat: [[next(it) for _ in range(WORDS_PER_CARD)] for _ in range(CARDS)]
            for seat in seats}
