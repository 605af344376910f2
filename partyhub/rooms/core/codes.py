"""Room codes: a few letters read off the TV and typed on a phone.

A new room's code has 4 letters while fewer than about half of the 4-letter codes are held
(by living rooms, and by closed ones until they are purged); past that it has 5, and so on
up to MAX_LENGTH. So the code space is never used up, and a code stays short while it can.

How full a length is, is judged without counting rooms: SAMPLE random codes of that length
are looked up at once (one indexed query); if more than half of them are held, the length
is crowded and the next one is tried, else one of the free ones is the new code.
"""
from __future__ import annotations

import secrets

from django.conf import settings

MIN_LENGTH, MAX_LENGTH = 4, 8     # Room.code holds MAX_LENGTH; routes accept 4 to 8 letters
SAMPLE = 16
CROWDED = 0.5


def alphabet() -> str:
    """The letters of codes (no I, L and O by default: they read as 1 and 0 across a room)."""
    return settings.PARTYHUB_CODE_ALPHABET


def random_code(length: int) -> str:
    letters = alphabet()
    return "".join(secrets.choice(letters) for _ in range(length))


def new_code(held) -> str | None:
    """A free code of the shortest length that is not crowded; `held(codes)` says which of
    these codes rooms hold. None when every length up to MAX_LENGTH is crowded."""
    for length in range(MIN_LENGTH, MAX_LENGTH + 1):
        sample = [random_code(length) for _ in range(SAMPLE)]
        taken = held(sample)
        free = [c for c in sample if c not in taken]
        if free and len(free) >= (1 - CROWDED) * len(sample):
            return free[0]
    return None
