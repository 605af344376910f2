"""The Ukrainian alphabet of the cards and spelling normalisation (pure, shared with the dictionary)."""
ALPHABET = "абвгґдеєжзиіїйклмнопрстуфхцчшщьюя"
LETTERS = frozenset(ALPHABET)
# Every way an apostrophe is typed: ASCII, right single quote, modifier letter, backtick, acute...
APOSTROPHES = "'’ʼ`´‘"
_STRIP = {ord(ch): None for ch in APOSTROPHES}


def normalise(text: str) -> str:
    """Lower case, surrounding blanks trimmed, every apostrophe variant as ASCII `'`."""
    text = text.strip().lower()
    for ch in APOSTROPHES[1:]:
        text = text.replace(ch, "'")
    return text


def letters_only(text: str) -> str:
    """The card spelling of a word: normalised, apostrophes dropped (cards carry none)."""
    return normalise(text).translate(_STRIP)


def is_card_spelling(text: str) -> bool:
    """True when `text` is made only of card letters (after letters_only)."""
    return bool(text) and all(ch in LETTERS for ch in text)
