"""The results recap (issue 21): the outcome lists every revealed turn (the clue, the
storyteller's card, who found it, who was fooled by whose card), read from the public
reveals, and no view ever carries it."""
import json
import random

import pytest

from association_helpers import GAME
from association_play import random_game, step


def play(seed):
    r = random.Random(seed)
    s, lazy = random_game(r)
    reveals, now = [], 1_000
    for _ in range(20_000):
        if s["phase"] == "over":
            return s, reveals
        assert GAME.outcome(s) is None
        before = s
        s, now, _ = step(s, r, now, lazy)
        if s["phase"] == "reveal" and before["phase"] != "reveal":
            reveals.append(s["last"])
        for viewer in s["seats"] + ["@table", "@audience"]:
            assert "history" not in GAME.view(s, viewer) and "recap" not in json.dumps(GAME.view(s, viewer))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", range(12))
def test_the_recap_is_each_reveal_in_order(seed):
    s, reveals = play(seed)
    recap = GAME.outcome(s)["recap"]
    assert [r["turn"] for r in recap] == [L["turn"] for L in reveals]
    for r, L in zip(recap, reveals):
        assert (r["storyteller"], r["clue"], r["story_card"], r["case"]) == \
            (L["storyteller"], L["clue"], L["story_card"], L["case"])
        story = next(c for c in L["cards"] if c["card"] == L["story_card"])
        assert r["found"] == story["voters"]
        fooled = sorted((v, c["owner"], c["card"]) for c in L["cards"] if c["card"] != L["story_card"]
                        for v in c["voters"])
        assert sorted((f["voter"], f["by"], f["card"]) for f in r["fooled"]) == fooled
        # nobody is fooled by their own card, and the storyteller is never among the voters
        assert all(f["voter"] != f["by"] and f["voter"] != L["storyteller"] for f in r["fooled"])
    json.dumps(GAME.outcome(s))       # the outcome is stored as JSON


def test_a_state_from_before_the_recap_still_scores():
    """A game saved before this change (no "history" in its state) plays on."""
    r = random.Random(5)
    s, lazy = random_game(r)
    s = {k: v for k, v in s.items() if k != "history"}
    now = 1_000
    while s["phase"] != "over":
        s, now, _ = step(s, r, now, lazy)
    assert isinstance(GAME.outcome(s)["recap"], list)
