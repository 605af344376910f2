"""How a game of klepka ends: the table is empty and no word can be made, or all say done."""
from klepka_helpers import deal, game, new_state, ok

G = game()


def empty_table(s):
    """Everything left on the table goes to the discard (as if played long ago)."""
    s["discard"].extend(c for c in s["table"] if c)
    s["table"] = [None] * len(s["table"])
    return s


def test_the_game_ends_when_the_table_is_empty_and_nobody_can_make_a_word():
    s = new_state(G)
    deal(s, "ann", list("кіт"))
    deal(s, "bob", list("щф"))
    empty_table(s)
    s["turn"], s["phase"], s["made"] = 0, "words", 0
    s = ok(G.apply(s, "ann", {"type": "words_done"}, 0))
    assert s["phase"] == "words" and s["turn"] == 1  # ann still could: the game goes on
    s["discard"].extend(s["hands"]["ann"])
    s["hands"]["ann"] = []
    s = ok(G.apply(s, "bob", {"type": "words_done"}, 0))
    assert s["phase"] == "over" and s["end"] == "no_words"
    out = G.outcome(s)
    assert out["scores"] == {"ann": 0, "bob": 2, "cat": 0} and out["winners"] == ["bob"]


def test_with_the_table_empty_everyone_saying_done_in_a_row_ends_the_game():
    s = new_state(G)
    deal(s, "ann", list("кіт"))
    deal(s, "bob", list("сон"))
    deal(s, "cat", list("ліс"))
    empty_table(s)
    s["turn"], s["phase"] = 0, "words"
    for seat in ("ann", "bob", "cat"):
        assert s["phase"] == "words" and s["seats"][s["turn"]] == seat
        s = ok(G.apply(s, seat, {"type": "words_done"}, 0))
    assert s["phase"] == "over" and s["end"] == "all_done"
    assert G.outcome(s)["scores"] == {"ann": 3, "bob": 3, "cat": 3}
    assert G.outcome(s)["winners"] == ["ann", "bob", "cat"]


def test_a_word_made_with_the_table_empty_restarts_the_count():
    s = new_state(G)
    deal(s, "ann", list("кіт"))
    son = deal(s, "bob", list("сон"))
    deal(s, "cat", list("щ"))
    empty_table(s)
    s["turn"], s["phase"] = 0, "words"
    s = ok(G.apply(s, "ann", {"type": "words_done"}, 0))
    assert s["idle"] == 1
    s = ok(G.apply(s, "bob", {"type": "word", "cards": son, "wild": None}, 0))  # his last cards
    assert s["idle"] == 0 and s["phase"] == "words" and s["seats"][s["turn"]] == "cat"
    s = ok(G.apply(s, "cat", {"type": "words_done"}, 0))
    s = ok(G.apply(s, "ann", {"type": "words_done"}, 0))
    assert s["phase"] == "over" and s["end"] == "all_done"  # bob holds nothing: skipped


def test_final_score_is_word_points_plus_one_per_card_still_held():
    s = new_state(G)
    s["points"] = {"ann": 10, "bob": 7, "cat": 0}
    deal(s, "bob", ["щ", "ф", "chaos", "polysemy"])
    empty_table(s)
    s["phase"] = "over"
    s["end"] = "no_words"
    assert G.outcome(s)["scores"] == {"ann": 10, "bob": 11, "cat": 0}
    assert G.scores(s)["bob"] == 11


def test_the_reveal_deadline_fires_late_without_harm():
    s = new_state(G)
    s["phase"], s["up"], s["reveal_until"] = "reveal", [0, 1], 5000
    s = ok(G.on_deadline(s, 99_000))
    assert s["up"] == [] and s["turn"] == 1 and G.deadline(s) is None
    assert ok(G.on_deadline(s, 99_500)) == s
