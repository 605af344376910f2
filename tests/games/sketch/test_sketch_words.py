"""The word lists and the deal of word cards."""
import random

import pytest

from games.sketch.rules.constants import CARDS, DIFFICULTIES, LANGUAGES, WORDS_PER_CARD
from games.sketch.rules.matcher import is_correct, normalise
from games.sketch.rules.words import WORDS_DIR, builtin, clean_list, deal

from sketch_play import options, seats

LISTS = [(lang, level) for lang in LANGUAGES for level in DIFFICULTIES]


def raw(lang, level):
    return (WORDS_DIR / f"{lang}-{level}.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("lang,level", LISTS)
def test_every_word_list_has_at_least_300_clean_unique_entries(lang, level):
    lines = raw(lang, level)
    assert len(lines) >= 300
    assert all(line and line == line.strip() and "  " not in line for line in lines)
    keys = [normalise(line) for line in lines]
    assert len(set(keys)) == len(keys), "two entries normalise to the same guess"
    assert list(builtin(lang, level)) == lines, "no entry is dropped when loading"


@pytest.mark.parametrize("lang,level", LISTS)
def test_no_entry_is_guessed_by_saying_another_entry_of_its_list(lang, level):
    lines = raw(lang, level)
    clashes = [(a, b) for a in lines for b in lines if a != b and is_correct(a, b)]
    assert clashes == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_easy_and_hard_lists_of_a_language_are_different_words(lang):
    easy = {normalise(w) for w in raw(lang, "easy")}
    hard = {normalise(w) for w in raw(lang, "hard")}
    assert len(easy & hard) <= 10


def test_the_ukrainian_and_russian_lists_are_in_cyrillic_and_english_in_latin():
    assert all(any("а" <= ch <= "я" or ch in "іїєґ" for ch in w) for w in raw("uk", "easy"))
    assert all(any("а" <= ch <= "я" or ch == "ё" for ch in w) for w in raw("ru", "hard"))
    assert all(w.isascii() or "é" in w for w in raw("en", "hard"))


def test_ten_players_get_two_cards_of_five_words_and_no_word_repeats():
    cards = deal(seats(10), options(language="uk", difficulty="hard"), random.Random(3))
    assert all(len(c) == CARDS and all(len(card) == WORDS_PER_CARD for card in c)
               for c in cards.values())
    dealt = [normalise(w) for c in cards.values() for card in c for w in card]
    assert len(dealt) == len(set(dealt)) == 100


def test_a_custom_list_is_dealt_first_and_topped_up_from_the_room_language():
    custom = "Tardis\n\n  flux   capacitor \ntardis\nlightsaber\n" + "x" * 60
    cards = deal(seats(3), options(language="ru", words=custom), random.Random(1))
    dealt = [w for c in cards.values() for card in c for w in card]
    assert {"Tardis", "flux capacitor", "lightsaber"} <= set(dealt)
    assert len(dealt) == len({normalise(w) for w in dealt}) == 30
    assert sum(w in builtin("ru", "easy") for w in dealt) == 27


def test_cleaning_a_list_drops_blank_repeated_and_overlong_entries():
    assert clean_list(["a", " A ", "", "?!", "b  c", "y" * 41]) == ["a", "b c"]


def test_the_same_seed_deals_the_same_cards():
    one = deal(seats(4), options(), random.Random(7))
    assert one == deal(seats(4), options(), random.Random(7))
