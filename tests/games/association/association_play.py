"""Random legal games for the property tests: a step picks a random listed action (or lets the
timer fall due), and the checks compare the state with an independent reading of the rules."""
import random

from partyhub.gamekit import AUDIENCE, TABLE, Accepted, Rejected, evolve

from association_helpers import GAME, all_cards, new_game

VIEWERS_EXTRA = (TABLE, AUDIENCE)


def random_game(r: random.Random):
    players = r.choice([3, 3, 4, 5, 6, 8, 12])
    timed = r.random() < 0.5
    options = dict(
        target_score=r.choice([0, 0, 0, 5, 12]),
        tell_seconds=r.choice([0, 20]) if timed else 0,
        submit_seconds=r.choice([0, 20]) if timed else 0,
        vote_seconds=r.choice([0, 20]) if timed else 0,
        reveal_seconds=r.choice([0, 5]) if timed else 0,
        on_timeout=r.choice(["random", "skip"]),
    )
    s = new_game(players, seed=r.randrange(10**9), **options)
    keep = r.choice([0, 5, 20, 1000])       # a shorter draw pile makes shorter games
    s = dict(s, out=s["out"] + s["draw"][keep:], draw=s["draw"][:keep])
    return s, r.random() < 0.15 if timed else False


def expected_gains(last: dict, seats: list) -> dict:
    """Scoring read straight from rules/association.txt, from the reveal's public record."""
    gain = {s: 0 for s in seats}
    if last["case"] == "void":
        return gain
    teller = last["storyteller"]
    story = next(c for c in last["cards"] if c["card"] == last["story_card"])
    finders = story["voters"]
    if len(finders) == len(seats) - 1:
        return {**gain, **{s: 3 for s in finders}}
    for c in last["cards"]:        # a vote on a card is a point for its owner...
        if finders or c["owner"] != teller:
            gain[c["owner"]] += len(c["voters"])
    if finders:                     # ...and when some (not all) found it, three for each of them
        gain[teller] += 3
        for s in finders:
            gain[s] += 3
    return gain


def step(s, r: random.Random, now: int, lazy: bool):
    """One move of a random table; returns (new state, now, what happened)."""
    moves = [(seat, a) for seat in s["seats"] for a in GAME.actions(s, seat)]
    due = GAME.deadline(s)
    if due is not None and (not moves or (lazy and r.random() < 0.3)):
        now = max(now, due) + r.randrange(0, 3000)
        res = GAME.on_deadline(s, now)
        assert isinstance(res, Accepted)
        return res.state, now, ("deadline",)
    assert moves, f"stalled in {s['phase']}"
    seat, action = r.choice(moves)
    if action.get("clue", "") is None:
        action = dict(action, clue=r.choice(["", "moon", "a long way home"]))
    now += r.randrange(0, 5000)
    res = GAME.apply(s, seat, action, now)
    assert isinstance(res, Accepted), (seat, action, res)
    return res.state, now, (seat, action)


def junk(s, r: random.Random):
    """An action some seat may not take now (checked against actions())."""
    seat = r.choice(s["seats"] + ["@table", "nobody"])
    cards = sorted(all_cards(s))
    kind = r.choice(["tell", "submit", "vote", "next", "dance", None])
    action = {"type": kind, "card": r.choice(cards + [None, 7, "zz"]), "clue": r.choice(["x", None, 5])}
    listed = GAME.actions(s, seat) if seat in s["seats"] else []
    same = [a for a in listed if a["type"] == kind and a.get("card", action["card"]) == action["card"]]
    if same and (kind != "tell" or action["clue"] in ("x", None)):
        return None
    return seat, action


def check_junk_refused(s, r, now):
    for _ in range(3):
        j = junk(s, r)
        if j is None:
            continue
        before = evolve(s)   # compared after with ==: a quarter of two sorted dumps' CPU
        res = GAME.apply(s, j[0], j[1], now)
        assert isinstance(res, Rejected), (j, res)
        assert res.code and s == before
