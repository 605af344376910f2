"""A letter-multiset search straight over pymorphy3's word DAWG (no copy of the word list).

pymorphy3 stores every Ukrainian word form in `words.dawg`: a minimised trie (a DAWG) of UTF-8
keys `<word>\\x01<base64 (paradigm, form index)>`. Walking it byte by byte is a trie walk, so
"which words can these cards spell?" is a depth-first walk that only follows letters still in
the hand: it never scans the 6.5 million forms. The DAWG costs no memory beyond what the
analyser already loaded (about 8.5 MB of units).

Cards carry no apostrophe: an apostrophe in a dictionary spelling is followed for free.
"""
from __future__ import annotations

import struct
from binascii import a2b_base64
from typing import Callable

from dawg_python import wrapper

_MASK = 0xFFFFFFFF
_EXT = 1 << 9
_LABEL = (1 << 31) | 0xFF
_SEP = 0x01
_APOS = 0x27
_PAIR = struct.Struct(">HH")


class DawgSearch:
    def __init__(self, dawg, alphabet: str):
        self._dct = dawg.dct
        self._guide = dawg.guide
        self._units = dawg.dct._units
        # Each card letter as its UTF-8 bytes (two for every Cyrillic letter).
        self._bytes = {ch: tuple(ch.encode("utf8")) for ch in alphabet}
        self._alphabet = alphabet

    # -- low level -----------------------------------------------------------------
    def _follow(self, label: int, index: int):
        u = self._units
        base = u[index]
        nxt = (index ^ (((base >> 10) << ((base & _EXT) >> 6)) & _MASK) ^ label) & _MASK
        return nxt if (u[nxt] & _LABEL) == label else None

    def _letter(self, ch: str, index: int):
        a, b = self._bytes[ch]
        i = self._follow(a, index)
        return None if i is None else self._follow(b, i)

    def payloads(self, sep_index: int) -> list[tuple[int, int]]:
        """(paradigm id, form index) of every reading stored below a separator node."""
        completer = wrapper.Completer(self._dct, self._guide)
        completer.start(sep_index)
        out = []
        while completer.next():
            out.append(_PAIR.unpack(a2b_base64(bytes(completer.key))))
        return out

    # -- exact spelling ------------------------------------------------------------
    def spellings(self, letters: str) -> list[tuple[str, int]]:
        """Dictionary spellings of a card word (apostrophes optional) with their separator node."""
        found: list[tuple[str, int]] = []
        self._spell(letters, 0, self._dct.ROOT, [], found)
        return found

    def _spell(self, letters, pos, index, path, found):
        if pos == len(letters):
            sep = self._follow(_SEP, index)
            if sep is not None:
                found.append(("".join(path), sep))
            return
        nxt = self._letter(letters[pos], index)
        if nxt is not None:
            path.append(letters[pos])
            self._spell(letters, pos + 1, nxt, path, found)
            path.pop()
        if 0 < pos and path[-1] != "'":
            ap = self._follow(_APOS, index)
            if ap is not None:
                path.append("'")
                self._spell(letters, pos, ap, path, found)
                path.pop()

    # -- hand search -----------------------------------------------------------------
    def find(self, counts: dict[str, int], wild: bool, min_letters: int,
             accept: Callable[[str, int], bool], limit: int = 1) -> list[tuple[str, str | None]]:
        """Up to `limit` (spelling, wild letter or None) the hand can build and `accept` approves.

        counts: letter -> cards held; wild: a polysemy card is held (it stands for one letter,
        as many times as that letter occurs in the word); a word needs one real card at least.
        """
        counts = {ch: n for ch, n in counts.items() if n > 0 and ch in self._bytes}
        if not counts:
            return []
        found: list[tuple[str, str | None]] = []
        follow, letter = self._follow, self._letter
        alphabet = self._alphabet
        path: list[str] = []

        def walk(index, n_letters, real, wild_ch, choices):
            # wild_ch: "" = a polysemy is free to choose its letter, None = none, else its letter
            if n_letters >= min_letters and real:
                sep = follow(_SEP, index)
                if sep is not None:
                    word = "".join(path)
                    if accept(word, sep):
                        found.append((word, wild_ch or None))
                        if len(found) >= limit:
                            return True
            for ch in choices:
                have = counts.get(ch, 0)
                nxt = letter(ch, index)
                if nxt is None:
                    continue
                path.append(ch)
                if have:
                    counts[ch] = have - 1
                    stop = walk(nxt, n_letters + 1, real + 1, wild_ch, choices)
                    counts[ch] = have
                    if stop:
                        return True
                if wild_ch == ch:
                    if walk(nxt, n_letters + 1, real, ch, choices):
                        return True
                elif wild_ch == "":
                    narrowed = held if ch in counts else held + (ch,)
                    if walk(nxt, n_letters + 1, real, ch, narrowed):
                        return True
                path.pop()
            if path and path[-1] != "'":
                ap = follow(_APOS, index)
                if ap is not None:
                    path.append("'")
                    if walk(ap, n_letters, real, wild_ch, choices):
                        return True
                    path.pop()
            return False

        held = tuple(counts)
        if wild:
            walk(self._dct.ROOT, 0, 0, "", tuple(alphabet))
        else:
            walk(self._dct.ROOT, 0, 0, None, held)
        return found
