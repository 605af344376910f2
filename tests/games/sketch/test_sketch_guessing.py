"""Guessing rounds: winning boards, the tie window, close/far answers, scoring and ties."""
from games.sketch.rules import GAME
from games.sketch.rules.state import winners

from sketch_play import T0, next_round, ok, put, refused, started, word_on


def guessing_with_boards(n=3, **given):
    """p1 drew boards 0 and 1, p2 drew board 0; now a guessing round."""
    state = put(put(put(started(n, **given), "p1", 0), "p1", 1), "p2", 0)
    return next_round(state)


def guess(player, board, text):
    return {"type": "guess", "player": player, "board": board, "text": text}


def test_a_correct_guess_moves_the_board_from_the_drawer_to_the_guesser():
    state = guessing_with_boards()
    word = word_on(state, "p1", 0)
    before = GAME.scores(state)
    result = GAME.apply(state, "p0", guess("p1", 0, f"a {word.upper()}!"), T0 + 100)
    state = result.state
    assert state["boards"]["p1"][0]["won_by"] == ["p0"]
    assert GAME.scores(state)["p0"] == before["p0"] + 1
    assert GAME.scores(state)["p1"] == before["p1"] + 1, "one fewer own board left"
    assert [e["type"] for e in result.events] == ["guess_made", "board_won"]
    assert GAME.view(state, "@table")["last"] == {
        "type": "board_won", "player": "p1", "board": 0, "by": ["p0"], "n": state["seq"]}
    assert {"type": "guess", "player": "p1", "board": 0, "text": None} \
        not in GAME.actions(state, "p2")


def test_two_correct_guesses_within_the_tie_window_both_win_the_board():
    state = guessing_with_boards()
    word = word_on(state, "p1", 0)
    state = ok(state, "p0", guess("p1", 0, word), T0 + 100)
    state = ok(state, "p2", guess("p1", 0, word), T0 + 1_100)
    assert state["boards"]["p1"][0]["won_by"] == ["p0", "p2"]
    assert GAME.scores(state)["p0"] == GAME.scores(state)["p2"] == 1 - 6


def test_a_correct_guess_after_the_tie_window_is_too_late():
    state = guessing_with_boards()
    word = word_on(state, "p1", 0)
    state = ok(state, "p0", guess("p1", 0, word), T0 + 100)
    assert refused(state, "p2", guess("p1", 0, word), T0 + 1_101) == "already_guessed"
    assert refused(state, "p2", guess("p1", 0, "nope"), T0 + 200) == "already_guessed"
    assert refused(state, "p0", guess("p1", 0, word), T0 + 200) == "already_won"


def test_a_zero_tie_window_allows_only_a_guess_in_the_same_millisecond():
    state = guessing_with_boards(tie_window_ms=0)
    word = word_on(state, "p1", 0)
    state = ok(state, "p0", guess("p1", 0, word), T0 + 100)
    assert refused(state, "p2", guess("p1", 0, word), T0 + 101) == "already_guessed"
    assert ok(state, "p2", guess("p1", 0, word), T0 + 100)


def test_wrong_guesses_are_refused_for_own_blank_and_unknown_boards():
    state = guessing_with_boards()
    assert refused(state, "p1", guess("p1", 0, "x")) == "own_board"
    assert refused(state, "p0", guess("p2", 3, "x")) == "not_drawn"
    assert refused(state, "p0", guess("p9", 0, "x")) == "bad_board"
    assert refused(state, "p0", guess("p1", 6, "x")) == "bad_board"
    assert refused(state, "p0", guess("p1", 0, " ?! ")) == "empty_guess"
    assert refused(state, "p0", guess("p1", 0, "x" * 81)) == "long_guess"
    state = ok(state, "p0", guess("p1", 0, "zebra crossing"))
    assert refused(state, "p0", guess("p1", 0, "Zebra, crossing")) == "repeated_guess"


def test_the_drawer_answers_close_or_far_once_and_the_guesser_sees_it():
    state = guessing_with_boards()
    state = ok(state, "p0", guess("p1", 0, "zebra crossing"))
    gid = GAME.view(state, "p1")["you"]["asked"][-1]["id"]
    assert {"type": "feedback", "guess": gid, "value": "close"} in GAME.actions(state, "p1")
    assert refused(state, "p2", {"type": "feedback", "guess": gid, "value": "far"}) \
        == "not_your_board"
    assert refused(state, "p1", {"type": "feedback", "guess": gid, "value": "warm"}) \
        == "bad_value"
    state = ok(state, "p1", {"type": "feedback", "guess": gid, "value": "close"})
    assert GAME.view(state, "p0")["you"]["guesses"][-1]["feedback"] == "close"
    assert refused(state, "p1", {"type": "feedback", "guess": gid, "value": "far"}) \
        == "already_answered"
    assert not [a for a in GAME.actions(state, "p1") if a["type"] == "feedback"]


