"""Host-paced jinx (timers "none"): the race and the reveal never time out; the race ends
when every guesser is done (or someone is right), the reveal when the VIP moves on."""
from jinx_helpers import GAME, active, clued, guessers, new_game, ok, wrong_slots

from partyhub.gamekit import PACED, Rejected

LATER = 10 ** 12


def paced(**options):
    return new_game(4, pick_seconds=20, next_turn_seconds=5, **{PACED: True}, **options)


def test_the_race_and_the_reveal_of_a_paced_game_never_time_out():
    s = clued(paced())
    assert s["phase"] == "race" and GAME.deadline(s) is None
    assert GAME.on_deadline(s, LATER).state == s
    for player, slot in zip(guessers(s), wrong_slots(s, 3)):
        s = ok(s, player, {"type": "pick", "slot": slot})
    assert s["phase"] == "reveal" and GAME.deadline(s) is None, "everyone picked: the race ended"
    assert GAME.on_deadline(s, LATER).state == s


def test_the_vip_stops_the_race_and_then_moves_on_from_the_reveal():
    s = clued(paced())
    first = active(s)
    s = ok(s, guessers(s)[0], {"type": "pick", "slot": wrong_slots(s, 1)[0]})
    assert GAME.can_advance(s)
    s = GAME.advance(s, 100).state
    assert s["phase"] == "reveal" and s["last"]["timed_out"] and GAME.deadline(s) is None
    s = GAME.advance(s, 200).state
    assert s["phase"] == "clue" and active(s) != first
    assert not GAME.can_advance(s), "the clue waits for the active player: no timer ends it"
    assert GAME.advance(s, 300).code == "wrong_phase"


def test_advance_is_refused_when_the_game_runs_on_timers():
    s = clued(new_game(4, pick_seconds=20))
    assert not GAME.can_advance(s)
    assert isinstance(GAME.advance(s, 100), Rejected)
    assert GAME.deadline(s) == 20_000
