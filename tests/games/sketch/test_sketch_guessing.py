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
    assert GAME.scores(state)["p1"] == before["p1"], "no penalty was counted for it yet"
    assert GAME.outcome(state) is None and GAME.view(state, "@table")["players"][1]["boards_left"] == 5
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
    assert GAME.scores(state)["p0"] == GAME.scores(state)["p2"] == 1


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
    assert GAME.scores(state) == {"p0": 2, "p1": 0, "p2": 0, "p3": 1}, "nothing missed yet"
    while GAME.outcome(state) is None:
        state = next_round(state)
    out = GAME.outcome(state)
    assert out["scores"] == GAME.scores(state) == {"p0": 2 - 6, "p1": 0 - 4, "p2": 0 - 5, "p3": 1 - 6}
    assert out["winners"] == ["p1"]
    assert out["boards_left"]["p1"] == 4 and out["won"]["p0"] == 2


def test_a_tie_goes_to_the_fewest_own_boards_left_then_is_shared():
    state = guessing_with_boards(4)
    # p0 wins two of p1's boards: at the end p0 = 2 - 6 = -4; p1 = 0 - 4 = -4; p1 has fewer
    # boards left.
    state = ok(state, "p0", guess("p1", 0, word_on(state, "p1", 0)))
    state = ok(state, "p0", guess("p1", 1, word_on(state, "p1", 1)))
    while GAME.outcome(state) is None:
        state = next_round(state)
    assert GAME.scores(state)["p0"] == GAME.scores(state)["p1"] == -4
    assert winners(state) == ["p1"]
    fresh = started(4)
    assert winners(fresh) == ["p0", "p1", "p2", "p3"], "all at 0 with 6 boards: shared"


def test_nobody_is_negative_before_anyone_could_guess_and_a_miss_costs_when_its_round_ends():
    assert set(GAME.scores(started(3)).values()) == {0}, "not -6 before anyone could guess"
    state = guessing_with_boards()       # p1 drew boards 0 and 1, p2 board 0
    assert set(GAME.scores(state).values()) == {0}, "drawn, not yet guessable to the end"
    state = ok(state, "p0", guess("p1", 0, word_on(state, "p1", 0)))
    assert GAME.scores(state) == {"p0": 1, "p1": 0, "p2": 0}
    state = next_round(state)            # the guessing round is over: two drawings missed
    assert GAME.scores(state) == {"p0": 1, "p1": -1, "p2": -1}
    state = ok(state, "p1", {"type": "draw", "board": 1,
                             "word": next(a["word"] for a in GAME.actions(state, "p1") if a["type"] == "draw")})
    assert GAME.scores(state)["p1"] == 0, "a new drawing on the board: nobody has tried it yet"
    state = next_round(state)
    state = ok(state, "p0", guess("p2", 0, word_on(state, "p2", 0)))
    assert GAME.scores(state) == {"p0": 2, "p1": 0, "p2": 0}, "guessed later: no penalty"
    while GAME.outcome(state) is None:
        state = next_round(state)
    assert GAME.scores(state) == {"p0": 2 - 6, "p1": 0 - 5, "p2": 0 - 5}, "the end counts every board"


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
    for k in range(10):         # five wrong guesses each (issue 31's limit)
        state = ok(state, "p0" if k < 5 else "p2", guess("p1", 0, f"nope {k}"), T0 + 100 + k)
    state = ok(state, "p0", guess("p2", 0, "other"), T0 + 200)
    mine = GAME.view(state, "p0")["you"]["guesses"]
    assert [g["text"] for g in mine] == ["nope 2", "nope 3", "nope 4", "other"]
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


# ---------------------------------------------------------------- fair play (issue 31)

def test_a_guess_names_one_thing_not_a_word_list():
    """Three words at most ("toy car" guesses "car"); a fourth is refused, state unchanged,
    whether the list holds the word or not."""
    state = guessing_with_boards()
    word = word_on(state, "p1", 0)
    assert GAME.view(state, "p0")["guess_words"] == 3
    listed = f"sun moon {word} star"
    before = GAME.view(state, "p0")
    assert refused(state, "p0", guess("p1", 0, listed)) == "too_many_words"
    assert refused(state, "p0", guess("p1", 0, "one two-three, four")) == "too_many_words"
    assert GAME.view(state, "p0") == before
    state = ok(state, "p0", guess("p1", 0, f"a big {word}"))
    assert state["boards"]["p1"][0]["won_by"] == ["p0"]


def test_a_longer_dealt_word_allows_as_many_words():
    state = guessing_with_boards(words="once in a blue moon\nonce in a blue moon\nsun\nstar\nsea")
    assert GAME.view(state, "@table")["guess_words"] == 5
    assert refused(state, "p0", guess("p1", 0, "a b c d e f")) == "too_many_words"
    assert GAME.apply(state, "p0", guess("p1", 0, "a b c d e"), T0 + 1).__class__.__name__ == "Accepted"


def test_five_wrong_guesses_per_board_per_round_then_none():
    state = guessing_with_boards()
    word = word_on(state, "p1", 0)
    for k in range(5):
        left = {(x["player"], x["board"]): x["left"] for x in GAME.view(state, "p0")["you"]["left"]}
        assert left.get(("p1", 0), 5) == 5 - k
        state = ok(state, "p0", guess("p1", 0, f"nope {k}"), T0 + 10 + k)
    assert GAME.view(state, "p0")["you"]["left"] == [{"player": "p1", "board": 0, "left": 0}]
    assert GAME.view(state, "p0")["wrong_guesses"] == 5
    # none left: refused, right or wrong alike (the refusal tells nothing), state unchanged
    assert refused(state, "p0", guess("p1", 0, word), T0 + 20) == "out_of_guesses"
    assert refused(state, "p0", guess("p1", 0, "nope 9"), T0 + 20) == "out_of_guesses"
    assert {"type": "guess", "player": "p1", "board": 0, "text": None} not in GAME.actions(state, "p0")
    # other boards and other players are not touched; the count is in p0's own view only
    assert {"type": "guess", "player": "p1", "board": 1, "text": None} in GAME.actions(state, "p0")
    assert {"type": "guess", "player": "p1", "board": 0, "text": None} in GAME.actions(state, "p2")
    assert GAME.view(state, "p2")["you"]["left"] == []
    assert "left" not in GAME.view(state, "@table") and "you" not in GAME.view(state, "@table")
    # the next guessing round gives five again
    state = next_round(next_round(state))
    assert GAME.view(state, "p0")["you"]["left"] == []
    state = ok(state, "p0", guess("p1", 0, word), state["deadline"] - 1)
    assert state["boards"]["p1"][0]["won_by"] == ["p0"]


def test_refused_and_right_guesses_use_no_wrong_guess():
    state = guessing_with_boards()
    state = ok(state, "p0", guess("p1", 0, "nope"))
    assert refused(state, "p0", guess("p1", 0, "NOPE")) == "repeated_guess"
    assert refused(state, "p0", guess("p1", 0, "a b c d")) == "too_many_words"
    assert GAME.view(state, "p0")["you"]["left"] == [{"player": "p1", "board": 0, "left": 4}]
