"""The three scoring cases and the refusals of a turn, at a 4-player table."""
from association_helpers import (GAME, card_of, new_game, ok, others, refused, story, teller, tell,
                                 to_vote, vote)


def test_everybody_finds_the_storytellers_card_so_the_storyteller_scores_nothing_and_the_rest_three():
    s = to_vote(new_game(4))
    for seat in others(s):
        s = vote(s, seat, story(s))
    assert s["phase"] == "reveal"
    assert s["last"]["case"] == "all"
    assert GAME.scores(s) == {teller(s): 0, **{seat: 3 for seat in others(s)}}


def test_nobody_finds_the_storytellers_card_so_the_others_score_the_votes_on_their_cards():
    s = to_vote(new_game(4))
    b, c, d = others(s)
    s = vote(s, b, card_of(s, c))
    s = vote(s, c, card_of(s, b))
    s = vote(s, d, card_of(s, b))
    assert s["last"]["case"] == "none"
    assert GAME.scores(s) == {teller(s): 0, b: 2, c: 1, d: 0}


def test_some_find_it_so_the_storyteller_and_the_finders_score_three_plus_votes_on_their_cards():
    s = to_vote(new_game(4))
    b, c, d = others(s)
    s = vote(s, b, story(s))
    s = vote(s, c, card_of(s, d))
    s = vote(s, d, card_of(s, c))
    assert s["last"]["case"] == "some"
    assert GAME.scores(s) == {teller(s): 4, b: 3, c: 1, d: 1}


def test_a_finder_whose_card_also_fooled_someone_scores_both():
    s = to_vote(new_game(5))
    b, c, d, e = others(s)
    s = vote(s, b, story(s))
    s = vote(s, c, story(s))
    s = vote(s, d, card_of(s, b))
    s = vote(s, e, card_of(s, b))
    assert GAME.scores(s) == {teller(s): 5, b: 5, c: 3, d: 0, e: 0}
    gains = s["last"]["gains"]
    assert gains == GAME.scores(s)


def test_the_reveal_shows_each_cards_owner_and_voters_in_table_order():
    s = to_vote(new_game(4))
    b, c, d = others(s)
    table = list(s["table"])
    s = vote(s, b, story(s))
    s = vote(s, c, story(s))
    s = vote(s, d, card_of(s, b))
    cards = s["last"]["cards"]
    assert [x["card"] for x in cards] == table
    by_card = {x["card"]: x for x in cards}
    assert by_card[story(s)]["owner"] == teller(s)
    assert sorted(by_card[story(s)]["voters"]) == sorted([b, c])
    assert by_card[card_of(s, b)]["voters"] == [d]


def test_nobody_may_vote_for_their_own_card():
    s = to_vote(new_game(4))
    b = others(s)[0]
    refused(s, b, {"type": "vote", "card": card_of(s, b)}, "own_card")
    assert {"type": "vote", "card": card_of(s, b)} not in GAME.actions(s, b)


def test_the_storyteller_does_not_vote_and_nobody_votes_twice():
    s = to_vote(new_game(4))
    b, c, _ = others(s)
    refused(s, teller(s), {"type": "vote", "card": card_of(s, b)}, "not_your_turn")
    s = vote(s, b, card_of(s, c))
    refused(s, b, {"type": "vote", "card": story(s)}, "already_voted")


def test_only_the_storyteller_tells_and_only_with_a_card_from_their_hand():
    s = new_game(4)
    b = others(s)[0]
    refused(s, b, {"type": "tell", "card": s["hands"][b][0], "clue": "x"}, "not_your_turn")
    refused(s, teller(s), {"type": "tell", "card": s["hands"][b][0], "clue": "x"}, "bad_card")
    refused(s, teller(s), {"type": "tell", "card": s["hands"][teller(s)][0], "clue": "x" * 141}, "bad_clue")
    refused(s, b, {"type": "submit", "card": s["hands"][b][0]}, "wrong_phase")


def test_a_spoken_clue_is_an_empty_string_and_a_typed_one_is_trimmed():
    s = tell(new_game(4), clue="")
    assert s["clue"] == "" and s["phase"] == "submit"
    s = tell(new_game(4), clue="  deep   water ")
    assert GAME.view(s, "@table")["clue"] == "deep water"


def test_a_player_submits_once_from_their_own_hand_and_the_storyteller_not_at_all():
    s = tell(new_game(4))
    b, c, _ = others(s)
    refused(s, teller(s), {"type": "submit", "card": s["hands"][teller(s)][0]}, "not_your_turn")
    refused(s, b, {"type": "submit", "card": s["hands"][c][0]}, "bad_card")
    s = ok(s, b, {"type": "submit", "card": s["hands"][b][0]})
    refused(s, b, {"type": "submit", "card": s["hands"][b][0]}, "already_submitted")
    assert GAME.actions(s, b) == []


def test_unknown_and_malformed_actions_are_refused():
    s = new_game(4)
    refused(s, teller(s), {"type": "dance"}, "bad_action")
    refused(s, teller(s), ["tell"], "bad_action")
    refused(s, teller(s), {"type": "tell", "card": ["x"], "clue": "x"}, "bad_card")
    refused(s, "@table", {"type": "next"}, "not_a_player")
    refused(s, "zed", {"type": "next"}, "not_a_player")
