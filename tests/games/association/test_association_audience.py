"""The audience plays along (issue 22): in each turn's vote phase the audience votes for the
card it thinks is the storyteller's. Pure-rules tests: the ballot opens and closes with the
vote phase, votes are judged, the closed ballot folds into the turn's reveal and the outcome's
"audience favourite", scoring never changes, and nothing tells the storyteller's card (or
per-card audience counts) before the reveal."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhub.gamekit import AUDIENCE, TABLE, Ballot, Rejected, clean_action, evolve

from association_helpers import GAME, new_game, others, story, tell, to_vote, vote
from association_play import random_game, step


def entry(card, name="fan"):
    return {"name": name, "votes": {"card": card}}


def cast(state, entries, voter, card, name="fan"):
    """One audience vote as the platform offers it: judged, then recorded under its key."""
    mine = (entries.get(voter) or {}).get("votes", {})
    verdict = GAME.audience_check(state, {"type": "audience_vote", "card": card}, dict(mine))
    assert isinstance(verdict, Ballot), verdict
    if verdict.key is not None:
        votes = dict(mine, **{verdict.key: verdict.value})
        entries[voter] = {"name": name, "votes": votes}
    return verdict


def fold(before, after, entries):
    """What the platform does when a rules result changes the ballot: close and fold."""
    old, new = GAME.audience_ballot(before), GAME.audience_ballot(after)
    if old is not None and old != new:
        frozen = evolve(after)
        folded = GAME.audience_close(after, old, entries)
        assert after == frozen, "audience_close mutated its input"
        return folded, {}
    return after, entries


# ---------------------------------------------------------------- the ballot

def test_the_ballot_is_open_only_in_the_vote_phase():
    s = new_game(4)
    assert GAME.audience_ballot(s) is None and GAME.audience_actions(s) == []
    s = tell(s)
    assert GAME.audience_ballot(s) is None and GAME.audience_actions(s) == []
    s = to_vote(new_game(4))
    assert GAME.audience_ballot(s) == f"t{s['turn']}"
    assert GAME.audience_actions(s) == [{"type": "audience_vote", "card": c} for c in s["table"]]


def test_the_audience_may_vote_for_any_table_card_and_change_its_mind():
    s = to_vote(new_game(4))
    entries = {}
    for card in s["table"]:          # every table card, the storyteller's too
        verdict = cast(s, entries, "a1", card, "Zoe")
        assert verdict.reply == {"card": card}
    assert entries == {"a1": entry(s["table"][-1], "Zoe")}   # the last vote counts, once


@pytest.mark.parametrize("action,code", [
    ({"type": "audience_vote", "card": "zzz"}, "bad_card"),
    ({"type": "audience_vote", "card": None}, "bad_card"),
    ({"type": "audience_vote", "card": 7}, "bad_card"),
    ({"type": "vote", "card": "a001"}, "bad_action"),
])
def test_a_wrong_audience_vote_is_refused(action, code):
    s = to_vote(new_game(4))
    res = GAME.audience_check(s, action, {})
    assert isinstance(res, Rejected) and res.code == code


def test_a_hand_card_is_no_table_card():
    s = to_vote(new_game(4))
    hand_card = s["hands"]["ann"][0]
    res = GAME.audience_check(s, {"type": "audience_vote", "card": hand_card}, {})
    assert isinstance(res, Rejected) and res.code == "bad_card"


def test_no_audience_vote_outside_the_vote_phase():
    s = tell(new_game(4))
    res = GAME.audience_check(s, {"type": "audience_vote", "card": story(s)}, {})
    assert isinstance(res, Rejected) and res.code == "wrong_phase"


def test_the_schema_cleans_an_audience_vote():
    assert clean_action(GAME.audience_schema, {"type": "audience_vote", "card": "a001", "x": 1}) \
        == {"type": "audience_vote", "card": "a001"}
    assert isinstance(clean_action(GAME.audience_schema, {"type": "audience_vote", "card": "x" * 65}),
                      Rejected)
    # the players' and the audience's action types never overlap (the platform routes by type)
    assert not set(GAME.audience_schema) & set(GAME.actions_schema)


def test_players_never_get_audience_actions():
    s = to_vote(new_game(4))
    for seat in s["seats"]:
        assert all(a["type"] != "audience_vote" for a in GAME.actions(s, seat))
    assert GAME.actions(s, AUDIENCE) == [] and GAME.actions(s, TABLE) == []


# ---------------------------------------------------------------- the fold

def play_turn(votes_for):
    """A four-player turn up to the reveal; the audience's votes come from votes_for(s)."""
    s = to_vote(new_game(4))
    entries = {}
    for i, card in enumerate(votes_for(s)):
        cast(s, entries, f"a{i}", card, f"fan {i}")
    before = s
    for seat in others(s):
        own = s["played"][seat]
        before, s = s, vote(s, seat, next(c for c in s["table"] if c != own))
    assert s["phase"] == "reveal"
    return fold(before, s, entries)[0]


