"""Klepka bots make words with the dictionary search, from their own view only (games/klepka/bot.py),
and the results carry the best words with who made them."""
import random

from games.klepka import bot
from games.klepka.rules import GAME
from partyhub import bots
from partyhub.rooms.core import schema

from tests.games.klepka.klepka_helpers import deal, game, lay, new_state, to_words_phase


def room_view(g, s, seat):
    return {"room": {"game": "klepka", "language": "en"}, "you": {"role": "player", "id": seat},
            "game": g.view(s, seat), "actions": [{"type": "pause"}] + g.actions(s, seat)}


def test_the_bot_sends_the_best_scoring_word_of_its_hand_and_the_rules_accept_it():
    g = GAME                                            # the real dictionary
    s = new_state(g)
    deal(s, "ann", ["с", "а", "л", "о", "в", "а", "к", "і", "т"])
    to_words_phase(s, "ann")
    view = room_view(g, s, "ann")
    action = bots.next_action(view, random.Random(1))
    assert action["type"] == "word"
    r = g.apply(s, "ann", action, 1000)
    assert hasattr(r, "state"), r
    made = r.state["words"][-1]
    # the real dictionary's search: the best of the words found, not the first one ("ас", "ві"...)
    assert len(made["word"]) >= 4 and made["points"] >= 8, made
    mine = g.view(s, "ann")["mine"]
    fake = bot.best_word(g.view(s, "ann"), game().words)  # the fake dictionary: "слава" scores most
    assert "".join(next(c["letter"] for c in mine if c["id"] == i) for i in fake["cards"]) == "слава"


def test_the_bot_uses_its_polysemy_card_when_that_makes_the_word():
    g = game()
    s = new_state(g)
    deal(s, "ann", ["к", "т", "polysemy"])
    to_words_phase(s, "ann")
    action = bot.choose(room_view(g, s, "ann"), g.actions(s, "ann"),
                        random.Random(0), words=g.words)
    r = g.apply(s, "ann", action, 1000)
    assert hasattr(r, "state"), r
    assert r.state["words"][-1]["word"] in ("кіт", "кот") and r.state["words"][-1]["wild"]


def test_without_a_word_or_after_a_refusal_the_bot_goes_on_to_the_flips():
    g = game()
    s = new_state(g)
    deal(s, "ann", ["щ", "ф"])
    to_words_phase(s, "ann")
    view = room_view(g, s, "ann")
    offered = [a for a in view["actions"] if a["type"] not in schema.SCHEMA]
    assert bot.choose(view, offered, random.Random(0), words=g.words) == {"type": "words_done"}
    deal(s, "ann", ["о", "к", "о"])
    view = room_view(g, s, "ann")
    assert bot.choose(view, offered, random.Random(0), words=g.words)["type"] == "word"
    assert bot.choose(view, offered, random.Random(0), {bot.WORD_TEMPLATE},
                      words=g.words) == {"type": "words_done"}


def test_the_bot_remembers_letters_it_saw_and_flips_the_match():
    g = game()
    s = new_state(g)
    refs = lay(s, ["ж", "ж"])
    memory = {}
    s["up"] = [int(refs[0][1:]), int(refs[1][1:])]       # both seen face up in an earlier turn
    bot.remember(g.view(s, "ann"), memory)
    s["up"] = []
    view = room_view(g, s, "ann")
    offered = [a for a in view["actions"] if a["type"] == "flip"]
    first = bot.choose(view, offered, random.Random(3), (), memory)
    assert first["card"] in refs
    s = g.apply(s, "ann", first, 1000).state
    view = room_view(g, s, "ann")
    offered = [a for a in view["actions"] if a["type"] == "flip"]
    second = bot.choose(view, offered, random.Random(3), (), memory)
    assert {first["card"], second["card"]} == set(refs)
    s = g.apply(s, "ann", second, 1000).state
    assert sorted(s["cards"][c]["letter"] for c in s["hands"]["ann"]) == ["ж", "ж"]
    # chaos re-deals the table: what was seen is forgotten
    bot.remember({**g.view(s, "ann"), "chaos_no": 1}, memory)
    assert memory["seen"] == {}


def test_a_game_without_a_strategy_still_picks_among_the_offered_actions():
    view = {"room": {"game": "count", "language": "en"}, "game": {},
            "actions": [{"type": "pause"}, {"type": "add", "n": 1}]}
    assert bots.next_action(view, random.Random(0)) == {"type": "add", "n": 1}


def test_the_results_recap_lists_the_best_words_with_who_made_them():
    s = new_state(game(), seats=("ann", "bob"))
    s["words"] = [{"seat": "ann", "word": "кіт", "points": 4, "double": False, "wild": None, "turn": 1},
                  {"seat": "bob", "word": "слава", "points": 9, "double": False, "wild": None, "turn": 2},
                  {"seat": "ann", "word": "сон", "points": 4, "double": False, "wild": None, "turn": 3}]
    s["phase"], s["end"] = "over", "all_done"
    best = GAME.outcome(s)["best_words"]
    assert [(w["seat"], w["word"], w["points"]) for w in best] == [("bob", "слава", 9), ("ann", "кіт", 4),
                                                                  ("ann", "сон", 4)]
