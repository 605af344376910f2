"""Guess matching: whole words after normalising, in English, Ukrainian and Russian."""
import pytest
from hypothesis import given, settings, strategies as st

from games.sketch.rules.matcher import is_correct, normalise

CASES = [
    # (card word, guess, correct?)
    ("car", "car", True),
    ("car", "toy car", True),
    ("car", "car hire", True),
    ("car", "CAR!", True),
    ("car", "supercar", False),
    ("car", "cars", False),
    ("ferry", "ship", False),
    ("man", "Superman", False),
    ("ice cream", "ice cream", True),
    ("ice cream", "an ice-cream cone", True),
    ("ice cream", "cream ice", False),
    ("ice cream", "icecream", False),
    ("ice cream", "ice", False),
    ("teacher's pet", "teachers pet", True),
    ("teacher's pet", "the teacher’s pet?", True),
    ("rock climbing", "  Rock   Climbing  ", True),
    ("м'яч", "м’яч", True),
    ("м'яч", "мʼяч", True),
    ("м'яч", "мяч", True),
    ("м'яч", "футбольний м`яч", True),
    ("кіт", "КІТ", True),
    ("кіт", "котик", False),
    ("кіт", "кит", False),
    ("повітряна куля", "велика повітряна куля", True),
    ("повітряна куля", "повітряна", False),
    ("їжак", "Їжак.", True),
    ("ґудзик", "гудзик", False),
    ("ёжик", "ежик", True),
    ("ежик", "Ёжик", True),
    ("мёд", "МЕД", True),
    ("корабль", "паром", False),
    ("лодка", "моторная лодка", True),
    ("лодка", "лодочка", False),
    ("божья коровка", "божья-коровка", True),
    ("божья коровка", "коровка", False),
    ("человек", "суперчеловек", False),
]


@pytest.mark.parametrize("word,guess,expected", CASES)
def test_a_guess_is_correct_only_when_the_card_words_appear_whole(word, guess, expected):
    assert is_correct(word, guess) is expected


def test_a_word_that_normalises_to_nothing_is_never_guessed():
    assert not is_correct("?!", "?!")
    assert normalise("  ’ - ! ") == ""


word = st.text(alphabet="abcxyzабвгґєіїё'’", min_size=1, max_size=6)
words = st.lists(word, min_size=1, max_size=3).map(" ".join)
noise = st.text(alphabet=" ,.!?-", min_size=1, max_size=3)


@settings(max_examples=100)
@given(word=words)
def test_the_card_word_itself_is_always_correct(word):
    if normalise(word):
        assert is_correct(word, word)
        assert is_correct(word, word.upper())


@settings(max_examples=100)
@given(word=words, before=words, after=words, sep=noise)
def test_extra_separate_words_around_the_answer_still_count(word, before, after, sep):
    if normalise(word):
        assert is_correct(word, f"{before}{sep}{word}{sep}{after}")


@settings(max_examples=100)
@given(word=word, prefix=st.text(alphabet="qwк", min_size=1, max_size=3))
def test_a_compound_that_glues_letters_to_the_answer_does_not_count(word, prefix):
    if normalise(word):
        assert not is_correct(word, prefix + word)
        assert not is_correct(word, word + prefix)


@settings(max_examples=100)
@given(text=st.text(max_size=30))
def test_normalising_is_idempotent_and_never_fails(text):
    once = normalise(text)
    assert normalise(once) == once
    assert once == once.strip()
