"""Klepka's audience watches (issue 22): the game declares no audience play, so the platform
offers the audience nothing, and an audience view is the TV's view (no hand, no `mine`) in
every phase of a game."""
import random

from klepka_helpers import game, new_state
from klepka_play import step

from partyhub.gamekit import AUDIENCE, TABLE, Accepted

G = game()
AUDIENCE_HOOKS = ("audience_schema", "audience_ballot", "audience_actions", "audience_check",
                  "audience_summary", "audience_close")


def test_klepka_declares_no_audience_play():
    assert not any(hasattr(G, name) for name in AUDIENCE_HOOKS)


def test_the_audience_sees_what_the_tv_sees_and_may_do_nothing():
    rnd = random.Random(3)
    s, now = new_state(G), 1_000
    for _ in range(300):
        if s["phase"] == "over":
            break
        assert G.view(s, AUDIENCE) == G.view(s, TABLE)
        assert "mine" not in G.view(s, AUDIENCE)
        assert G.actions(s, AUDIENCE) == []
        res, _ = step(G, s, rnd, now)
        assert isinstance(res, Accepted)
        s, now = res.state, now + 500
    assert G.view(s, AUDIENCE) == G.view(s, TABLE)
