"""The end of a turn, of the deck and of the game: draws, the storyteller's role, target score."""
from association_helpers import (GAME, all_cards, new_game, ok, others, story, teller, to_vote,
                                 vote)


def play_turn(s, guess=True):
    """One whole turn: tell, submit, everybody votes (for the story or not), next."""
    s = to_vote(s)
    for seat in others(s):
        own = s["played"].get(seat)
        target = story(s) if guess else next(c for c in s["table"] if c not in (story(s), own))
        s = vote(s, seat, target)
    return ok(s, teller(s), {"type": "next"})


def empty_deck(s):
    s = dict(s, out=s["out"] + s["draw"], draw=[])
    return s


def test_played_cards_leave_the_game_and_everyone_draws_one():
    s = new_game(4)
    first = teller(s)
    deck = len(s["draw"])
    s = play_turn(s)
    assert len(s["out"]) == 4
    assert len(s["draw"]) == deck - 4
    assert all(len(h) == 6 for h in s["hands"].values())
    assert teller(s) == s["seats"][(s["seats"].index(first) + 1) % 4]
    assert s["phase"] == "tell" and s["turn"] == 2


def test_when_the_deck_is_empty_play_goes_on_while_hands_have_cards():
    s = empty_deck(new_game(3))
    cards = sorted(all_cards(s))
    turns = 0
    while s["phase"] != "over":
        s = play_turn(s, guess=turns % 2 == 0)
        turns += 1
        assert sorted(all_cards(s)) == cards
    assert turns == 6
    assert all(h == [] for h in s["hands"].values())
    assert s["ended"] == "out_of_cards"


def test_the_game_ends_when_the_next_storyteller_has_no_card():
    s = empty_deck(new_game(3, seed=4))
    nxt = s["seats"][(s["teller"] + 1) % 3]
    s["out"] += s["hands"][nxt]
    s["hands"][nxt] = []        # as if their cards ran out earlier
    s = play_turn(s)
    assert s["phase"] == "over" and s["ended"] == "out_of_cards"
    assert GAME.outcome(s)["reason"] == "out_of_cards"
    assert all(GAME.actions(s, seat) == [] for seat in s["seats"])


def test_a_player_without_cards_sits_the_turn_out_but_still_votes():
    s = empty_deck(new_game(4, seed=2))
    b, c, d = others(s)
    s["out"] += s["hands"][d]
    s["hands"][d] = []
    s = ok(s, teller(s), {"type": "tell", "card": s["hands"][teller(s)][0], "clue": "x"})
    assert GAME.actions(s, d) == []
    s = ok(s, b, {"type": "submit", "card": s["hands"][b][0]})
    s = ok(s, c, {"type": "submit", "card": s["hands"][c][0]})
    assert s["phase"] == "vote" and len(s["table"]) == 3
    assert len(GAME.actions(s, d)) == 3


def test_the_game_ends_at_the_target_score_after_the_reveal():
    s = new_game(4, target_score=3)
    s = to_vote(s)
    for seat in others(s):
        s = vote(s, seat, story(s))
    assert s["phase"] == "reveal"
    s = ok(s, others(s)[0], {"type": "next"})
    out = GAME.outcome(s)
    assert out["reason"] == "target_score"
    assert sorted(out["winners"]) == sorted(seat for seat in s["seats"] if out["scores"][seat] == 3)


def test_tied_players_share_the_win():
    s = new_game(3, seed=9)
    s = dict(s, phase="over", ended="out_of_cards", scores={"ann": 7, "bob": 7, "cat": 2})
    assert GAME.outcome(s)["winners"] == ["ann", "bob"]
    assert GAME.outcome(new_game(3)) is None


def test_every_player_may_close_the_reveal_and_the_table_may_not():
    s = to_vote(new_game(4))
    for seat in others(s):
        s = vote(s, seat, story(s))
    for seat in s["seats"]:
        assert GAME.actions(s, seat) == [{"type": "next"}]
    assert GAME.actions(s, "@table") == []


def test_the_storyteller_role_goes_round_the_table_in_seat_order():
    s = new_game(5, seed=3)
    seen = []
    for _ in range(5):
        seen.append(teller(s))
        s = play_turn(s)
    start = s["seats"].index(seen[0])
    assert seen == [s["seats"][(start + k) % 5] for k in range(5)]


def test_the_first_storyteller_depends_on_the_seed():
    firsts = {teller(new_game(6, seed=n)) for n in range(30)}
    assert len(firsts) > 3
