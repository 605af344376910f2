"""Family mode: is a name, clue, guess or word fit for a table of children?

`refused(text)` is True when some token of `text` is on a deny list (the shipped ones in
words/, en, uk and ru, checked whatever the room's language, and the server's own file named
by PARTYHUB_DENY_WORDS_FILE). Matching is of whole tokens after normalisation (normal.py),
never of substrings: "Scunthorpe", "assistant" and "класс" pass. Pure: no Django; the room
service passes the server's file. See docs/decisions.md ("Family mode").
"""
from __future__ import annotations

from partyhub.family import lemmas, lists, normal

ERROR = "not_family_friendly"


def refused(text: str, extra_file: str = "") -> bool:
    if not isinstance(text, str) or not text:
        return False
    denies = [lists.shipped()]
    extra = lists.server_words(extra_file)
    if extra is not None:
        denies.append(extra)
    return any(_bad(token, denies) for token in normal.tokens(text))


def _bad(token: normal.Token, denies) -> bool:
    for deny in denies:
        if any(deny.has_latin(s) for s in token.latin):
            return True
        if any(deny.has_cyrillic(s) for s in token.cyrillic):
            return True
    if token.reading and len(token.reading) > 2:
        for lemma in lemmas.lemmas(token.reading):
            skeleton = normal.cyrillic(normal.fold(lemma))
            if skeleton and any(deny.has_cyrillic(skeleton) for deny in denies):
                return True
    return False
