"""No view leaks a secret: hands stay private, and before the reveal nobody learns which table
card is the storyteller's or who put down which card."""
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhub.gamekit import AUDIENCE, TABLE

from association_helpers import GAME, new_game, others, story, teller, to_vote
from association_play import random_game, step

VIEWERS = (TABLE, AUDIENCE)


def quoted(card):
    return f'"{card}"'


def leaks(s, viewer):
    """Every secret the viewer's view shows, as (what, card) pairs."""
    v = GAME.view(s, viewer)
    text = json.dumps(v)
    found = []
    for seat, hand in s["hands"].items():
        if seat != viewer:
            found += [("hand", c) for c in hand if quoted(c) in text]
    found += [("draw pile", c) for c in s["draw"] if quoted(c) in text]
    if s["phase"] in ("tell", "submit", "vote"):
        without_table = json.dumps({k: x for k, x in v.items() if k not in ("table", "my_vote")})
        for seat, card in s["played"].items():
            if seat != viewer and quoted(card) in without_table:
                found.append(("played card outside the table", card))
        if s["phase"] != "vote":
            found += [("face-down card", c) for seat, c in s["played"].items()
                      if seat != viewer and quoted(c) in text]
    if viewer in VIEWERS:
        found += [("private key", k) for k in ("hand", "mine", "my_vote") if k in v]
    return found


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_no_view_ever_shows_another_hand_the_draw_pile_or_who_played_what_before_the_reveal(seed):
    r = random.Random(seed)
    s, lazy = random_game(r)
    now = 1_000
    for _ in range(5_000):
        for viewer in list(s["seats"]) + list(VIEWERS):
            assert leaks(s, viewer) == [], (viewer, s["phase"])
        if s["phase"] == "over":
            return
        s, now, _ = step(s, r, now, lazy)
    raise AssertionError("the game did not end")


def test_the_tv_sees_the_table_and_counters_but_no_hand():
    s = to_vote(new_game(4))
    v = GAME.view(s, TABLE)
    assert sorted(v["table"]) == sorted(s["played"].values())
    assert "hand" not in v and "mine" not in v
    assert [p["cards"] for p in v["players"]] == [5, 5, 5, 5]
    assert all(p["played"] for p in v["players"])
    assert GAME.actions(s, TABLE) == [] and GAME.actions(s, AUDIENCE) == []


def test_a_player_sees_their_own_hand_and_own_card_only():
    s = to_vote(new_game(4))
    b = others(s)[0]
    v = GAME.view(s, b)
    assert v["hand"] == s["hands"][b]
    assert v["mine"] == s["played"][b]
    assert GAME.view(s, teller(s))["mine"] == story(s)


def test_the_table_order_does_not_follow_the_seats():
    positions = set()
    for seed in range(12):
        s = to_vote(new_game(5, seed=seed))
        positions.add(s["table"].index(story(s)))
    assert len(positions) > 2


def test_votes_stay_hidden_until_the_reveal_then_everything_is_shown():
    s = to_vote(new_game(4))
    b, c, d = others(s)
    s = GAME.apply(s, b, {"type": "vote", "card": story(s)}, 1).state
    v = GAME.view(s, c)
    assert [p["voted"] for p in v["players"] if p["id"] == b] == [True]
    assert v["my_vote"] is None and "votes" not in v
    s = GAME.apply(s, c, {"type": "vote", "card": story(s)}, 2).state
    s = GAME.apply(s, d, {"type": "vote", "card": s["played"][b]}, 3).state
    last = GAME.view(s, TABLE)["last"]
    assert last["story_card"] == story(s) and last["storyteller"] == teller(s)
    assert {x["card"]: x["owner"] for x in last["cards"]} == {c2: o for o, c2 in s["played"].items()}
