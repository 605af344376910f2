"""A bots game to the end with the real dictionary: words suggested by the DAWG search."""
import random

from klepka_helpers import new_state
from klepka_play import play

from games.klepka.rules import GAME


def test_a_bots_game_with_the_real_dictionary_reaches_its_end_with_real_words():
    s = new_state(GAME, ["ann", "bob", "cat"], 3, table="6x8", reveal_seconds=0)
    s = play(GAME, s, random.Random(3))
    assert s["words"], "bots made words"
    assert all(GAME.words.is_word(w["word"]) for w in s["words"])
    assert GAME.outcome(s)["winners"]
