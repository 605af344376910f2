"""Timers: on by default (issue 27), what happens when each one falls due, and that a late call is fine."""
from association_helpers import GAME, T, new_game, ok, others, story, teller, tell, to_vote


def fire(s, now):
    return GAME.on_deadline(s, now).state


def test_the_default_timers_run_and_the_host_may_turn_them_off():
    """Issue 27: by default a game ends (30 points) and an absent player never stalls it."""
    s = new_game(4)
    assert GAME.deadline(s) == T + 90_000
    assert GAME.deadline(tell(s)) == T + 60_000      # the submit timer, from the story
    off = new_game(4, tell_seconds=0, submit_seconds=0, vote_seconds=0, reveal_seconds=0)
    assert GAME.deadline(off) is None
    assert GAME.deadline(tell(off)) is None


def test_the_first_tell_timer_is_armed_by_begin():
    from association_helpers import SEATS, start_options
    bare = GAME.setup(SEATS[:4], start_options(tell_seconds=30), 1)
    assert GAME.deadline(bare) is None          # setup has no clock
    s = GAME.begin(bare, T)
    assert GAME.deadline(bare) is None, "begin mutated its input"
    assert GAME.deadline(s) == T + 30_000 and s["phase"] == "tell" and s["turn"] == 1
    assert {k: v for k, v in s.items() if k != "deadline"} == \
        {k: v for k, v in bare.items() if k != "deadline"}


def test_begin_without_a_tell_timer_sets_none():
    s = new_game(4, tell_seconds=0, submit_seconds=30)
    assert GAME.deadline(s) is None


def test_a_deadline_not_yet_due_changes_nothing():
    s = new_game(4, tell_seconds=30)
    assert GAME.on_deadline(s, T + 29_999).state == s


def test_a_silent_storyteller_loses_the_turn_to_the_next_seat():
    s = new_game(4, tell_seconds=30)
    first = teller(s)
    s = fire(s, T + 31_000)
    assert s["phase"] == "tell" and teller(s) != first
    assert s["hands"][first] and len(s["hands"][first]) == 6
    assert GAME.deadline(s) == T + 31_000 + 30_000


def test_a_whole_silent_round_ends_the_game():
    s = new_game(3, tell_seconds=10)
    now = T
    for _ in range(3):
        now = GAME.deadline(s) + 5
        s = fire(s, now)
    assert s["phase"] == "over" and s["ended"] == "nobody_told"


def test_late_submitters_get_a_random_card_played_for_them():
    s = tell(new_game(4, submit_seconds=20))
    b = others(s)[0]
    s = ok(s, b, {"type": "submit", "card": s["hands"][b][0]})
    s = fire(s, T + 60_000)      # called late: still correct
    assert s["phase"] == "vote" and len(s["table"]) == 4
    assert all(len(s["hands"][seat]) == 5 for seat in s["seats"])


def test_with_skip_late_submitters_sit_the_turn_out():
    s = tell(new_game(4, submit_seconds=20, on_timeout="skip"))
    b, c, d = others(s)
    s = ok(s, b, {"type": "submit", "card": s["hands"][b][0]})
    s = fire(s, T + 20_000)
    assert s["phase"] == "vote" and len(s["table"]) == 2
    assert sorted(s["sitting_out"]) == sorted([c, d])
    assert len(s["hands"][c]) == 6
    assert GAME.view(s, c)["sitting_out"] is True
    assert len(GAME.actions(s, c)) == 2       # may still vote


def test_when_nobody_but_the_storyteller_played_the_turn_is_void():
    s = tell(new_game(4, submit_seconds=20, on_timeout="skip"))
    s = fire(s, T + 20_000)
    assert s["phase"] == "reveal" and s["last"]["case"] == "void"
    assert GAME.scores(s) == {seat: 0 for seat in s["seats"]}


def test_missing_votes_are_skipped_when_the_vote_timer_falls_due():
    s = to_vote(new_game(4, vote_seconds=15))
    b, c, d = others(s)
    s = ok(s, b, {"type": "vote", "card": story(s)})
    s = fire(s, T + 15_000)
    assert s["phase"] == "reveal" and s["last"]["case"] == "some"
    assert GAME.scores(s) == {teller(s): 4, b: 3, c: 0, d: 0}


def test_the_reveal_timer_moves_on_to_the_next_turn():
    s = to_vote(new_game(4, reveal_seconds=8))
    for seat in others(s):
        s = ok(s, seat, {"type": "vote", "card": story(s)}, T + 1000)
    assert GAME.deadline(s) == T + 1000 + 8000
    s = fire(s, T + 9000)
    assert s["phase"] == "tell" and s["turn"] == 2
