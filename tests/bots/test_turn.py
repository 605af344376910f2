"""A bot's turn (partyhub/bots/turn.py), the loop every bot client runs: choose among the
view's actions, choose again when the rules refuse (never the refused action twice in a
view), start over with a newer view. The stand-in (rooms/timers/standin.py), the lobby's bots
and the crash tests' clients each run it."""
import random

from partyhub.bots import choice
from partyhub.bots.turn import Turn


def view(*actions, game_no=1):
    return {"room": {"game": "count", "language": "en", "game_no": game_no}, "game": {"total": 0},
            "actions": list(actions)}


ADD, SAY = {"type": "add", "n": 1}, {"type": "say", "text": None}


def test_a_refused_action_is_not_chosen_again_in_its_view():
    turn = Turn()
    assert turn.seen(view(ADD, SAY), 1) and turn.due()
    first = turn.choose(random.Random(3))
    assert not turn.due()                           # it waits for the answer
    assert turn.refused(turn.ref) and turn.due()
    second = turn.choose(random.Random(3))
    assert {first["type"], second["type"]} == {"add", "say"}
    assert turn.refused(turn.ref)
    assert turn.choose(random.Random(3)) is None    # both refused: nothing left to try


def test_only_its_own_actions_refusal_counts():
    turn = Turn(view(ADD), 1)
    turn.choose(random.Random(1))
    assert not turn.refused("a stroke's id") and not turn.due()
    ref = turn.ref
    assert turn.seen(view(ADD), 2)                  # a newer view: the answer no longer matters
    assert not turn.refused(ref) and turn.failed == set()


def test_an_older_view_changes_nothing():
    turn = Turn(view(ADD), 5)
    turn.choose(random.Random(1))
    turn.refused(turn.ref)
    assert not turn.seen(view(SAY), 4)
    assert turn.version == 5 and turn.failed


def test_a_custom_pick_is_told_what_was_refused():
    seen = []

    def pick(v, rnd, failed):
        seen.append(set(failed))
        return ADD
    turn = Turn(view(ADD, SAY), 1)
    turn.choose(random.Random(1), pick=pick)
    turn.refused(turn.ref)
    turn.choose(random.Random(1), pick=pick)
    assert seen[0] == set() and len(seen[1]) == 1 and turn.key in seen[1]


def test_its_drawing_is_sent_once(monkeypatch):
    monkeypatch.setattr(choice, "stream_moves", lambda v: [{"type": "stroke", "n": 1}])
    turn = Turn(view(ADD), 1)
    assert turn.strokes() == [{"type": "stroke", "n": 1}]
    assert turn.strokes() == []
    turn.seen(view(ADD, game_no=2), 2)              # a new game draws again
    assert turn.strokes() == [{"type": "stroke", "n": 1}]
