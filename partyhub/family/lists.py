"""The deny lists: the shipped ones (words/*.txt) and the server's own file, as skeletons.

An entry is kept as the run-length form of its skeleton: "fuck" is f1 u1 c1 k1, "ass" a1 s2.
A token matches an entry when its letters, with runs squeezed, are the entry's and every
run is at least as long as the entry's: "fuuuck" and "asss" match, "as" does not match "ass",
and "bobbies" does not match "boobies" (o1 is shorter than o2).
"""
from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from partyhub.family import normal

log = logging.getLogger(__name__)
WORDS = Path(__file__).parent / "words"
LANGUAGES = ("en", "uk", "ru")
# Verb and noun prefixes a `~stem*` entry is also found after (skeletons: ъ is ь, і is и).
PREFIXES = ("на", "по", "за", "от", "вы", "ви", "до", "о", "об", "у", "с", "раз", "рас",
            "роз", "при", "пере", "недо", "под", "пид", "из", "ис", "вз", "ни", "не", "про",
            "вь", "вид", "оту", "ох")


def runs(skeleton: str) -> tuple[str, tuple[int, ...]]:
    """("fuck", (1, 1, 1, 1)) for "fuuck"? no: ("fuck", (1, 2, 1, 1))."""
    letters, counts = [], []
    for ch in skeleton:
        if letters and letters[-1] == ch:
            counts[-1] += 1
        else:
            letters.append(ch)
            counts.append(1)
    return "".join(letters), tuple(counts)


@dataclass
class Words:
    """Entries of one script: {squeezed letters: [run lengths, ...]} for whole words, stems,
    and stems also found after a prefix."""
    exact: dict = field(default_factory=dict)
    stems: dict = field(default_factory=dict)
    prefixed: dict = field(default_factory=dict)
    longest_stem: int = 0

    def add(self, skeleton: str, stem: bool, prefixed: bool = False) -> None:
        letters, counts = runs(skeleton)
        table = self.exact if not stem else self.prefixed if prefixed else self.stems
        table.setdefault(letters, []).append(counts)
        if stem:
            self.longest_stem = max(self.longest_stem, len(letters))

    def has(self, skeleton: str, prefixes=()) -> bool:
        letters, counts = runs(skeleton)
        if _covers(self.exact.get(letters), counts):
            return True
        if self._stem(skeleton, (self.stems, self.prefixed)):
            return True
        for p in prefixes:
            if skeleton.startswith(p) and len(skeleton) > len(p):
                rest = skeleton[len(p):]
                rest = rest[1:] if rest[:1] == "ь" else rest      # отъебись
                if self._stem(rest, (self.prefixed,)):
                    return True
        return False

    def _stem(self, skeleton: str, tables) -> bool:
        letters, counts = runs(skeleton)
        for n in range(1, min(len(letters), self.longest_stem) + 1):
            if any(_covers(t.get(letters[:n]), counts[:n]) for t in tables):
                return True
        return False


def _covers(entries, counts) -> bool:
    return bool(entries) and any(all(c >= e for c, e in zip(counts, entry)) for entry in entries)


@dataclass
class DenyList:
    latin: Words = field(default_factory=Words)
    cyrillic: Words = field(default_factory=Words)

    def add_line(self, line: str) -> None:
        word = line.split("#", 1)[0].strip()
        if not word or " " in word:
            return
        stem = word.endswith("*")
        prefixed = stem and word.startswith("~")
        folded = normal.fold(word.strip("*~"))
        if any("\u0400" <= ch <= "\u04ff" for ch in folded):
            skeleton, words = normal.cyrillic(folded), self.cyrillic
        else:
            skeleton, words = normal.latin(folded), self.latin
        if skeleton:
            words.add(skeleton, stem, prefixed)

    def has_latin(self, skeleton: str) -> bool:
        return self.latin.has(skeleton)

    def has_cyrillic(self, skeleton: str) -> bool:
        return self.cyrillic.has(skeleton, PREFIXES)


@functools.lru_cache(maxsize=1)
def shipped() -> DenyList:
    deny = DenyList()
    for lang in LANGUAGES:
        for line in (WORDS / f"{lang}.txt").read_text(encoding="utf-8").splitlines():
            deny.add_line(line)
    return deny


def server_words(path: str) -> DenyList | None:
    """The server's own entries (PARTYHUB_DENY_WORDS_FILE), read again when the file changes;
    None without a file. A file that cannot be read is logged and the shipped lists serve."""
    if not path:
        return None
    try:
        return _read_server_words(path, os.stat(path).st_mtime_ns)
    except (OSError, UnicodeError) as e:
        log.error("PARTYHUB_DENY_WORDS_FILE %s cannot be read: %s", path, e)
        return None


@functools.lru_cache(maxsize=4)
def _read_server_words(path: str, mtime: int) -> DenyList:
    deny = DenyList()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        deny.add_line(line)
    return deny
