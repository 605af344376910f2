"""Setting up the table, the race of fingers (jinx!), the refusals and the end of the game."""
import pytest

from jinx_helpers import (GAME, PLAYERS, active, clued, guessers, new_game, ok, refused,
                          where_cards_are, with_deck, wrong_slots)
from partyhub import decks
from games.jinx.rules import faces
from games.jinx.rules.deck import pair, pile_size, synthetic_faces


@pytest.mark.parametrize("players, in_play", [(3, 41), (4, 51), (5, 61), (6, 71)])
def test_the_draw_pile_loses_30_20_10_or_0_cards_by_player_count(players, in_play, monkeypatch):
    monkeypatch.setattr("games.jinx.rules.game.faces", lambda deck: synthetic_faces())
    s = new_game(players)
    assert len(s["cards"]) == 71
    assert len(s["deck"]) + 9 == in_play and len(s["box"]) == 71 - in_play
    assert all(len(places) == 1 for places in where_cards_are(s).values())


def test_the_deck_is_up_to_71_double_sided_cards_of_distinct_faces():
    ids = faces(decks.resolve("default"))
    assert len(ids) == len(set(ids)) and len(ids) % 2 == 0 and 18 <= len(ids) <= 142
    assert ids == decks.card_ids("default")[:142]
    assert faces(None) == faces({"id": "x", "cards": []}) == synthetic_faces()
    assert len(synthetic_faces()) == 142
    cards = pair(ids)
    assert len(cards) == len(ids) // 2 and cards[0] == [ids[0], ids[1]]


def test_a_smaller_custom_deck_is_played_whole_up_to_the_usual_pile():
    assert [pile_size(71, n) for n in (3, 4, 5, 6)] == [41, 51, 61, 71]
    assert [pile_size(45, n) for n in (3, 4, 5, 6)] == [41, 45, 45, 45]


def test_each_new_card_shows_one_of_its_two_faces():
    s = new_game(6)
    shown = [next(c.index(f) for c in s["cards"] if f in c) for f in s["grid"]]
    assert set(shown) <= {0, 1}
    both = set()
    for seed in range(20):
        g = new_game(6, seed=seed)
        both |= {next(c.index(f) for c in g["cards"] if f in c) for f in g["grid"]}
    assert both == {0, 1}


def test_the_first_player_is_the_first_seat_or_drawn_at_random():
    assert active(new_game(5)) == "ann"
    firsts = {active(GAME.setup(PLAYERS[:5], {}, seed)) for seed in range(30)}
    assert len(firsts) > 2


def test_a_game_needs_three_to_six_players():
    with pytest.raises(ValueError):
        GAME.setup(PLAYERS[:2], {}, 1)
    assert (GAME.min_players, GAME.max_players) == (3, 6)


def test_two_fingers_on_one_card_the_second_hears_jinx_and_picks_again():
    s = clued(new_game(5), slot=8)
    bob, cat = guessers(s)[:2]
    s = ok(s, bob, {"type": "pick", "slot": 2})
    assert refused(s, cat, {"type": "pick", "slot": 2}) == "jinx"
    assert {"type": "pick", "slot": 2} not in GAME.actions(s, cat)
    s = ok(s, cat, {"type": "pick", "slot": 3})
    assert s["picks"] == [[1, 2], [2, 3]]


def test_a_pick_is_final():
    s = clued(new_game(4), slot=8)
    s = ok(s, "bob", {"type": "pick", "slot": 1})
    assert refused(s, "bob", {"type": "pick", "slot": 8}) == "already_picked"
    assert GAME.actions(s, "bob") == []


def test_the_active_player_gives_the_clue_and_does_not_pick():
    s = new_game(4)
    assert refused(s, "bob", {"type": "clue", "text": "maze"}) == "not_your_turn"
    assert refused(s, "bob", {"type": "pick", "slot": 1}) == "wrong_phase"
    s = clued(s, slot=1)
    assert refused(s, "ann", {"type": "pick", "slot": 1}) == "not_your_turn"
    assert refused(s, "ann", {"type": "clue", "text": "again"}) == "wrong_phase"


@pytest.mark.parametrize("action, code", [
    ({"type": "pick", "slot": 9}, "bad_slot"),
    ({"type": "pick", "slot": "3"}, "bad_slot"),
    ({"type": "pick", "slot": True}, "bad_slot"),
    ({"type": "pick"}, "bad_slot"),
    ({"type": "vote", "card": 1}, "bad_action"),
    ({}, "bad_action"),
])
def test_malformed_picks_are_refused(action, code):
    assert refused(clued(new_game(4)), "bob", action) == code


def test_a_clue_may_be_empty_but_not_too_long_or_not_text():
    s = new_game(4)
    assert refused(s, "ann", {"type": "clue", "text": "x" * 81}) == "clue_too_long"
    assert refused(s, "ann", {"type": "clue", "text": 7}) == "bad_clue"
    assert ok(s, "ann", {"type": "clue", "text": None})["clue"] == ""
    assert ok(s, "ann", {"type": "clue", "text": "  a   maze "})["clue"] == "a maze"


def test_a_stranger_cannot_play():
    assert refused(new_game(4), "zed", {"type": "clue", "text": "x"}) == "not_playing"


def test_the_game_ends_when_the_square_cannot_be_refilled_and_ties_share_the_win():
    s = new_game(3)
    s["box"] += s["deck"][1:]
    s["deck"] = s["deck"][:1]                   # one card left to draw
    s["won"] = [[], [], []]
    s = clued(s, slot=6)
    s = ok(s, "bob", {"type": "pick", "slot": 0})
    s = ok(s, "cat", {"type": "pick", "slot": 6})
    assert s["phase"] == "reveal" and GAME.outcome(s) is None
    s = GAME.on_deadline(s, GAME.deadline(s)).state
    assert s["phase"] == "over" and GAME.deadline(s) is None
    assert GAME.outcome(s)["scores"] == {"ann": 1, "bob": 0, "cat": 1}
    assert GAME.outcome(s)["winners"] == ["ann", "cat"]
    assert all(GAME.actions(s, p) == [] for p in s["seats"])
    assert refused(s, "ann", {"type": "clue", "text": "x"}) == "wrong_phase"


def test_the_square_is_refilled_while_the_deck_holds_enough_cards():
    s = new_game(3)
    s["box"] += s["deck"][2:]
    s["deck"] = s["deck"][:2]
    s = clued(s, slot=6)
    for player, slot in zip(guessers(s), wrong_slots(s, 1)):
        s = ok(s, player, {"type": "pick", "slot": slot})
    s = ok(s, guessers(s)[1], {"type": "pick", "slot": 6})
    s = GAME.on_deadline(s, GAME.deadline(s)).state
    assert s["phase"] == "clue" and s["deck"] == []


def test_the_faces_are_the_cards_of_the_deck_it_is_given_topped_up_from_its_spares():
    ids = [f"a{i:03d}" for i in range(1, 161)]
    assert faces({"id": "default", "cards": ids, "spares": []}) == ids[:142]
    own = [f"u0123456789-{n:03d}" for n in range(1, 6)]
    topped = faces({"id": "u0123456789", "cards": own + own[:2], "spares": own[3:] + ids})
    assert topped == own + ids[:137] and len(set(topped)) == 142
    tiny = {"id": "u0123456789", "cards": own, "spares": ids[:10]}      # 15 faces: too few
    assert faces(tiny) == synthetic_faces()
    state = GAME.setup(PLAYERS[:6], {"_deck": {"cards": ids, "spares": []}}, 1)
    assert state["cards"][70] == ["a141", "a142"] and "_deck" not in state["options"]
