"""What a finished game of klepka leaves in the room's gallery: the words made, in order, with
who made them and their points."""
import random

import pytest
from klepka_helpers import game, new_state
from klepka_play import play

G = game()


@pytest.mark.parametrize("seed", range(4))
def test_the_keepsake_is_every_word_made_in_order(seed):
    seats = [f"p{i}" for i in range(3)]
    s = new_state(G, seats, seed, table="6x8")
    assert G.keepsake(s) is None
    s = play(G, s, random.Random(seed))
    words = G.keepsake(s)["words"]
    assert [(w["seat"], w["word"], w["points"]) for w in words] == \
        [(w["seat"], w["word"], w["points"]) for w in s["words"]]
    for seat in seats:
        assert sum(w["points"] for w in words if w["seat"] == seat) == s["points"][seat]
