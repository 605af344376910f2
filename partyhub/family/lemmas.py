"""Dictionary lemmas of Russian and Ukrainian words (pymorphy3, offline dictionaries):
"суками" is "сука", "хуями" is "хуй". Only words the dictionary knows are lemmatised; the
guesses pymorphy3 makes for unknown words are not used (they would refuse innocent words).
"""
from __future__ import annotations

import functools
import threading

_CACHE = 50_000
_analyzers: dict = {}
_lock = threading.Lock()


def analyzer(lang: str):
    """The process's one pymorphy3 analyzer of `lang` ("ru", "uk"); klepka's dictionary uses
    the same uk one. Locked: the start-up threads of klepka and of family mode ask at once,
    and two copies of a dictionary would both stay in memory."""
    with _lock:
        if lang not in _analyzers:
            import pymorphy3
            _analyzers[lang] = pymorphy3.MorphAnalyzer(lang=lang)
        return _analyzers[lang]


@functools.lru_cache(maxsize=_CACHE)
def lemmas(word: str) -> tuple[str, ...]:
    """The normal forms of every reading of `word` in the Russian and Ukrainian dictionaries."""
    out: dict[str, None] = {}
    for lang in ("ru", "uk"):
        morph = analyzer(lang)
        if morph.word_is_known(word):
            for parse in morph.parse(word):
                if parse.normal_form != word:
                    out[parse.normal_form] = None
    return tuple(out)


def warm() -> None:
    """Load both dictionaries now (about 0.2 s), not on the first word."""
    lemmas("слово")
