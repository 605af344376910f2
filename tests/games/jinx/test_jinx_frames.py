"""Recorded frames of whole jinx games through the real consumers: no frame to anyone but the
active player holds the target before the turn ends, and nobody ever sees a card that is still
face down (the box, the unseen deck, the other face of a card)."""
import json

import pytest

from partyhub.gamekit import AUDIENCE, TABLE
from tests.harness.recorded import play_recorded

pytestmark = pytest.mark.django_db(transaction=True)


def quoted(face):
    return json.dumps(face)          # "a017" with its quotes: never a prefix of another id


class Secrets:
    """secrets(state, viewer) for Recording.check, knowing which faces were shown by each version."""

    def __init__(self, rec):
        self.shown_by = {}            # id(state) -> faces shown up to that version
        shown = set()
        for v in sorted(rec.states):
            state = rec.states[v]
            shown |= {f for f in state["grid"] if f}
            shown |= {f for won in state["won"] for f in won}
            if state["last"]:
                shown |= set(state["last"]["grid"])
            self.shown_by[id(state)] = frozenset(shown)
        self.every_shown = shown
        self.checked_target = 0

    def __call__(self, state, viewer):
        shown = self.shown_by.get(id(state), self.every_shown)
        out = []
        # the target slot, as only the active player's view carries it
        active = state["seats"][state["active"]]
        if state["phase"] in ("clue", "race") and viewer != active:
            t = state["target"]
            out.append('"target":%d}' % t)             # how the active player's view ends
            if not _last_target_is(state, t):           # last turn's summary has "target":N,"finder"
                out.append('"target":%d,' % t)
            self.checked_target += 1
        # face-down cards: the box, the deck cards never shown so far, every face never shown
        for i in state["box"]:
            out += [quoted(f) for f in state["cards"][i]]
        for i in state["deck"]:
            out += [quoted(f) for f in state["cards"][i] if f not in shown]
        return out


def _last_target_is(state, slot):
    return state["last"] is not None and state["last"]["target"] == slot


def structural_check(rec) -> int:
    """Every game view parsed: `target` only in the active player's view, during clue/race."""
    n = 0
    last_state = None
    for viewer, version, text in rec.frames:
        frame = json.loads(text)
        if frame["t"] != "view" or not frame["d"]["game"]:
            continue
        state = rec.states.get(version, last_state)
        last_state = state
        game = frame["d"]["game"]
        active = game["active"]
        if viewer == active and game["phase"] in ("clue", "race") and frame["d"]["you"]["role"] == "player":
            assert game["target"] == state["target"]
        else:
            assert "target" not in game, f"{viewer} got the target in v{version}"
        assert set(game) <= {"phase", "turn", "active", "guessers", "grid", "fingers", "clue", "out",
                             "won", "deck", "last", "me", "target"}
        n += 1
    return n


@pytest.mark.parametrize("players,seed", [(4, 3), (5, 11)])
async def test_whole_games_leak_no_target_and_no_face_down_card(players, seed):
    rec = await play_recorded("jinx", players, {"first_player": "random", "next_turn_seconds": 1},
                              seed=seed, reconnect_every=9)
    assert rec.log["events"][-1]["type"] == "game_ended"
    assert any(e["type"] == "turn_ended" for e in rec.log["events"])
    secrets = Secrets(rec)
    checked = rec.check(secrets)
    views = structural_check(rec)
    viewers = {v for v, _, _ in rec.frames}
    assert TABLE in viewers and AUDIENCE in viewers and len(viewers) == players + 2
    # the deal is random (the room draws the seed), so the game length varies
    assert checked > 200 and views > 200 and rec.reconnects >= 3
    assert secrets.checked_target > 40
    print(f"jinx {players}p: {checked} frames checked ({views} views parsed), "
          f"{rec.actions} actions, {rec.reconnects} reconnects, {len(rec.log['events'])} events")


async def test_the_check_catches_a_planted_target_leak(monkeypatch):
    from games.jinx.rules import game as jinx_game
    real = jinx_game._view

    def leaky(state, viewer):
        out = real(state, viewer)
        if state["phase"] in ("clue", "race"):
            out["target"] = state["target"]       # everyone gets the target: a leak
        return out

    monkeypatch.setattr(jinx_game, "_view", leaky)
    rec = await play_recorded("jinx", 3, {}, seed=5, reconnect_every=0, max_steps=12)
    with pytest.raises(AssertionError, match="target"):
        rec.check(Secrets(rec))
    with pytest.raises(AssertionError, match="target"):
        structural_check(rec)


async def test_the_check_catches_a_planted_face_down_card(monkeypatch):
    from games.jinx.rules import game as jinx_game
    real = jinx_game._view

    def leaky(state, viewer):
        out = real(state, viewer)
        out["next"] = state["cards"][state["deck"][0]]     # the top of the deck: a leak
        return out

    monkeypatch.setattr(jinx_game, "_view", leaky)
    rec = await play_recorded("jinx", 3, {}, seed=6, reconnect_every=0, max_steps=6)
    with pytest.raises(AssertionError, match="saw"):
        rec.check(Secrets(rec))


async def test_audience_sockets_predicting_through_a_whole_game_never_see_the_target():
    """Issue 22: the anonymous audience, an audience pass and a spectator seat predict through
    a whole game; none of their frames holds the target before the turn ends (the reply to a
    prediction never says right or wrong) or a face-down card, and only the TV gets `tally`."""
    rec = await play_recorded("jinx", 4, {"first_player": "random", "next_turn_seconds": 1},
                              seed=23, reconnect_every=9, audience=True, audience_rate=0.5)
    assert rec.log["events"][-1]["type"] == "game_ended"
    assert sum(rec.audience_actions.values()) > 10, rec.audience_actions
    secrets = Secrets(rec)
    checked = rec.check(secrets)
    structural_check(rec)
    outsiders = {AUDIENCE, "@audience-pass", rec.spectator}
    kinds = {}
    for viewer, _, text in rec.frames:
        f = json.loads(text)
        kinds.setdefault(viewer, set()).add(f["t"])
        if f["t"] == "tally":
            assert viewer == TABLE, f"{viewer} got {text}"
            assert set(f["d"]["summary"]) <= {"predicted"}, f
        if viewer in outsiders and f["t"] == "mine":
            assert set(f["d"]["reply"]) <= {"slot"} and set(f["d"]["votes"]) <= {"slot"}, f
    assert "tally" in kinds[TABLE]
    assert all("mine" in kinds[v] for v in outsiders), kinds
    print(f"jinx audience: {checked} frames checked, audience actions {rec.audience_actions}")