def test_a_right_guess_gets_no_close_or_far_and_old_guesses_expire_with_their_round():
    state = guessing_with_boards()
    state = ok(state, "p0", guess("p1", 0, word_on(state, "p1", 0)))
    state = ok(state, "p0", guess("p1", 1, "zebra crossing"))
    right, wrong = (g["id"] for g in state["guesses"])
    assert refused(state, "p1", {"type": "feedback", "guess": right, "value": "far"}) \
        == "correct_guess"
    later = next_round(next_round(state))
    assert refused(later, "p1", {"type": "feedback", "guess": wrong, "value": "far"}) \
        == "round_over"


def test_guessing_and_drawing_each_have_their_own_rounds():
    state = guessing_with_boards()
    assert refused(state, "p1", {"type": "draw", "board": 2, "word": "x"}) == "wrong_phase"
    drawing = next_round(state)
    target = guess("p1", 0, word_on(state, "p1", 0))
    assert refused(drawing, "p0", target, drawing["deadline"] - 1) == "wrong_phase"


def test_scores_are_boards_won_minus_own_boards_left():
    state = guessing_with_boards(4)
    state = ok(state, "p0", guess("p1", 0, word_on(state, "p1", 0)))
    state = ok(state, "p0", guess("p1", 1, word_on(state, "p1", 1)))
    state = ok(state, "p3", guess("p2", 0, word_on(state, "p2", 0)))
    assert GAME.scores(state) == {"p0": 2 - 6, "p1": 0 - 4, "p2": 0 - 5, "p3": 1 - 6}
    while GAME.outcome(state) is None:
        state = next_round(state)
    out = GAME.outcome(state)
    assert out["scores"] == GAME.scores(state)
    assert out["winners"] == ["p1"]
    assert out["boards_left"]["p1"] == 4 and out["won"]["p0"] == 2


def test_a_tie_goes_to_the_fewest_own_boards_left_then_is_shared():
    state = guessing_with_boards(4)
    # p0 wins two of p1's boards: p0 = 2 - 6 = -4; p1 = 0 - 4 = -4; p1 has fewer boards left.
    state = ok(state, "p0", guess("p1", 0, word_on(state, "p1", 0)))
    state = ok(state, "p0", guess("p1", 1, word_on(state, "p1", 1)))
    assert GAME.scores(state)["p0"] == GAME.scores(state)["p1"] == -4
    assert winners(state) == ["p1"]
    fresh = started(4)
    assert winners(fresh) == ["p0", "p1", "p2", "p3"], "all at -6 with 6 boards: shared"


def test_a_guess_naming_a_non_string_player_is_refused_cleanly():
    """Hostile frames (found by tests/reliability/test_fuzz.py): a list or a dict as the
    board's owner used to raise TypeError (unhashable) in board_at; now a clean refusal."""
    state = guessing_with_boards()
    word = word_on(state, "p1", 0)
    for owner in (["p1"], {"p1": 0}, [], {}, None, 1, 1.5, True, ("p1",)):
        assert refused(state, "p0", guess(owner, 0, word), T0 + 100) == "bad_board", owner
    for kind in (["guess"], {"a": 1}, 3):
        assert refused(state, "p0", {"type": kind, "player": "p1", "board": 0, "text": word},
                       T0 + 100) == "bad_action"
    drawing = started(3)
    assert refused(drawing, "p0", {"type": "draw", "board": [0], "word": "x"}) == "bad_board"
    assert GAME.stream(drawing, "p0", {"type": ["stroke"], "board": 0}, T0 + 1).code == "bad_action"
    assert GAME.absorb(drawing, [("p0", {"type": ["stroke"], "board": 0})]) == drawing


def test_a_phone_is_sent_the_guesses_it_shows_and_no_more():
    """Every view of a guess carries these lists: the guesser's newest three on each board,
    the drawer's this round's newest eight (the phone shows exactly those)."""
    state = guessing_with_boards()
    for k in range(10):
        state = ok(state, "p0", guess("p1", 0, f"nope {k}"), T0 + 100 + k)
    state = ok(state, "p0", guess("p2", 0, "other"), T0 + 200)
    mine = GAME.view(state, "p0")["you"]["guesses"]
    assert [g["text"] for g in mine] == ["nope 7", "nope 8", "nope 9", "other"]
    asked = GAME.view(state, "p1")["you"]["asked"]
    assert [g["text"] for g in asked] == [f"nope {k}" for k in range(2, 10)]
    # the drawer answers those it is shown: older ones are neither listed nor accepted
    answerable = {a["guess"] for a in GAME.actions(state, "p1") if a["type"] == "feedback"}
    assert answerable == {g["id"] for g in asked}
    oldest = next(g["id"] for g in state["guesses"] if g["text"] == "nope 0")
    assert refused(state, "p1", {"type": "feedback", "guess": oldest, "value": "far"}) \
        == "guess_too_old"
    state = next_round(next_round(state))           # a drawing round, then guessing again
    assert GAME.view(state, "p1")["you"]["asked"] == []
    assert len(GAME.view(state, "p0")["you"]["guesses"]) == 4, "your answered guesses stay"
