"""Jinx bots pick with some sense (issue 21): the clue names something on the target card,
guessers touch the card that fits it; measured against bots that pick at random."""
import random

import pytest

from partyhub import bots
from partyhub.decks import sense

from jinx_helpers import GAME, new_game, ok


def view_of(state, seat, language="en"):
    return {"room": {"game": "jinx", "language": language},
            "game": GAME.view(state, seat), "actions": GAME.actions(state, seat)}


@pytest.mark.parametrize("language", ["en", "uk", "ru"])
def test_the_clue_names_something_on_the_target(language):
    for seed in range(20):
        s = new_game(4, seed=seed)
        active = s["seats"][s["active"]]
        v = view_of(s, active, language)
        a = bots.next_action(v, random.Random(seed))
        target = v["game"]["grid"][v["game"]["target"]]
        assert a["type"] == "clue" and sense.clue_tags(a["text"]) & sense.tags(target), a
        ok(s, active, a)


def first_turn(sensible: bool, games=60):
    """How many first turns end with the card found, and after how many wrong picks."""
    found = wrong = 0
    for seed in range(games):
        r = random.Random(seed)
        s = new_game(4, seed=seed)
        while s["phase"] in ("clue", "race"):
            for seat in s["seats"]:
                v = view_of(s, seat)
                if v["actions"]:
                    s = ok(s, seat, (bots.next_action(v, r) if sensible else bots.choose(v["actions"], "en", r)))
                    break
        found += bool(s["last"]["finder"])
        wrong += sum(not p["right"] for p in s["last"]["picks"])
    return found, wrong


def test_sensible_guessers_find_the_card_more_often_and_sooner():
    sense_found, sense_wrong = first_turn(True)
    luck_found, luck_wrong = first_turn(False)
    print(f"found: sense {sense_found}/60 ({sense_wrong} wrong picks), chance {luck_found}/60 ({luck_wrong})")
    assert sense_found > luck_found and sense_wrong < luck_wrong
