"""klepka's card set, designed from Ukrainian letter frequencies (docs/games/klepka.md).

- Letters come in pairs (a pair of the same letter is what a flip must find). Pairs are
  shared out by the highest-averages (D'Hondt) method over the average of two corpus
  frequencies (BRUK and Wikipedia): in the default and long decks every one of the 33
  letters gets a pair first; the short deck keeps the most frequent letters plus every
  letter of "слава україні".
- Points grow with rarity, 1 to 10, by frequency rank bands (POINTS).
- Colours: the letter cards of a deck, in alphabet order, take the four colours in turn,
  so the cards of one letter differ in colour and the colours are equally common: a word
  of n cards is one colour with odds about 1 in 4^(n-1).
- Prize cards (polysemy, chaos, exchange) are single: any one that is flipped is taken.
"""
from __future__ import annotations

# Average letter share in % (BRUK corpus, Wikipedia abstracts); see klepka-facts.md.
FREQ = {
    "о": 9.43, "а": 8.39, "н": 7.61, "і": 6.22, "и": 5.77, "р": 5.24, "т": 5.09, "в": 4.89,
    "е": 4.82, "с": 4.35, "к": 3.92, "л": 3.71, "у": 3.25, "д": 3.21, "м": 3.15, "п": 2.75,
    "я": 2.14, "з": 1.96, "ь": 1.87, "г": 1.68, "б": 1.50, "й": 1.33, "ч": 1.18, "х": 1.11,
    "ц": 0.99, "ї": 0.92, "ж": 0.77, "ю": 0.77, "ш": 0.64, "є": 0.53, "ф": 0.415, "щ": 0.355,
    "ґ": 0.023,
}
# Rarity bands over the frequency rank: 5 letters score 1, 5 score 2, 6 score 3, then 3,
# 3, 3, 3, 2, 2 and ґ alone scores 10.
POINTS = {}
for _pts, _letters in enumerate(("оаніи", "ртвес", "клудмп", "язь", "гбй", "чхц", "їжю",
                                 "шє", "фщ", "ґ"), start=1):
    for _ch in _letters:
        POINTS[_ch] = _pts
COLOURS = ("red", "yellow", "green", "blue")
PRIZES = ("polysemy", "chaos", "exchange")
SLAVA = ("слава", "україні")

# table option -> (rows, cols, letter pairs, (polysemy, chaos, exchange))
TABLES = {
    "6x8": (6, 8, 21, (2, 2, 2)),
    "10x10": (10, 10, 45, (4, 3, 3)),
    "12x10": (12, 10, 54, (4, 4, 4)),
}
TABLE_CHOICES = tuple(TABLES)


def pair_counts(table: str) -> dict[str, int]:
    """letter -> number of pairs in the deck of this table size."""
    pairs = TABLES[table][2]
    by_freq = sorted(FREQ, key=lambda ch: -FREQ[ch])
    if pairs >= len(FREQ):
        counts = {ch: 1 for ch in FREQ}
    else:
        counts = {ch: 0 for ch in FREQ}
        for ch in sorted(set("".join(SLAVA))):
            counts[ch] = 1
    while sum(counts.values()) < pairs:
        best = max(by_freq, key=lambda ch: FREQ[ch] / (counts[ch] + 1))
        counts[best] += 1
    return {ch: n for ch, n in counts.items() if n}


def build_deck(table: str) -> list[dict]:
    """The printed deck, unshuffled: letter cards in alphabet order, then the prize cards."""
    from games.klepka.rules.alphabet import ALPHABET

    counts = pair_counts(table)
    deck, colour = [], 0
    for ch in ALPHABET:
        for _ in range(2 * counts.get(ch, 0)):
            deck.append({"kind": "letter", "letter": ch, "points": POINTS[ch],
                         "colour": COLOURS[colour % len(COLOURS)]})
            colour += 1
    for kind, n in zip(PRIZES, TABLES[table][3]):
        deck.extend({"kind": kind} for _ in range(n))
    return deck


def letter_pool(table: str) -> list[str]:
    return [c["letter"] for c in build_deck(table) if c["kind"] == "letter"]
