"""The audience predicts the target (issue 22): the ballot, the verdicts, the fold, the award,
and that nothing the audience is told before the reveal depends on the target."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from jinx_helpers import AUDIENCE, GAME, TABLE, active, clued, new_game, ok
from jinx_play import TIMER, random_game
from partyhub.gamekit import Ballot, Rejected
from tests.audience_sim import Audience

PREDICT = "audience_predict"


def predict(slot):
    return {"type": PREDICT, "slot": slot}


def test_the_ballot_is_open_during_the_race_only():
    s = new_game(4)
    assert GAME.audience_ballot(s) is None and GAME.audience_actions(s) == []
    s = clued(s, slot=4)
    assert GAME.audience_ballot(s) == "t1"
    assert GAME.audience_actions(s) == [predict(n) for n in range(9)]
    s = ok(s, "bob", {"type": "pick", "slot": 0})
    assert [a["slot"] for a in GAME.audience_actions(s)] == list(range(1, 9))
    s = ok(s, "cat", {"type": "pick", "slot": 4})
    assert s["phase"] == "reveal"
    assert GAME.audience_ballot(s) is None and GAME.audience_actions(s) == []
    assert GAME.audience_check(s, predict(1), {}).code == "no_ballot"
    assert set(GAME.audience_schema) == {PREDICT}


def test_verdicts():
    s = ok(clued(new_game(4), slot=4), "bob", {"type": "pick", "slot": 0})
    assert GAME.audience_check(s, predict(7), {}) == Ballot("slot", 7, {"slot": 7})
    assert GAME.audience_check(s, predict(0), {}).code == "finger_there"
    assert GAME.audience_check(s, predict(3), {"slot": 7}).code == "already_predicted"
    for bad in (9, -1, True, "3", None, 2.0):
        assert GAME.audience_check(s, predict(bad), {}).code == "bad_slot", bad
    assert GAME.audience_check(s, {"type": "pick", "slot": 3}, {}).code == "bad_action"


def play_turn(aud, s, target, votes, picks):
    """A turn: clue on `target`, `votes` [(voter, name, slot)] before the `picks`."""
    s = clued(s, slot=target)
    aud.sync_open(s)
    for voter, name, slot in votes:
        assert isinstance(aud.offer(s, voter, name, predict(slot)), Ballot)
    for player, slot in picks:
        s = aud.after(s, ok(s, player, {"type": "pick", "slot": slot}))
    assert s["phase"] == "reveal"
    return aud.after(s, GAME.on_deadline(s, GAME.deadline(s)).state)


def test_the_fold_counts_right_predictions_and_names_the_best():
    aud = Audience(GAME)
    s = new_game(4)
    s = play_turn(aud, s, 4, [("a1", "Zoe", 4), ("a2", "Max", 1), ("c9", None, 4)],
                  [(p, 4) for p in ["bob", "cat", "dan"] if p != active(s)][:1])
    # the anonymous prediction (c9) is a count apart: in neither `predicted` nor `right`
    assert s["last"]["audience"] == {"predicted": 2, "right": 1, "anonymous": 1}
    assert GAME.view(s, AUDIENCE)["last"]["audience"] == {"predicted": 2, "right": 1, "anonymous": 1}
    s = play_turn(aud, s, 2, [("a2", "Max", 2), ("a1", "Zoe", 0)],
                  [(p, 2) for p in s["seats"] if p != active(s)][:1])
    s = play_turn(aud, s, 6, [("a2", "Max", 6)], [(p, 6) for p in s["seats"] if p != active(s)][:1])
    assert s["audience"]["rounds"] == 3
    # end the game: the outcome carries the award
    over = dict(s, phase="over")
    assert GAME.outcome(over)["audience"] == {"best": [{"name": "Max", "right": 2}], "rounds": 3,
                                              "anonymous": 1}


def test_anonymous_predictions_never_make_a_best_predictor():
    """A crowd of anonymous sockets all right is a count; the award stays the named voters'."""
    aud = Audience(GAME)
    s = new_game(4)
    crowd = [(f"c{i}", None, 4) for i in range(40)]
    s = play_turn(aud, s, 4, [("a1", "Zoe", 4), *crowd], [(p, 4) for p in s["seats"] if p != active(s)][:1])
    assert s["last"]["audience"] == {"predicted": 1, "right": 1, "anonymous": 40}
    assert list(s["audience"]["voters"]) == ["a1"]
    assert GAME.outcome(dict(s, phase="over"))["audience"] == {
        "best": [{"name": "Zoe", "right": 1}], "rounds": 1, "anonymous": 40}


def test_the_state_keeps_a_bounded_number_of_voters_as_audiences_come_and_go():
    """Only voters with a right prediction are kept, at most VOTERS_KEPT of them (the most
    right first, then the latest), however many named voters come and go."""
    from games.jinx.rules import audience as rules
    aud = Audience(GAME)
    s = new_game(4)
    s = play_turn(aud, s, 4, [("best", "Best", 4)], [(p, 4) for p in s["seats"] if p != active(s)][:1])
    for turn in range(6):
        target = 2 + turn % 3
        votes = [(f"t{turn}v{i}", f"Fan {turn} {i}", target if i % 2 else (target + 3) % 9)
                 for i in range(60)] + [("best", "Best", target)]
        s = play_turn(aud, s, target, votes, [(p, target) for p in s["seats"] if p != active(s)][:1])
        assert len(s["audience"]["voters"]) <= rules.VOTERS_KEPT
    assert all(e["right"] >= 1 for e in s["audience"]["voters"].values())
    assert GAME.outcome(dict(s, phase="over"))["audience"]["best"] == [{"name": "Best", "right": 7}]


