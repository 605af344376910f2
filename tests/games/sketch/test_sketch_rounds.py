"""Round sequencing: the sand timer, six rounds without pauses, late and early timers."""
from games.sketch.rules import GAME

from sketch_play import T0, ok, options, put, refused, seats, started

ROUND = GAME.options["round_seconds"].default * 1000     # the default round (150 s, issue 27)


def test_the_first_drawing_round_starts_when_the_platform_begins_the_game():
    """No "ready" phase: setup deals round 1 and `begin` (the VIP's Start) turns the timer."""
    state = GAME.setup(seats(3), options(), 5)
    assert state["phase"] == "drawing" and state["round"] == 1
    assert GAME.deadline(state) is None
    assert GAME.view(state, "p1")["last"] == {"type": "round_started", "round": 1,
                                              "kind": "drawing", "n": 1}
    begun = GAME.begin(state, T0)
    assert state["deadline"] is None, "begin never mutates its input"
    assert begun["phase"] == "drawing" and GAME.deadline(begun) == T0 + ROUND
    assert GAME.view(begun, "p1")["you"]["cards"] == state["cards"]["p1"]
    assert GAME.actions(begun, "p1")[0]["type"] == "draw"
    assert refused(begun, "p1", {"type": "begin"}) == "bad_action"


def test_begin_times_the_round_with_the_game_clock_and_extended_lengths():
    state = GAME.begin(GAME.setup(seats(4), options(round_seconds=120), 2), T0 + 5)
    assert GAME.deadline(state) == T0 + 5 + 120_000


def test_six_rounds_alternate_drawing_and_guessing_and_the_last_deadline_ends_the_game():
    state = started(round_seconds=30)
    seen = []
    while GAME.outcome(state) is None:
        seen.append((state["round"], state["phase"]))
        due = GAME.deadline(state)
        state = GAME.on_deadline(state, due).state
        if state["deadline"] is not None:
            assert state["deadline"] == due + 30_000, "the next round starts at once"
    assert seen == [(1, "drawing"), (2, "guessing"), (3, "drawing"),
                    (4, "guessing"), (5, "drawing"), (6, "guessing")]
    assert state["phase"] == "over" and GAME.deadline(state) is None
    assert GAME.actions(state, "p0") == []
    assert refused(state, "p0", {"type": "draw", "board": 0, "word": "x"}) == "game_over"


def test_an_early_timer_call_changes_nothing():
    state = started()
    result = GAME.on_deadline(state, state["deadline"] - 1)
    assert result.state == state and result.events == []


def test_a_late_timekeeper_gives_the_next_round_its_full_length():
    state = started()
    late = state["deadline"] + 7_000
    state = GAME.on_deadline(state, late).state
    assert state["phase"] == "guessing" and state["deadline"] == late + ROUND


def test_nothing_is_accepted_once_the_sand_has_run_out():
    state = started()
    action = GAME.actions(state, "p1")[0]
    assert refused(state, "p1", action, state["deadline"]) == "time_up"
    assert GAME.apply(state, "p1", action, state["deadline"] - 1).state


def test_round_events_name_the_round_and_its_kind():
    state = started()
    result = GAME.on_deadline(state, state["deadline"])
    assert result.events == [{"type": "round_started", "round": 2, "kind": "guessing"}]
    assert GAME.view(result.state, "@table")["last"]["type"] == "round_started"


def test_a_drawer_may_choose_a_new_word_for_an_unguessed_board_in_a_later_drawing_round():
    state = put(started(), "p1", 0)
    first = state["boards"]["p1"][0]["word"]
    state = GAME.on_deadline(state, state["deadline"]).state
    state = GAME.on_deadline(state, state["deadline"]).state
    assert state["phase"] == "drawing"
    state = put(state, "p1", 0)
    assert state["boards"]["p1"][0]["word"] not in (None, first)
    assert first in GAME.view(state, "p1")["you"]["free_words"]
