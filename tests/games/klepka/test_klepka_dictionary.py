"""The real Ukrainian dictionary (pymorphy3-dicts-uk): word forms, apostrophes, names, search."""
import pytest

from games.klepka import dictionary

D = dictionary.get()


@pytest.mark.parametrize("word", ["книжками", "книга", "кіт", "котові", "ходили", "зеленого",
                                  "україні", "слава", "ґанок", "сьогодні", "Книжками", "КІТ"])
def test_every_inflected_form_in_any_case_is_a_word(word):
    assert D.is_word(word)


@pytest.mark.parametrize("word", ["п'ять", "пʼять", "п’ять", "п`ять", "пять",
                                  "м'ячем", "мʼячем", "мячем", "Пʼять"])
def test_every_apostrophe_variant_and_the_card_spelling_without_one_are_words(word):
    assert D.is_word(word)


def test_the_lookup_answers_the_normalised_word_and_the_dictionary_spelling():
    assert dictionary.lookup("Пʼять") == {"word": "п'ять", "known": True, "spelling": "п'ять"}
    assert dictionary.lookup("мячем")["spelling"] == "м'ячем"
    assert dictionary.lookup("абвгд") == {"word": "абвгд", "known": False}
    assert dictionary.lookup("x" * 500)["known"] is False


@pytest.mark.parametrize("word", ["абвгд", "кітт", "qwerty", "будь-який", "", "к1т", "ооо"])
def test_non_words_are_not_words(word):
    assert not D.is_word(word)


@pytest.mark.parametrize("word", ["тарас", "іван", "петрович", "бк", "бмв", "оо"])
def test_proper_names_and_abbreviations_are_not_words(word):
    assert not D.is_word(word)


def test_nouns_only_means_a_noun_in_the_nominative_singular():
    assert D.is_word("книга", nouns_only=True)
    assert not D.is_word("книжками", nouns_only=True)
    assert not D.is_word("ходили", nouns_only=True)
    assert not D.is_word("двері", nouns_only=True)


def test_can_make_searches_the_hand_as_a_multiset():
    assert D.can_make(list("тік"))
    assert not D.can_make(list("щфґ"))
    assert D.find(list("ктоі"), limit=50)
    for spelling, wild in D.find(list("славаукраїні"), limit=30):
        assert wild is None and D.is_word(spelling)


def test_a_polysemy_card_stands_for_a_missing_letter_as_often_as_it_occurs():
    assert not D.can_make(list("млк"))
    found = D.find(list("млк"), True, limit=200)
    assert ("молоко", "о") in found
    assert all(D.is_word(w) for w, _ in found)


def test_words_already_made_can_be_excluded_and_short_words_are_left_out():
    made = frozenset(w for w, _ in D.find(list("кіт"), limit=100))
    assert made and not D.can_make(list("кіт"), exclude=made)
    assert not D.can_make(["я"]) and D.can_make(["я"], min_letters=1)


def test_apostrophe_words_are_found_from_cards_without_an_apostrophe():
    assert ("пять", None) in D.find(list("пять"), limit=500)
