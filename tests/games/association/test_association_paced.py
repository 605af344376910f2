"""Host-paced association (the room's timers "none"): no phase ever times out; a phase ends
when everyone has done what it waits for, or when the VIP ends it (`advance`)."""
from association_helpers import GAME, T, new_game, ok, others, submit_all, tell, teller, to_vote

from partyhub.gamekit import PACED, Rejected

LONG = dict(tell_seconds=30, submit_seconds=30, vote_seconds=30, reveal_seconds=10)
LATER = T + 10 ** 9          # far past every timer the options name


def paced_game(**options):
    return GAME.begin(GAME.setup(*_seats_and_options(options)), T)


def _seats_and_options(options):
    from association_helpers import SEATS, start_options
    return SEATS[:4], {**start_options(**{**LONG, **options}), PACED: True}, 1


def test_no_phase_of_a_paced_game_has_a_deadline_even_with_timer_options():
    s = paced_game()
    phases = []
    for step in (lambda s: s, tell, submit_all):
        s = step(s)
        phases.append(s["phase"])
        assert GAME.deadline(s) is None and GAME.on_deadline(s, LATER).state == s
    assert phases == ["tell", "submit", "vote"]


def test_a_paced_phase_ends_when_everyone_is_done():
    s = to_vote(paced_game())
    story = s["played"][teller(s)]
    for seat in others(s):
        s = ok(s, seat, {"type": "vote", "card": story if seat != others(s)[0] else
                         next(c for c in s["table"] if c != s["played"][seat])})
    assert s["phase"] == "reveal" and GAME.deadline(s) is None


def test_the_vip_ends_each_phase_as_its_timer_would_have():
    s = paced_game()
    first = teller(s)
    assert GAME.can_advance(s)
    s = GAME.advance(s, T + 5).state          # tell: the silent storyteller loses the turn
    assert s["phase"] == "tell" and teller(s) != first
    s = tell(s)
    b = others(s)[0]
    s = ok(s, b, {"type": "submit", "card": s["hands"][b][0]})
    s = GAME.advance(s, T + 6).state          # submit: random cards for the late (on_timeout)
    assert s["phase"] == "vote" and len(s["table"]) == 4
    s = GAME.advance(s, T + 7).state          # vote: missing votes are skipped
    assert s["phase"] == "reveal" and s["votes"] == {}
    s = GAME.advance(s, T + 8).state          # reveal: the next turn
    assert s["phase"] == "tell" and s["turn"] == 3 and GAME.deadline(s) is None


def test_advance_is_refused_in_a_timed_game_and_once_the_game_is_over():
    timed = new_game(4, **LONG)
    assert not GAME.can_advance(timed)
    result = GAME.advance(timed, T)
    assert isinstance(result, Rejected) and result.code == "wrong_phase"
    over = {**paced_game(), "phase": "over"}
    assert not GAME.can_advance(over) and isinstance(GAME.advance(over, T), Rejected)