def test_the_reveal_shows_the_audiences_pick():
    s = play_turn(lambda s: [story(s)] * 3 + [c for c in s["table"] if c != story(s)][:1])
    crowd = GAME.view(s, TABLE)["last"]["audience"]
    assert crowd == {"votes": {story(s): 3, [c for c in s["table"] if c != story(s)][0]: 1},
                     "pick": [story(s)], "voters": 4, "found": 3, "anonymous": 0}
    for viewer in s["seats"] + [AUDIENCE]:
        assert GAME.view(s, viewer)["last"]["audience"] == crowd
    assert GAME.outcome(s) is None


def test_a_tie_picks_every_top_card_in_table_order():
    def split(s):
        a, b = s["table"][0], s["table"][-1]
        return [a, b, b, a]
    s = play_turn(split)
    crowd = s["last"]["audience"]
    assert crowd["pick"] == [s["table"][0], s["table"][-1]] and crowd["voters"] == 4


def test_a_silent_audience_picks_nothing():
    s = play_turn(lambda s: [])
    assert s["last"]["audience"] == {"votes": {}, "pick": [], "voters": 0, "found": 0, "anonymous": 0}


def test_anonymous_voters_are_a_count_apart_and_never_pick_or_win():
    """Anyone can open hundreds of anonymous sockets: their votes are counted, never in a
    card's votes, the pick or the audience favourite."""
    s = to_vote(new_game(4))
    liar = next(c for c in s["table"] if c != story(s))
    entries = {f"n{i}": entry(story(s), f"Fan {i}") for i in range(2)}
    entries.update({f"c{i}": entry(liar, None) for i in range(50)})
    assert GAME.audience_summary(s, entries) == {"voted": 2}
    before = s
    for seat in others(s):
        own = s["played"][seat]
        before, s = s, vote(s, seat, next(c for c in s["table"] if c != own))
    s = fold(before, s, entries)[0]
    assert s["last"]["audience"] == {"votes": {story(s): 2}, "pick": [story(s)], "voters": 2,
                                     "found": 2, "anonymous": 50}
    owner = {c["card"]: c["owner"] for c in s["last"]["cards"]}
    assert s["audience"]["votes"] == {owner[story(s)]: 2} and s["audience"]["anonymous"] == 50


def test_without_a_fold_the_turn_has_no_audience_result():
    """A game with nobody watching (or one saved before this change): `audience` is null."""
    s = to_vote(new_game(3))
    for seat in others(s):
        own = s["played"][seat]
        s = vote(s, seat, next(c for c in s["table"] if c != own))
    assert GAME.view(s, TABLE)["last"]["audience"] is None
    assert "audience" not in s
    res = GAME.audience_close(s, "t99", {"x": entry(s["table"][0])})    # not this turn's
    assert res is s


def test_the_fold_never_changes_the_score():
    s_plain = to_vote(new_game(5, seed=3))
    s = s_plain
    for seat in others(s):
        own = s["played"][seat]
        s = vote(s, seat, next(c for c in s["table"] if c != own))
    folded = GAME.audience_close(s, f"t{s['turn']}", {f"v{i}": entry(s["table"][i % len(s["table"])])
                                                      for i in range(40)})
    assert folded["scores"] == s["scores"] and folded["last"]["gains"] == s["last"]["gains"]
    assert {k: v for k, v in folded.items() if k not in ("last", "history", "audience")} == \
        {k: v for k, v in s.items() if k not in ("last", "history", "audience")}


# ---------------------------------------------------------------- whole games

def play_with_audience(seed, crowd=8):
    """A random legal game with an audience of `crowd` voters, some named, voting at random in
    every vote phase (some twice), folded at every phase end as the platform does."""
    r = random.Random(seed)
    s, lazy = random_game(r)
    now, entries, seen_ballots, expected = 1_000, {}, [], {seat: 0 for seat in s["seats"]}
    expected_anonymous = 0
    for _ in range(20_000):
        if s["phase"] == "over":
            return s, seen_ballots, expected, expected_anonymous
        key = GAME.audience_ballot(s)
        if key is not None:
            if not seen_ballots or seen_ballots[-1] != key:
                seen_ballots.append(key)
            for _ in range(r.randrange(0, 3)):
                voter = f"v{r.randrange(crowd)}"
                cast(s, entries, voter, r.choice(s["table"]), voter if voter < "v4" else None)
        before = s
        s, now, _ = step(s, r, now, lazy)
        old_entries = entries
        s, entries = fold(before, s, entries)
        if entries is not old_entries:      # a ballot closed: its votes go to the cards' owners
            owner = {c["card"]: c["owner"] for c in s["last"]["cards"]}
            for e in old_entries.values():
                if e["name"] is None:       # anonymous: a count apart
                    expected_anonymous += 1
                else:
                    expected[owner[e["votes"]["card"]]] += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", range(10))
