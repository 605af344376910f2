"""The Ukrainian dictionary of klepka: pymorphy3 + pymorphy3-dicts-uk, read offline.

Plain Python (no Django): the rules receive an object with this interface (`is_word`,
`can_make`, `find`), so tests can pass a tiny fake instead.

- Every word form counts ("any case, gender, number"): the 6.5 million forms of the
  dictionary, not only lemmas.
- Proper names and abbreviations do not count: a form counts when at least one of its
  readings belongs to a lexeme with no first-name, surname, patronymic or abbreviation
  form (Name, Surn, Patr, Abbr: the uk dictionary often tags only the oblique forms of an
  abbreviation, so the whole lexeme is judged), and a word of two letters or more needs a
  vowel ("бк", "бмв" are abbreviations the dictionary leaves untagged). The uk dictionary
  does not tag place names, so "київ" and "україні" count.
- Case and every apostrophe variant (' ’ ʼ ` ´ ‘) are normalised; since cards carry no
  apostrophe, a word is known when the dictionary has it with or without apostrophes
  ("пять" finds "п'ять"). Hyphenated compounds and non-letters are not words.
- `nouns_only` (a house rule): a noun in the nominative singular.

`warm()` loads the dictionary (about 0.1 s, 40 MB with pymorphy3); call it at start-up
(or in a background thread) so the first player does not wait.
"""
from __future__ import annotations

import threading

from games.klepka.dawgsearch import DawgSearch
from games.klepka.rules.alphabet import ALPHABET, is_card_spelling, letters_only, normalise

PROPER = frozenset({"Name", "Surn", "Patr", "Abbr", "Geox", "Orgn", "Trad", "Init", "LATN",
                    "UNKN", "PNCT", "NUMB", "ROMN"})
_CACHE_LIMIT = 200_000
VOWELS = frozenset("аеєиіїоуюя")


def has_vowel(word: str) -> bool:
    """Words of two letters or more have a vowel; vowel-less strings are abbreviations."""
    return len(word) < 2 or not VOWELS.isdisjoint(word)


class UkDictionary:
    def __init__(self, analyzer=None):
        if analyzer is None:
            # the platform's one uk analyzer (family mode lemmatises with it too): loaded once
            from partyhub.family.lemmas import analyzer as shared
            analyzer = shared("uk")
        d = analyzer.dictionary
        self._paradigms = d.paradigms
        self._search = DawgSearch(d.words, ALPHABET)
        self._any_ok = [not (tag.grammemes & PROPER) for tag in d.gramtab]
        self._noun_ok = [ok and {"NOUN", "nomn"} <= tag.grammemes and "plur" not in tag.grammemes
                         for ok, tag in zip(self._any_ok, d.gramtab)]
        # The uk dictionary often tags only the other forms of an abbreviation or a name
        # (its nominative lacks Abbr): a lexeme with any such form is left out as a whole.
        self._para_ok = [all(self._any_ok[t] for t in p[len(p) // 3: 2 * len(p) // 3])
                         for p in d.paradigms]
        self._node_cache: dict[tuple[int, bool], bool] = {}

    # -- readings ----------------------------------------------------------------------
    def _node_ok(self, sep: int, nouns_only: bool) -> bool:
        key = (sep, nouns_only)
        hit = self._node_cache.get(key)
        if hit is None:
            table = self._noun_ok if nouns_only else self._any_ok
            hit = False
            for para, idx in self._search.payloads(sep):
                paradigm = self._paradigms[para]
                if self._para_ok[para] and table[paradigm[len(paradigm) // 3 + idx]]:
                    hit = True
                    break
            if len(self._node_cache) > _CACHE_LIMIT:
                self._node_cache.clear()
            self._node_cache[key] = hit
        return hit

    # -- the interface the rules use -------------------------------------------------
    def spelling(self, word: str, nouns_only: bool = False) -> str | None:
        """The dictionary spelling (with apostrophes) of a known word, else None."""
        letters = letters_only(word)
        if not is_card_spelling(letters):
            return None
        if not has_vowel(letters):
            return None
        for spelling, sep in self._search.spellings(letters):
            if self._node_ok(sep, nouns_only):
                return spelling
        return None

    def is_word(self, word: str, nouns_only: bool = False) -> bool:
        return self.spelling(word, nouns_only) is not None

    def find(self, letters, wild: bool = False, *, nouns_only: bool = False,
             exclude=frozenset(), min_letters: int = 2, limit: int = 1):
        """Up to `limit` words the letters can build: [(card spelling, wild letter|None)]."""
        counts: dict[str, int] = {}
        for ch in letters:
            counts[ch] = counts.get(ch, 0) + 1

        def accept(spelling: str, sep: int) -> bool:
            return has_vowel(spelling) \
                and (not exclude or letters_only(spelling) not in exclude) \
                and self._node_ok(sep, nouns_only)

        found = self._search.find(counts, wild, min_letters, accept, limit)
        return [(letters_only(w), ch) for w, ch in found]

    def can_make(self, letters, wild: bool = False, *, nouns_only: bool = False,
                 exclude=frozenset(), min_letters: int = 2) -> bool:
        """Can these letters (a multiset) and maybe one polysemy card still build a word?"""
        return bool(self.find(letters, wild, nouns_only=nouns_only, exclude=exclude,
                              min_letters=min_letters))


_lock = threading.Lock()
_default: UkDictionary | None = None


def get() -> UkDictionary:
    """The process-wide dictionary, loaded once (thread-safe)."""
    global _default
    if _default is None:
        with _lock:
            if _default is None:
                _default = UkDictionary()
    return _default


def warm() -> None:
    get()


def lookup(word: str) -> dict:
    """The answer of GET /api/dictionary/uk/<word>: {"word", "known"} (+ "spelling" if known)."""
    text = normalise(word)[:64]
    spelling = get().spelling(text) if len(text) <= 40 else None
    out = {"word": text, "known": spelling is not None}
    if spelling is not None:
        out["spelling"] = spelling
    return out
