"""Text to tokens to skeletons: the family filter's normalisation (pure, no Django).

A text is cut into tokens; every token gets two *skeletons*, one in Latin letters and one
in Cyrillic ones, in which every way of writing a letter that the filter knows of becomes
that letter: case (casefold), width and compatibility forms (NFKC), accents (dropped, so
ё is е; but й and ї are kept), і, є, ъ, ў and ґ fold to и, е, ь, у and г, invisible characters
(stripped: partyhub.text.visible, default-ignorables too), letters of other scripts and forms as
their UTS #39 prototype (confusables.txt: Greek ο is o, small capital ᴄ is c, Cherokee Ꭺ is a; every
letter but the Latin and Cyrillic ones the filter reads itself, below), look-alikes of the other
script (Cyrillic а/е/о/р/с/х/у/і... in a Latin word, Latin a/e/o/p/c/x/y/i... in a Cyrillic one)
and leetspeak (0 o, 1 ! | i/l, 3 e/з, 4 a/ч, 5 $ s, 6 б, 7 + t, 8 b/в, @ a).
A listed word is compared with the skeleton of its own script: a Latin-script entry with the
Latin skeleton, a Cyrillic one with the Cyrillic skeleton. In the Latin skeleton l and i are
one letter (1, l, i and ! are written for each other).

Spacing out (f u c k, f.u.c.k) is undone by joining runs of one-letter tokens; repeated letters
(fuuuck) by also comparing with every letter run squeezed to one, for tokens that have one.
See docs/decisions.md ("Family mode") for why whole tokens and not substrings.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from homoglyph.data import load_prototypes

from partyhub.text import visible

RUN_MAX = 24        # single-letter runs longer than this are cut (their sub-runs are tried)

# Leetspeak and symbols written for letters; a token's leading and trailing ones are also
# tried as punctuation ("shit!" is "shit", "$hit" is "shit").
LEET = "0134567@$!|+8"
_MARKS = "!|+"                  # also punctuation: "fuck!"
_CYRILLIC_LOOKS_LATIN = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "и": "u", "п": "n", "г": "r", "ь": "b",
    "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "з": "3", "і": "i", "ш": "w",
}
_LEET_LATIN = {"0": "o", "1": "i", "!": "i", "|": "i", "l": "i", "3": "e", "4": "a", "@": "a",
               "5": "s", "$": "s", "7": "t", "+": "t", "8": "b", "6": "b"}
_LATIN_LOOKS_CYRILLIC = {
    "a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "k": "к", "m": "м", "n": "п",
    "o": "о", "p": "р", "r": "г", "t": "т", "u": "и", "x": "х", "y": "у", "i": "і",
}
_LEET_CYRILLIC = {"0": "о", "3": "з", "4": "ч", "6": "б", "@": "а", "8": "в", "!": "і",
                  "1": "і", "|": "і"}
# Letters of uk, ru and be that stand for each other in a skeleton (accents are gone already:
# ё is е; й and ї are kept as letters).
_CYRILLIC_SAME = {"і": "и", "є": "е", "ъ": "ь", "ў": "у", "ґ": "г"}
_LATIN_FOLD = str.maketrans({**_CYRILLIC_LOOKS_LATIN, **_LEET_LATIN})
_CYRILLIC_FOLD = str.maketrans({**_LATIN_LOOKS_CYRILLIC, **_LEET_CYRILLIC})
_CYRILLIC_SAME_FOLD = str.maketrans(_CYRILLIC_SAME)
_READING_FOLD = str.maketrans({**_LATIN_LOOKS_CYRILLIC, **_LEET_CYRILLIC, "ё": "е"})
_LATIN_LETTERS = frozenset("abcdefghijkmnopqrstuvwxyz")        # l is i
_CYRILLIC_LETTERS = frozenset("абвгдежзийклмнопрстуфхцчшщьыэюяї")  # ё і є ъ ў ґ folded
# What the filter reads itself (the tables above), with its capitals: never a prototype.
_OWN = frozenset(_LATIN_LETTERS | _CYRILLIC_LETTERS | set("l0123456789" + LEET + "ёіїєґўъ")
                 | set(_CYRILLIC_LOOKS_LATIN))
_OWN = _OWN | {ch.upper() for ch in _OWN}
_SPLIT = re.compile(r"[^\w" + re.escape(LEET) + r"]+|_+")
_APOSTROPHES = str.maketrans("", "", "'\u2019\u02bc`\u2018")     # inside a word: п'ять, don't
_SQUEEZE = re.compile(r"(.)\1+")


@dataclass(frozen=True)
class Token:
    latin: tuple[str, ...]       # the Latin skeletons of the token (with and without edge symbols)
    cyrillic: tuple[str, ...]
    reading: str                 # the token as Cyrillic text for the dictionary, or ""


def fold(text: str) -> str:
    """Casefolded, compatibility-normalised, accents and invisible characters dropped, but
    for й and ї, which are letters of their own (най- is not на- + ї-); other scripts'
    look-alikes as their prototypes (_letter)."""
    return "".join(_letter(ch) for ch in unicodedata.normalize("NFC", visible(text)))


_OWN_LETTERS = frozenset("йї")


@functools.lru_cache(maxsize=8192)
def _letter(ch: str) -> str:
    """One character as the filter reads it. A letter of the filter's own (Latin, Cyrillic,
    digits, leetspeak) once casefolded and bare of accents and compatibility forms is that
    (ſ is s, Ｓ and 𝐒 are s, ё is е); any other its UTS #39 prototype, looked up as it is
    (Greek Χ is x: its small χ has none; Cherokee ꮁ is r), else bare and with its capitals
    mapped (𝚬, a bold Greek Ε, is e), else casefolded (Greek ο is o); else bare."""
    low = ch.casefold()
    if low in _OWN_LETTERS:
        return low
    bare = _bare(low).casefold()
    if all(c in _OWN for c in bare):
        return bare
    table = _prototypes()
    if ch in table:
        return table[ch]
    capitals = "".join(table.get(c, c) for c in _bare(ch))
    return "".join(table.get(c, c) for c in _bare(capitals.casefold()))


def _bare(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _symbol_letters(text: str) -> str:
    """Symbols that look like letters (APL ⍺ is a, ℮ is e, circled ⓕ is f) as those letters,
    before the text is cut into tokens, so they do not cut a word as punctuation would."""
    return text if text.isascii() else "".join(_symbol_letter(ch) for ch in text)


@functools.lru_cache(maxsize=8192)
def _symbol_letter(ch: str) -> str:
    if _WORD.match(ch):
        return ch
    letter = _prototypes().get(ch) or _bare(ch).casefold() or ""
    if not letter.isalpha():
        letter = _PICTURED.get(ch, ch)
    return letter


_WORD = re.compile(r"\w")

# Letters drawn as pictures, which neither NFKC nor confusables.txt reads as letters: negative
# circled 🅐 and negative squared 🅰 capitals, and the regional indicators 🇦 (two of them make
# a flag, any other pair shows as two boxed letters).
_PICTURED = {chr(start + i): chr(ord("a") + i)
             for start in (0x1F150, 0x1F170, 0x1F1E6) for i in range(26)}


@functools.lru_cache(maxsize=1)
def _prototypes() -> dict:
    """{a character: its UTS #39 prototype (confusables.txt), casefolded and bare}, for every
    character but the filter's own letters (_OWN: their prototypes would undo the filter's own
    reading: the prototype of m is rn, of 0 is O, of 1 is l, of Cyrillic в is ʙ)."""
    out = {}
    for code, proto in load_prototypes().items():
        ch = chr(code)
        if ch in _OWN or unicodedata.combining(ch):
            continue
        folded = _bare(proto.casefold())
        if folded and folded != ch:
            out[ch] = folded
    return out


def squeeze(skeleton: str) -> str:
    """Every run of one letter as one letter: fuuuck -> fuck, ass -> as."""
    return _SQUEEZE.sub(r"\1", skeleton)


def latin(token: str) -> str:
    """The Latin skeleton of a folded token, or "" when some letter has none."""
    out = token.translate(_LATIN_FOLD)
    return out if out and set(out) <= _LATIN_LETTERS else ""


def cyrillic(token: str) -> str:
    out = token.translate(_CYRILLIC_FOLD).translate(_CYRILLIC_SAME_FOLD)
    return out if out and set(out) <= _CYRILLIC_LETTERS else ""


def _reading(raw: str) -> str:
    """The token as Cyrillic text with its own letters kept (й, ї, є), for the dictionary
    (pymorphy3), or "" when it is not all Cyrillic."""
    text = "".join(ch.casefold() if ch in _OWN else _letter(ch)
                   for ch in unicodedata.normalize("NFC", visible(raw))).strip(LEET)
    out = text.translate(_READING_FOLD)
    return out if out and all("а" <= ch <= "я" or ch in "іїєґ'" for ch in out) else ""


def _forms(raw: str) -> list[str]:
    """A raw token folded; without its trailing and leading marks ("fuck!", "а$$$!"); and
    without any edge symbol ("$hit" is also "hit")."""
    folded = fold(raw)
    forms = (folded, folded.strip(_MARKS), folded.strip(LEET))
    return [f for f in dict.fromkeys(forms) if f and not f.isdigit()]


def tokens(text: str) -> list[Token]:
    """Every token of `text`, and every run of two or more one-letter tokens joined (each of
    its sub-runs, so "a f u c k" still finds "fuck")."""
    raws = [r for r in _SPLIT.split(_symbol_letters(visible(text).translate(_APOSTROPHES))) if fold(r)]
    out = [_token(r) for r in raws]
    run: list[str] = []
    for r in raws + [""]:
        if _one_letter(r):
            run.append(r)
            continue
        out += _joined(run[:RUN_MAX])
        run = []
    return out


def _one_letter(raw: str) -> bool:
    """A one-letter token, leetspeak too ("1" in "$ h 1 t"), or one with an edge symbol ("k!")."""
    folded = squeeze(fold(raw))      # "f u c kk": a repeated letter is one letter too
    return any(len(squeeze(f)) == 1 for f in (folded, folded.strip(_MARKS), folded.strip(LEET)))


def _joined(run: list[str]) -> list[Token]:
    return [_token("".join(run[i:j])) for i in range(len(run)) for j in range(i + 2, len(run) + 1)]


def _token(raw: str) -> Token:
    forms = _forms(raw)
    return Token(tuple(s for s in dict.fromkeys(latin(f) for f in forms) if s),
                 tuple(s for s in dict.fromkeys(cyrillic(f) for f in forms) if s),
                 _reading(raw))
