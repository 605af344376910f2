"""Exchange and chaos played at any moment, also in the middle of another player's turn."""
from klepka_helpers import deal, game, lay, new_state, ok, rejected, to_words_phase

from partyhub.gamekit import TABLE

G = game()


def test_exchange_during_another_players_turn_swaps_the_chosen_cards():
    s = new_state(G)
    swap, give = deal(s, "bob", ["exchange", "щ"])
    mine = deal(s, "ann", ["к", "і", "т"])
    to_words_phase(s, "ann")
    act = {"type": "exchange", "card": swap, "give": give, "take": mine[0]}
    assert act in G.actions(s, "bob")
    s = ok(G.apply(s, "bob", act, 0))
    assert mine[0] in s["hands"]["bob"] and give in s["hands"]["ann"]
    assert swap in s["discard"] and swap not in s["hands"]["bob"]
    assert s["phase"] == "words" and s["turn"] == 0
    assert s["last"]["type"] == "cards_exchanged"


def test_exchange_needs_your_own_exchange_card_and_another_players_card():
    s = new_state(G)
    swap, give = deal(s, "bob", ["exchange", "щ"])
    (own,) = deal(s, "bob", ["ф"])
    (anns,) = deal(s, "ann", ["о"])
    rejected(G.apply(s, "ann", {"type": "exchange", "card": swap, "give": anns, "take": give}, 0),
             "bad_card")
    rejected(G.apply(s, "bob", {"type": "exchange", "card": swap, "give": give, "take": own}, 0),
             "bad_card")
    rejected(G.apply(s, "bob", {"type": "exchange", "card": swap, "give": swap, "take": anns}, 0),
             "bad_card")
    rejected(G.apply(s, "bob", {"type": "exchange", "card": swap, "give": give, "take": "t3"}, 0),
             "bad_card")


def test_chaos_in_the_middle_of_a_turn_turns_every_card_down_and_reshuffles_the_table():
    s = new_state(G)
    (chaos,) = deal(s, "cat", ["chaos"])
    refs = lay(s, ["о", "а", "н"])
    s["pairs_left"] = 2  # ann made a word: two pairs to flip
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[0]}, 0))
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[1]}, 0))
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[2]}, 0))
    before = list(s["table"])
    s = ok(G.apply(s, "cat", {"type": "chaos", "card": chaos}, 0))
    assert s["up"] == [] and s["pair"] == [] and s["phase"] == "flips" and s["turn"] == 0
    assert sorted(c for c in s["table"] if c) == sorted(c for c in before if c)
    assert [c is None for c in s["table"]] == [c is None for c in before]
    assert s["table"] != before
    assert chaos in s["discard"]
    view = G.view(s, TABLE)
    assert all(cell["down"] for cell in view["table"] if cell) and view["chaos_no"] == 1


def test_chaos_during_the_reveal_turns_the_letters_down_and_passes_the_turn():
    s = new_state(G)
    (chaos,) = deal(s, "bob", ["chaos"])
    refs = lay(s, ["о", "а"])
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[0]}, 0))
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[1]}, 0))
    assert s["phase"] == "reveal"
    s = ok(G.apply(s, "bob", {"type": "chaos", "card": chaos}, 100))
    assert s["up"] == [] and s["turn"] == 1 and G.deadline(s) is None


def test_chaos_needs_two_cards_on_the_table():
    s = new_state(G)
    (chaos,) = deal(s, "bob", ["chaos"])
    keep = [c for c in s["table"] if c][:1]
    s["discard"].extend(c for c in s["table"] if c and c not in keep)
    s["table"] = [c if c in keep else None for c in s["table"]]
    rejected(G.apply(s, "bob", {"type": "chaos", "card": chaos}, 0), "nothing_to_shuffle")
    assert not [a for a in G.actions(s, "bob") if a["type"] == "chaos"]


def test_prize_cards_in_hand_are_open_to_everyone_and_offered_to_their_holder_only():
    s = new_state(G)
    (chaos,) = deal(s, "bob", ["chaos"])
    assert {"type": "chaos", "card": chaos} in G.actions(s, "bob")
    assert {"type": "chaos", "card": chaos} not in G.actions(s, "cat")
    assert G.view(s, "cat")["players"]["bob"]["hand"] == [{"id": chaos, "kind": "chaos"}]
    rejected(G.apply(s, "cat", {"type": "chaos", "card": chaos}, 0), "bad_card")