def test_ties_share_the_award_and_nobody_right_means_no_award():
    aud = Audience(GAME)
    s = new_game(3)
    s = play_turn(aud, s, 4, [("a1", "Zoe", 5), ("a2", "Max", 1)],
                  [(p, 4) for p in s["seats"] if p != active(s)][:1])
    assert GAME.outcome(dict(s, phase="over"))["audience"] == {"best": [], "rounds": 1, "anonymous": 0}
    s = play_turn(aud, s, 3, [("a1", "zoe", 3), ("a2", "Max", 3)],
                  [(p, 3) for p in s["seats"] if p != active(s)][:1])
    assert GAME.outcome(dict(s, phase="over"))["audience"]["best"] == [
        {"name": "Max", "right": 1}, {"name": "zoe", "right": 1}]


def test_a_turn_nobody_found_still_judges_the_predictions():
    aud = Audience(GAME)
    s = clued(new_game(3), slot=8)
    aud.sync_open(s)
    aud.offer(s, "a1", "Zoe", predict(8))
    s = aud.after(s, GAME.apply(s, "bob", {"type": "pick", "slot": 0}, 0).state)
    s = aud.after(s, GAME.apply(s, "cat", {"type": "pick", "slot": 1}, 0).state)
    assert s["phase"] == "reveal" and s["last"]["finder"] is None
    assert s["audience"]["voters"]["a1"]["right"] == 1


def test_close_never_changes_its_input_and_ignores_a_stranger_ballot():
    s = clued(new_game(4), slot=2)
    s = ok(s, [p for p in s["seats"] if p != active(s)][0], {"type": "pick", "slot": 2})
    frozen = json.dumps(s, sort_keys=True)
    entries = {"a1": {"name": "Zoe", "votes": {"slot": 2}}}
    assert GAME.audience_close(s, "t7", entries) is s
    new = GAME.audience_close(s, "t1", entries)
    assert json.dumps(s, sort_keys=True) == frozen and new["audience"]["voters"]["a1"]["right"] == 1


def told_to_audience(s, aud, probe_votes):
    """Everything an audience member hears now: the audience view and actions, the TV's view
    and live summary, and the replies to a few predictions (judged, not recorded)."""
    replies = []
    for slot in probe_votes:
        v = GAME.audience_check(s, predict(slot), {})
        replies.append(v.reply if isinstance(v, Ballot) else v.code)
    return json.dumps([GAME.view(s, AUDIENCE), GAME.view(s, TABLE), GAME.audience_actions(s),
                       aud.summary(s), replies], sort_keys=True)


def assert_target_secret(s, aud):
    if s["phase"] != "race":
        return
    free = [n for n in range(9) if all(n != slot for _, slot in s["picks"])]
    seen = {told_to_audience({**s, "target": t}, aud, range(9)) for t in free}
    assert len(seen) == 1, "what the audience hears depends on the target"


VOTERS = [("a0", "Ann"), ("a1", "Bob"), ("c2", None), ("p9", "Sam")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), n=st.integers(3, 6), seed=st.integers(0, 10_000))
def test_random_games_with_an_audience(data, n, seed):
    aud = Audience(GAME)
    right: dict = {}
    rounds = 0
    predictions: dict = {}
    for before, move, result, now in random_game(data, n, seed, pick_seconds=5):
        aud.sync_open(before)
        assert_target_secret(before, aud)
        if GAME.audience_ballot(before) and data.draw(st.booleans(), label="audience acts"):
            voter, name = data.draw(st.sampled_from(VOTERS), label="voter")
            slot = data.draw(st.integers(-1, 9), label="slot")
            verdict = aud.offer(before, voter, name, predict(slot))
            if isinstance(verdict, Ballot):
                assert voter not in predictions and verdict.reply == {"slot": slot}
                predictions[voter] = slot
            else:
                assert verdict.code in ("bad_slot", "finger_there", "already_predicted")
        after = aud.after(before, result.state)
        for e in result.events:
            if e["type"] == "turn_ended":
                rounds += 1
                for voter, slot in predictions.items():
                    name = dict(VOTERS)[voter]
                    if name is not None:
                        right.setdefault(voter, 0)
                        right[voter] += slot == e["target"]
                predictions = {}
        if after is not result.state:      # the platform stores only the folded state
            result.state.clear()
            result.state.update(after)
    s = after
    assert GAME.outcome(s) is not None
    top = max(right.values(), default=0)
    best = sorted((dict(VOTERS)[v] for v, r in right.items() if top and r == top), key=str.casefold)
    got = GAME.outcome(s)["audience"]
    assert [b["name"] for b in got["best"]] == best and got["rounds"] == rounds
    assert all(b["right"] == top for b in got["best"])
