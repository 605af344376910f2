"""Helpers for klepka's tests: a tiny fake dictionary and ways to stage a table situation."""
from __future__ import annotations

import json
from collections import Counter

from games.klepka.rules import KlepkaGame
from partyhub.gamekit import Accepted, Rejected

WORDS = {"кіт", "кот", "тік", "око", "ніс", "сон", "ліс", "сало", "слава", "україні", "наш",
         "вона", "він", "рот", "тон", "нора", "рана", "ріка", "коло", "молоко", "так", "там",
         "он", "на", "но", "ні", "та", "то", "ти", "ви", "ми", "не", "ну", "за", "до", "як"}
NOUNS = {"кіт", "кот", "око", "ніс", "сон", "ліс", "сало", "слава", "рот", "тон", "нора", "рана",
         "ріка", "коло", "молоко"}


class FakeWords:
    """The dictionary interface (is_word / can_make / find) over a small set of words."""

    def __init__(self, words=WORDS, nouns=NOUNS):
        self.words, self.nouns = set(words), set(nouns)

    def is_word(self, word, nouns_only=False):
        return word in (self.nouns if nouns_only else self.words)

    def find(self, letters, wild=False, *, nouns_only=False, exclude=frozenset(),
             min_letters=2, limit=1):
        have, out = Counter(letters), []
        for w in sorted(self.nouns if nouns_only else self.words):
            if len(w) < min_letters or w in exclude:
                continue
            missing = Counter(w) - have
            if not missing:
                out.append((w, None))
            elif wild and len(missing) == 1 and sum((Counter(w) - missing).values()) > 0:
                out.append((w, next(iter(missing))))
            if len(out) >= limit:
                break
        return out

    def can_make(self, letters, wild=False, **kw):
        return bool(self.find(letters, wild, **kw))


def game(words=None) -> KlepkaGame:
    return KlepkaGame(words=words or FakeWords())


def new_state(g, seats=("ann", "bob", "cat"), seed=7, **options):
    opts = {name: opt.default for name, opt in g.options.items()}
    opts.update(options)
    return g.setup(list(seats), opts, seed)


def _matches(card, spec) -> bool:
    if isinstance(spec, tuple):
        letter, colour = spec
        return card.get("letter") == letter and card.get("colour") == colour
    return card.get("letter") == spec if len(spec) == 1 else card["kind"] == spec


def _take_from_table(state, spec, avoid=()) -> str:
    for slot, cid in enumerate(state["table"]):
        if cid is not None and cid not in avoid and _matches(state["cards"][cid], spec):
            state["table"][slot] = None
            return cid
    raise LookupError(f"no {spec} left on the table")


def deal(state, seat, specs) -> list[str]:
    """Move cards (a letter, (letter, colour) or a prize kind) from the table to a hand."""
    ids = [_take_from_table(state, spec) for spec in specs]
    state["hands"][seat].extend(ids)
    return ids


def lay(state, specs) -> list[str]:
    """Put cards matching specs at table slots 0, 1, ... (swapping places); returns refs."""
    for slot, spec in enumerate(specs):
        table = state["table"]
        here = table[slot]
        if here is not None and _matches(state["cards"][here], spec):
            continue
        src = next(i for i, c in enumerate(table) if c is not None and i > slot
                   and _matches(state["cards"][c], spec))
        table[slot], table[src] = table[src], table[slot]
    return [f"t{i}" for i in range(len(specs))]


def to_words_phase(state, seat):
    state["turn"] = state["seats"].index(seat)
    state["phase"], state["made"], state["made_words"], state["pair"] = "words", 0, [], []


def ok(result) -> dict:
    assert isinstance(result, Accepted), result
    json.loads(json.dumps(result.state))
    return result.state


def rejected(result, code) -> None:
    assert isinstance(result, Rejected), result
    assert result.code == code, result