def test_a_whole_game_ends_with_the_audience_favourite(seed):
    s, ballots, expected, anonymous = play_with_audience(seed)
    assert len(ballots) == len(set(ballots)), "a ballot key came back"
    out = GAME.outcome(s)
    assert out["audience"]["votes"] == expected and out["audience"]["anonymous"] == anonymous
    top = max(expected.values())
    assert out["audience"]["favourite"] == ([p for p in s["seats"] if expected[p] == top] if top else [])
    # each revealed turn with a vote phase carries its audience result in the recap
    for r in out["recap"]:
        if "audience" in r:
            a = r["audience"]
            assert sum(a["votes"].values()) == a["voters"]
            assert a["found"] == a["votes"].get(r["story_card"], 0)
    json.dumps(out)


def test_no_audience_means_no_favourite():
    r = random.Random(2)
    s, lazy = random_game(r)
    now = 1_000
    while s["phase"] != "over":
        s, now, _ = step(s, r, now, lazy)
    assert GAME.outcome(s)["audience"] == {"favourite": [], "votes": {p: 0 for p in s["seats"]}, "anonymous": 0}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.lists(st.tuples(st.integers(0, 30), st.integers(0, 20)), max_size=80))
def test_the_fold_counts_each_voter_once(seed, casts):
    """Whatever the audience does (changing its mind included), the turn's result counts each
    voter's last vote once, its pick is the top cards, and `found` is the story card's count."""
    s = to_vote(new_game(5, seed=seed))
    entries, last_vote = {}, {}
    for voter, pick in casts:
        card = s["table"][pick % len(s["table"])]
        cast(s, entries, f"v{voter}", card)
        last_vote[f"v{voter}"] = card
    before = s
    for seat in others(s):
        own = s["played"][seat]
        before, s = s, vote(s, seat, next(c for c in s["table"] if c != own))
    s = fold(before, s, entries)[0]
    crowd = s["last"]["audience"]
    want = {}
    for card in last_vote.values():
        want[card] = want.get(card, 0) + 1
    assert crowd["votes"] == want and crowd["voters"] == len(last_vote)
    top = max(want.values(), default=0)
    assert crowd["pick"] == [c for c in s["table"] if top and want.get(c) == top]
    assert crowd["found"] == want.get(s["last"]["story_card"], 0)
    assert GAME.outcome(s) is None


# ---------------------------------------------------------------- secrecy

def quoted(card):
    return f'"{card}"'


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_nothing_tells_the_story_card_or_audience_counts_before_the_reveal(seed):
    """While the ballot is open, no view, audience action list, reply or live summary says
    which table card is the storyteller's or how many audience votes a card has."""
    r = random.Random(seed)
    s, lazy = random_game(r)
    now, entries = 1_000, {}
    for _ in range(5_000):
        if s["phase"] == "over":
            return
        if GAME.audience_ballot(s) is not None:
            table = s["table"]
            for _ in range(r.randrange(1, 4)):
                cast(s, entries, f"v{r.randrange(6)}", r.choice(table))
            summary = GAME.audience_summary(s, entries)
            text = json.dumps(summary)
            assert summary == {"voted": len(entries)}
            assert not any(quoted(c) in text for c in table)
            # the action list is the table in its (seeded, shuffled) order: no owner in it
            assert [a["card"] for a in GAME.audience_actions(s)] == table
            for viewer in [TABLE, AUDIENCE] + list(s["seats"]):
                v = GAME.view(s, viewer)
                last = v["last"]
                assert last is None or last["turn"] < s["turn"]
                assert "audience" not in {k for k in v if k != "last"}
                assert quoted(story(s)) not in json.dumps({k: x for k, x in v.items()
                                                           if k not in ("table", "hand", "mine", "my_vote")})
        before = s
        s, now, _ = step(s, r, now, lazy)
        s, entries = fold(before, s, entries)
    raise AssertionError("the game did not end")


def test_the_summary_is_only_a_count():
    s = to_vote(new_game(4))
    entries = {f"v{i}": entry(story(s) if i < 5 else s["table"][0], "Ann") for i in range(9)}
    assert GAME.audience_summary(s, entries) == {"voted": 9}
    # an entry with no vote on the table (a stale store) is not counted
    entries["junk"] = {"name": None, "votes": {"card": "nope"}}
    assert GAME.audience_summary(s, entries) == {"voted": 9}
