"""Random legal play of klepka for the Hypothesis tests (fake dictionary, small table)."""
from __future__ import annotations

import json

from partyhub.gamekit import AUDIENCE, TABLE, Accepted

VIEWERS_EXTRA = (TABLE, AUDIENCE)


def concrete(actions):
    return [a for a in actions if None not in a.values()]


def step(g, s, rnd, now):
    """One random move: a word (via suggest), an action of a random seat, or the timer."""
    seats = [seat for seat in s["seats"] if concrete(g.actions(s, seat))]
    if not seats:
        assert g.deadline(s) is not None, "nobody can act and no timer runs"
        return g.on_deadline(s, max(now, g.deadline(s))), None
    current = s["seats"][s["turn"]]
    if s["phase"] == "words" and rnd.random() < 0.6:
        word = g.suggest(s, current)
        if word is not None:
            return g.apply(s, current, word, now), (current, word)
    seat = current if current in seats and rnd.random() < 0.85 else rnd.choice(seats)
    action = rnd.choice(concrete(g.actions(s, seat)))
    return g.apply(s, seat, action, now), (seat, action)


def all_ids(s):
    return sorted(s["cards"])


def check_invariants(g, s):
    placed = [c for c in s["table"] if c] + [c for h in s["hands"].values() for c in h] + s["discard"]
    assert sorted(placed) == all_ids(s), "cards are conserved"
    for seat in s["seats"]:
        assert s["points"][seat] == sum(w["points"] for w in s["words"] if w["seat"] == seat)
    assert set(s["up"]) <= {i for i, c in enumerate(s["table"]) if c}
    check_secrecy(g, s)


def check_secrecy(g, s):
    up = set(s["up"])
    hidden = [c for i, c in enumerate(s["table"]) if c and i not in up]
    # every seat's view is the same game view (hands lie open) plus its own `mine`
    for viewer in [s["seats"][s["turn"]], *VIEWERS_EXTRA]:
        view = g.view(s, viewer)
        text = json.dumps(view, ensure_ascii=False)
        for cid in hidden:
            assert f'"{cid}"' not in text, f"face-down card id {cid} leaks to {viewer}"
        for i, cell in enumerate(view["table"]):
            if cell is not None and i not in up:
                assert cell == {"ref": f"t{i}", "down": True}


def play(g, s, rnd, max_steps=4000):
    now = 1_000
    for _ in range(max_steps):
        if s["phase"] == "over":
            return s
        result, _ = step(g, s, rnd, now)
        assert isinstance(result, Accepted), result
        s = result.state
        check_invariants(g, s)
        now += 500
    raise AssertionError("the game did not end")
