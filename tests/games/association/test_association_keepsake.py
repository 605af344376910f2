"""What a finished game of association leaves in the room's gallery: every revealed turn with
its clue, the storyteller and their card, and who found it (partyhub/keepsakes/)."""
import json
import random

import pytest

from association_helpers import GAME
from association_play import random_game, step


@pytest.mark.parametrize("seed", range(6))
def test_the_keepsake_is_every_turn_with_its_clue_and_the_storytellers_card(seed):
    r = random.Random(seed)
    s, lazy = random_game(r)
    now, reveals = 1_000, []
    while s["phase"] != "over":
        assert GAME.keepsake(s) is None     # nothing of an unfinished game
        before = s
        s, now, _ = step(s, r, now, lazy)
        if s["phase"] == "reveal" and before["phase"] != "reveal":
            reveals.append(s["last"])
    kept = GAME.keepsake(s)
    assert [(t["turn"], t["storyteller"], t["clue"], t["story_card"]) for t in kept["turns"]] == \
        [(L["turn"], L["storyteller"], L["clue"], L["story_card"]) for L in reveals]
    for t, L in zip(kept["turns"], reveals):
        story = next(c for c in L["cards"] if c["card"] == L["story_card"])
        assert t["found"] == story["voters"]
    assert kept["image"] == s["deck"]["image"]
    json.dumps(kept)
