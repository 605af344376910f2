"""Random legal games of klepka from random seeds and table sizes (fake dictionary)."""
import json
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from klepka_helpers import game, new_state
from klepka_play import check_invariants, concrete, play, step

from games.klepka.rules.game import ACTIONS
from partyhub.gamekit import Accepted, Rejected, clean_action, evolve

G = game()
SETTINGS = settings(max_examples=10, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6),
       x2=st.booleans(), no_repeat=st.booleans(), reveal=st.sampled_from([0, 3]))
def test_random_games_conserve_cards_keep_secrets_and_end(seed, players, x2, no_repeat, reveal):
    seats = [f"p{i}" for i in range(players)]
    s = new_state(G, seats, seed, table="6x8", one_colour_x2=x2, no_repeat=no_repeat,
                  reveal_seconds=reveal)
    check_invariants(G, s)
    s = play(G, s, random.Random(seed))
    out = G.outcome(s)
    assert set(out["scores"]) == set(seats) and out["winners"]
    assert out["scores"] == {p: s["points"][p] + len(s["hands"][p]) for p in seats}
    if s["end"] != "slava":
        assert max(out["scores"].values()) == out["scores"][out["winners"][0]]
    assert all(not G.actions(s, p) for p in seats)


JUNK = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["word", "flip", "chaos", "exchange",
                                                    "words_done", "nope", ""])},
                          optional={"card": st.one_of(st.none(), st.text(max_size=5),
                                                      st.integers(), st.just("t999")),
                                    "cards": st.one_of(st.none(), st.lists(st.text(max_size=4),
                                                                           max_size=4)),
                                    "wild": st.one_of(st.none(), st.just({"card": "c1"})),
                                    "give": st.text(max_size=4), "take": st.text(max_size=4)}),
    st.none(), st.integers(), st.just({}))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), junk=JUNK,
       who=st.integers(0, 3))
@example(seed=1871, steps=58, junk={"type": "words_done", "card": None}, who=1)   # found 2026-12-02
def test_every_listed_action_is_accepted_and_junk_is_rejected_without_change(seed, steps, junk,
                                                                               who):
    seats = ["a", "b", "c"]
    s = new_state(G, seats, seed, table="6x8")
    rnd = random.Random(seed)
    for _ in range(steps):
        if s["phase"] == "over":
            break
        s = step(G, s, rnd, 1_000)[0].state
    seat = (seats + ["stranger"])[who]
    legal = G.actions(s, seat) if seat in seats else []
    before = evolve(s)
    result = G.apply(s, seat, junk, 2_000)
    assert s == before
    if not (isinstance(junk, dict) and junk in legal):
        if isinstance(result, Accepted):  # junk that happens to be legal must be listed
            # as the rules see it: gamekit drops the fields an action does not declare, so
            # {"type": "words_done", "card": None} is the listed {"type": "words_done"}
            seen_as = clean_action(ACTIONS, junk)
            assert seen_as in legal or (isinstance(junk, dict) and junk.get("type") == "word")
        else:
            assert isinstance(result, Rejected) and result.code and result.message
    for action in concrete(legal):
        assert isinstance(G.apply(s, seat, action, 2_000), Accepted), action
    assert s == before


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_the_state_survives_a_json_round_trip(seed, steps):
    s = new_state(G, ["a", "b"], seed, table="6x8")
    rnd = random.Random(seed)
    for _ in range(steps):
        if s["phase"] == "over":
            break
        s = step(G, s, rnd, 1_000)[0].state
    back = json.loads(json.dumps(s))
    assert back == s
    for seat in ("a", "b"):
        assert G.view(back, seat) == G.view(s, seat)
        assert G.actions(back, seat) == G.actions(s, seat)
