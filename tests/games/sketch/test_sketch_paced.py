"""Host-paced sketch (timers "none"): no sand runs. A drawing round ends when the VIP says so;
a guessing round also ends by itself once nothing is left to guess (after the tie window of
the last win), and at once when nothing was drawn."""
from partyhub.gamekit import PACED, Rejected

from games.sketch.rules import GAME

from sketch_play import T0, ok, options, put, seats

LATER = T0 + 10 ** 9


def paced(n=3, **given):
    return GAME.begin(GAME.setup(seats(n), {**options(**given), PACED: True}, 1), T0)


def test_no_round_of_a_paced_game_times_out():
    s = put(paced(), "p0", 0)
    assert GAME.deadline(s) is None and GAME.on_deadline(s, LATER).state == s
    s = GAME.advance(s, T0 + 5).state
    assert s["phase"] == "guessing" and GAME.deadline(s) is None
    assert GAME.on_deadline(s, LATER).state == s


def test_the_vip_ends_every_round_and_the_sixth_ends_the_game():
    s = put(paced(), "p0", 0)
    seen = []
    while GAME.outcome(s) is None:
        seen.append(s["phase"])
        assert GAME.can_advance(s)
        s = GAME.advance(s, T0 + len(seen)).state
    assert seen == ["drawing", "guessing"] * 3 and not GAME.can_advance(s)
    assert isinstance(GAME.advance(s, LATER), Rejected)


def test_a_paced_guessing_round_ends_once_every_drawing_is_guessed_and_the_tie_window_closed():
    s = put(paced(tie_window_ms=1000), "p0", 0)
    word = s["boards"]["p0"][0]["word"]
    s = GAME.advance(s, T0 + 10).state
    s = ok(s, "p1", {"type": "guess", "player": "p0", "board": 0, "text": word}, T0 + 20)
    assert s["phase"] == "guessing" and GAME.deadline(s) == T0 + 1020, "a tie may still win"
    s = ok(s, "p2", {"type": "guess", "player": "p0", "board": 0, "text": word}, T0 + 500)
    assert s["boards"]["p0"][0]["won_by"] == ["p1", "p2"]
    s = GAME.on_deadline(s, T0 + 1020).state
    assert s["phase"] == "drawing" and s["round"] == 3 and GAME.deadline(s) is None


def test_a_paced_guessing_round_with_nothing_drawn_is_over_at_once():
    s = GAME.advance(paced(), T0 + 10).state
    assert s["phase"] == "drawing" and s["round"] == 3


def test_a_timed_game_cannot_be_advanced():
    from sketch_play import started
    s = started()
    assert not GAME.can_advance(s) and GAME.advance(s, T0).code == "wrong_phase"
