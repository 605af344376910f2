"""Association bots pick with some sense (issue 21): the storyteller's clue names something on
its card, the others put down and vote for the card that fits the clue; played through the
bots' per-game hook (`prefer`, partyhub.bots.next_action), measured against bots that pick at random."""
import random
import types

import pytest

from partyhub import bots
from partyhub.bots import choice
from partyhub.decks import sense

from association_helpers import GAME, new_game, ok

LANGS = ["en", "uk", "ru"]


def view_of(state, seat, language="en"):
    return {"room": {"game": "association", "language": language},
            "game": GAME.view(state, seat), "actions": GAME.actions(state, seat)}


def test_the_hook_is_found_per_game():
    assert bots.strategy("association") is not None and bots.strategy("jinx") is not None
    assert bots.strategy("count") is None          # the test game has no bot module: chance
    assert bots.strategy("../etc") is None and bots.strategy(None) is None


def test_tags_and_words_of_the_shipped_deck():
    # things (an Openclipart actor among them), scene, palette, mood
    assert {"girl with a ball", "octopus", "shadow", "candle", "joyful"} <= sense.tags("a001")
    assert sense.tags("u0123456789-001") == frozenset() and sense.tags(None) == frozenset()
    assert sense.clue_tags("СУТІНКИ") == {"dusk"} and sense.clue_tags("sailboat") == {"sailboat"}
    assert sense.clue_tags("надія") == {"hopeful"} and sense.clue_tags("страх") == {"afraid"}
    assert sense.clue_tags("") == set() and sense.clue_tags("zzz") == set()


@pytest.mark.parametrize("language", LANGS)
def test_the_storyteller_names_something_on_the_card_it_tells(language):
    for seed in range(20):
        s = new_game(4, seed=seed)
        teller = s["seats"][s["teller"]]
        action = bots.next_action(view_of(s, teller, language), random.Random(seed))
        assert action["type"] == "tell" and action["card"] in s["hands"][teller]
        assert action["clue"] and sense.clue_tags(action["clue"]) & sense.tags(action["card"]), action
        if language != "en":       # no English object names in a Ukrainian or Russian room
            assert all(t in sense.SCENES for t in sense.clue_tags(action["clue"]))
        ok(s, teller, action)


def test_a_player_puts_down_and_votes_for_the_card_that_fits():
    r = random.Random(3)
    for seed in range(15):
        s = new_game(3, seed=seed)
        teller = s["seats"][s["teller"]]
        others = [x for x in s["seats"] if x != teller]
        # the clue names a tag of one card of the first player's hand, and of no other card there
        hand = s["hands"][others[0]]
        tag, card = next(((t, c) for c in hand for t in sorted(sense.tags(c)) if sense.words(t, "en")
                          and sum(t in sense.tags(x) for x in hand) == 1), (None, None))
        if tag is None:
            continue
        story = s["hands"][teller][0]
        s = ok(s, teller, {"type": "tell", "card": story, "clue": sense.words(tag, "en")[0]})
        pick = bots.next_action(view_of(s, others[0]), r)
        assert pick == {"type": "submit", "card": card}


def play_turns(sensible: bool, games=40):
    """(votes that found the story card, all votes) over the first turn of many games."""
    found = votes = 0
    for seed in range(games):
        r = random.Random(seed)
        s = new_game(5, seed=seed)
        while s["phase"] in ("tell", "submit", "vote"):
            for seat in s["seats"]:
                v = view_of(s, seat)
                if v["actions"]:
                    a = (bots.next_action(v, r) if sensible else bots.choose(v["actions"], "en", r))
                    s = ok(s, seat, a)
                    break
        story = s["last"]["story_card"]
        for c in s["last"]["cards"]:
            votes += len(c["voters"])
            found += len(c["voters"]) if c["card"] == story else 0
    return found, votes


def test_sensible_voters_find_the_story_card_far_more_often_than_chance():
    sense_found, sense_votes = play_turns(True)
    luck_found, luck_votes = play_turns(False)
    print(f"story card found: sense {sense_found}/{sense_votes}, chance {luck_found}/{luck_votes}")
    assert sense_found / sense_votes > 1.5 * luck_found / luck_votes
    assert sense_found < sense_votes          # and not always: the others' cards can fit too


def test_a_broken_strategy_falls_back_to_chance(monkeypatch):
    s = new_game(3, seed=1)
    teller = s["seats"][s["teller"]]
    monkeypatch.setattr(choice, "strategy", lambda game: types.SimpleNamespace(prefer=lambda *a: 1 / 0))
    v = view_of(s, teller)
    action = bots.next_action(v, random.Random(1))
    assert action["type"] == "tell" and action["clue"] in bots.WORDS["en"]
