"""Scoring a turn: words with their points, x2 for one colour, polysemy, flips and prizes."""
from klepka_helpers import deal, game, lay, new_state, ok, rejected, to_words_phase

from games.klepka.rules.cards import POINTS

G = game()


def word(cards, wild=None):
    return {"type": "word", "cards": cards, "wild": wild}


def test_a_word_scores_the_sum_of_its_letters_and_its_cards_are_discarded():
    s = new_state(G)
    ids = deal(s, "ann", [("к", "red"), ("і", "red"), ("т", "yellow")])
    to_words_phase(s, "ann")
    s = ok(G.apply(s, "ann", word(ids), 0))
    assert s["points"]["ann"] == POINTS["к"] + POINTS["і"] + POINTS["т"]
    assert s["hands"]["ann"] == [] and s["discard"] == ids
    assert s["words"][-1]["double"] is False and s["last"]["type"] in ("word_made",)
    assert s["phase"] == "flips" and s["pairs_left"] == 2  # no letters left: on to 1 + 1 pairs


def test_a_word_of_one_colour_scores_double_unless_the_table_plays_without_x2():
    for x2, factor in ((True, 2), (False, 1)):
        s = new_state(G, one_colour_x2=x2)
        colour = s["cards"][next(c for c in s["table"] if s["cards"][c].get("letter") == "к")]["colour"]
        ids = deal(s, "ann", [("к", colour)]) + deal(s, "ann", ["і", "т"])
        for cid in ids:
            s["cards"][cid]["colour"] = colour  # a printed deck with these three alike
        to_words_phase(s, "ann")
        s = ok(G.apply(s, "ann", word(ids), 0))
        base = POINTS["к"] + POINTS["і"] + POINTS["т"]
        assert s["points"]["ann"] == factor * base
        assert s["words"][-1]["double"] is (x2 is True)


def test_polysemy_stands_for_one_letter_everywhere_it_occurs_and_scores_nothing():
    s = new_state(G)
    (m, l, k, poly) = deal(s, "ann", ["м", "л", "к", "polysemy"])
    to_words_phase(s, "ann")
    cards = [m, poly, l, poly, k, poly]  # м-о-л-о-к-о: the polysemy is every "о"
    s = ok(G.apply(s, "ann", word(cards, {"card": poly, "letter": "о"}), 0))
    assert s["words"][-1]["word"] == "молоко"
    assert s["points"]["ann"] == POINTS["м"] + POINTS["л"] + POINTS["к"]
    assert poly in s["discard"] and s["hands"]["ann"] == []


def test_a_word_with_polysemy_is_never_one_colour():
    s = new_state(G)
    k, t, poly = deal(s, "ann", ["к", "т", "polysemy"])
    s["cards"][k]["colour"] = s["cards"][t]["colour"] = "blue"
    to_words_phase(s, "ann")
    s = ok(G.apply(s, "ann", word([k, poly, t], {"card": poly, "letter": "і"}), 0))
    assert s["words"][-1]["double"] is False
    assert s["points"]["ann"] == POINTS["к"] + POINTS["т"]


def test_words_that_are_not_in_the_dictionary_or_use_foreign_cards_are_refused():
    s = new_state(G)
    k, t, i = deal(s, "ann", ["к", "т", "і"])
    (o,) = deal(s, "bob", ["о"])
    to_words_phase(s, "ann")
    rejected(G.apply(s, "ann", word([t, k, i]), 0), "not_a_word")
    rejected(G.apply(s, "ann", word([k, o, t]), 0), "bad_card")
    rejected(G.apply(s, "ann", word([k, k, t]), 0), "bad_card")
    rejected(G.apply(s, "ann", word([k]), 0), "too_short")
    rejected(G.apply(s, "bob", word([o]), 0), "not_your_turn")


def test_each_word_made_earns_one_more_pair_to_flip():
    s = new_state(G)
    ids = deal(s, "ann", ["к", "і", "т", "с", "о", "н", "а"])
    to_words_phase(s, "ann")
    s = ok(G.apply(s, "ann", word(ids[:3]), 0))
    s = ok(G.apply(s, "ann", word(ids[3:6]), 0))
    s = ok(G.apply(s, "ann", {"type": "words_done"}, 0))
    assert s["phase"] == "flips" and s["pairs_left"] == 3


