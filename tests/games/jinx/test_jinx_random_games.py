"""Random legal games from random seeds and table sizes: the invariants hold after every step."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from jinx_helpers import GAME
from jinx_play import TIMER, check_invariants, random_game
from partyhub.gamekit import Accepted, Rejected, evolve

games = dict(n=st.integers(3, 6), seed=st.integers(0, 2**32), pick_seconds=st.sampled_from([0, 2]),
             data=st.data())
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

junk = st.one_of(
    st.fixed_dictionaries({"type": st.just("pick"), "slot": st.one_of(
        st.integers(-3, 12), st.just("3"), st.none(), st.booleans(), st.floats(0, 8))}),
    st.fixed_dictionaries({"type": st.just("clue"), "text": st.one_of(
        st.integers(), st.lists(st.text(max_size=3), max_size=2), st.text(min_size=90).map(lambda t: "x" * 81 + t),
        st.just("maze"))}),
    st.fixed_dictionaries({"type": st.sampled_from(["next", "vote", "tell", "", "PICK"])}),
    st.just({}),
)


def legal(s, player, action):
    acts = GAME.actions(s, player)
    if action.get("type") == "clue":
        text = action.get("text")
        return {"type": "clue", "text": None} in acts and (
            text is None or isinstance(text, str) and len(" ".join(text.split())) <= 80)
    if action.get("type") == "pick":
        slot = action.get("slot")
        return type(slot) is int and {"type": "pick", "slot": slot} in acts
    return False


@SETTINGS
@given(**games)
def test_random_games_keep_every_card_in_exactly_one_place_and_end(n, seed, pick_seconds, data):
    last = None
    for before, move, result, now in random_game(data, n, seed, pick_seconds):
        assert isinstance(result, Accepted), (move, result)
        check_invariants(result.state)
        last = result.state
    assert last is not None and GAME.outcome(last) is not None
    outcome = GAME.outcome(last)
    best = max(outcome["scores"].values())
    assert outcome["winners"] == [p for p, v in outcome["scores"].items() if v == best]
    assert last["deck"] == [] or len(last["deck"]) < last["grid"].count(None)


@SETTINGS
@given(**games)
def test_apply_never_changes_its_input_and_a_reloaded_state_plays_the_same(n, seed, pick_seconds, data):
    for before, move, result, now in random_game(data, n, seed, pick_seconds):
        frozen = evolve(before)
        reloaded = json.loads(json.dumps(before))
        again = GAME.on_deadline(reloaded, now) if move == TIMER else GAME.apply(reloaded, *move, now)
        assert again.state == result.state
        assert again.events == result.events
        assert before == frozen


@SETTINGS
@given(**games, junk=st.lists(st.tuples(st.sampled_from(["ann", "bob", "cat", "zed"]), junk), min_size=1, max_size=4))
def test_every_listed_action_is_accepted_and_junk_is_refused_without_a_change(
        n, seed, pick_seconds, data, junk):
    for i, (before, move, result, now) in enumerate(random_game(data, n, seed, pick_seconds)):
        assert isinstance(result, Accepted)
        frozen = evolve(before)
        for player, action in junk:
            if legal(before, player, action):
                assert isinstance(GAME.apply(before, player, action, now), Accepted)
            else:
                assert isinstance(GAME.apply(before, player, action, now), Rejected), (player, action)
        assert before == frozen
