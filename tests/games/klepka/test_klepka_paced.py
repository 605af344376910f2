"""Host-paced klepka (timers "none"): the memorise phase (the reveal of the flipped letters)
has no timer; the letters stay up until the VIP turns them down (or a chaos card shuffles)."""
from klepka_helpers import game, lay, new_state, ok, rejected

from partyhub.gamekit import PACED

G = game()


def revealed(**options):
    s = new_state(G, **options)
    refs = lay(s, ["о", "а", "н", "к"])
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[1]}, 0))
    return ok(G.apply(s, "ann", {"type": "flip", "card": refs[2]}, 1000))


def test_the_letters_of_a_paced_game_stay_up_until_the_vip_turns_them_down():
    s = revealed(**{PACED: True})
    assert s["phase"] == "reveal" and s["up"] == [1, 2]
    assert G.deadline(s) is None and G.on_deadline(s, 10 ** 12).state == s
    assert G.can_advance(s)
    s = ok(G.advance(s, 5000))
    assert s["up"] == [] and s["phase"] != "reveal" and s["turn"] == 1


def test_a_paced_game_whose_reveal_is_off_goes_straight_on():
    s = revealed(**{PACED: True, "reveal_seconds": 0})
    assert s["phase"] != "reveal" and s["up"] == [] and not G.can_advance(s)


def test_only_the_reveal_of_a_paced_game_can_be_ended():
    s = new_state(G, **{PACED: True})
    assert s["phase"] == "flips" and not G.can_advance(s)
    rejected(G.advance(s, 0), "wrong_phase")
    timed = revealed()
    assert G.deadline(timed) == 4000 and not G.can_advance(timed)
    rejected(G.advance(timed, 0), "wrong_phase")