def test_a_matched_pair_is_taken_and_earns_another_pair():
    s = new_state(G)
    refs = lay(s, ["о", "о", "а", "н"])
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[0]}, 0))
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[1]}, 0))
    assert [s["cards"][c]["letter"] for c in s["hands"]["ann"]] == ["о", "о"]
    assert s["phase"] == "flips" and s["pairs_left"] == 1 and s["table"][0] is None
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[2]}, 0))
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[3]}, 1000))
    assert s["phase"] == "reveal" and s["up"] == [2, 3]
    assert G.deadline(s) == 1000 + 3000
    s = ok(G.on_deadline(s, 4000))
    assert s["up"] == [] and s["turn"] == 1 and s["phase"] == "flips"  # bob holds nothing


def test_mismatched_letters_stay_face_up_together_until_the_flips_are_over():
    s = new_state(G)
    ids = deal(s, "ann", ["к", "і", "т"])
    to_words_phase(s, "ann")
    s = ok(G.apply(s, "ann", word(ids), 0))
    refs = lay(s, ["а", "н", "і", "р"])
    for r in refs[:3]:
        s = ok(G.apply(s, "ann", {"type": "flip", "card": r}, 0))
    assert s["phase"] == "flips" and s["up"] == [0, 1, 2]
    shown = [cell["card"]["letter"] for cell in G.view(s, "bob")["table"][:3]]
    assert shown == ["а", "н", "і"]
    rejected(G.apply(s, "ann", {"type": "flip", "card": refs[0]}, 0), "bad_card")


def test_a_flipped_prize_card_is_taken_at_once_and_never_makes_a_pair():
    s = new_state(G)
    refs = lay(s, ["chaos", "о", "exchange", "polysemy"])
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[0]}, 0))
    assert s["cards"][s["hands"]["ann"][0]]["kind"] == "chaos" and s["table"][0] is None
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[1]}, 0))
    assert s["phase"] == "reveal" and s["up"] == [1]
    s2 = new_state(G)
    refs = lay(s2, ["exchange", "polysemy"])
    s2 = ok(G.apply(s2, "ann", {"type": "flip", "card": refs[0]}, 0))
    s2 = ok(G.apply(s2, "ann", {"type": "flip", "card": refs[1]}, 0))
    assert sorted(s2["cards"][c]["kind"] for c in s2["hands"]["ann"]) == ["exchange", "polysemy"]
    assert s2["turn"] == 1  # no letter face up: the turn passes at once


def test_slava_ukraini_in_one_turn_wins_at_once():
    s = new_state(G)
    s["points"]["bob"] = 500
    slava = deal(s, "ann", list("слава"))
    ukraini = deal(s, "ann", list("україні"))
    to_words_phase(s, "ann")
    s = ok(G.apply(s, "ann", word(slava), 0))
    assert s["phase"] == "words"
    s = ok(G.apply(s, "ann", word(ukraini), 0))
    assert s["phase"] == "over" and s["end"] == "slava"
    assert G.outcome(s)["winners"] == ["ann"]


def test_the_two_words_in_different_turns_do_not_win():
    s = new_state(G)
    slava = deal(s, "ann", list("слава"))
    ukraini = deal(s, "ann", list("україні"))
    to_words_phase(s, "ann")
    s = ok(G.apply(s, "ann", word(slava), 0))
    s["made_words"] = []  # as if a new turn began
    s = ok(G.apply(s, "ann", word(ukraini), 0))
    assert s["phase"] != "over"


def test_the_no_repeat_house_rule_refuses_a_word_already_made():
    s = new_state(G, no_repeat=True)
    first = deal(s, "ann", list("кіт"))
    again = deal(s, "ann", list("кіт"))
    to_words_phase(s, "ann")
    s = ok(G.apply(s, "ann", word(first), 0))
    rejected(G.apply(s, "ann", word(again), 0), "repeated_word")


def test_the_nouns_only_house_rule_refuses_other_words():
    s = new_state(G, nouns_only=True)
    ids = deal(s, "ann", list("так"))
    to_words_phase(s, "ann")
    rejected(G.apply(s, "ann", word(ids), 0), "not_a_word")
