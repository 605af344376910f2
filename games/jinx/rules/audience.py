"""The audience predicts the target while the guessers race (issue 22).

One ballot per turn, open during the race: key "slot", value a slot no finger is on yet.
A prediction is final, like a guesser's finger. Nothing said to the audience before the
reveal depends on the target: the reply repeats the slot, the live summary only counts the
voters. At the end of the race the ballot is folded into state["audience"]: the turn's named
predictions and right ones (audience passes, spectator seats), the anonymous predictions as a
count apart (anyone can open hundreds of anonymous sockets: they never count in an award),
and the named voters' running right predictions for the "best predictor" award. The state
keeps at most VOTERS_KEPT voters, and only voters with a right prediction: a game with an
audience that comes and goes keeps a bounded state (docs/games/jinx.md).
"""
from __future__ import annotations

from partyhub.gamekit import Ballot, Rejected, anonymous, integer, named

from . import turn
from .deck import GRID

SCHEMA = {"audience_predict": {"slot": integer()}}
VOTERS_KEPT = 64        # named voters whose right predictions the state keeps (the best ones)


def ballot(state: dict) -> str | None:
    return f"t{state['turn']}" if state["phase"] == "race" else None


def actions(state: dict) -> list[dict]:
    if ballot(state) is None:
        return []
    on = turn.fingers(state)
    return [{"type": "audience_predict", "slot": s} for s in range(GRID) if on[s] is None]


def check(state: dict, action: dict, mine: dict) -> Ballot | Rejected:
    if ballot(state) is None:
        return Rejected("no_ballot", "Predict while the guessers race.")
    if not isinstance(action, dict) or action.get("type") != "audience_predict":
        return Rejected("bad_action", "The audience predicts a card: audience_predict.")
    slot = action.get("slot")
    if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < GRID:
        return Rejected("bad_slot", f"A slot is a whole number from 0 to {GRID - 1}.")
    if "slot" in (mine or {}):
        return Rejected("already_predicted", "Your prediction is final for this turn.")
    if turn.fingers(state)[slot] is not None:
        return Rejected("finger_there", "A guesser's finger is on that card already.")
    return Ballot("slot", slot, {"slot": slot})


def summary(state: dict, entries: dict) -> dict:
    """How many named voters in the audience have predicted (the anonymous ones: the tally
    frame's own count): no per-slot counts (they would point at the clue's favourite, and the
    guessers can see the TV)."""
    return {"predicted": _predicted(named(entries))}


def _predicted(entries: dict) -> int:
    return sum(1 for e in entries.values() if "slot" in (e.get("votes") or {}))


def empty() -> dict:
    return {"rounds": 0, "voters": {}, "anonymous": 0}


def close(state: dict, key: str, entries: dict) -> dict:
    """The turn's ballot folded in, judged against the target of the turn it was open in
    (state["last"] once the race has ended). A new state; `state` is never changed."""
    last = state.get("last")
    if not last or f"t{last['turn']}" != key:
        return state
    target = last["target"]
    old = state.get("audience") or empty()
    voters = {v: dict(e) for v, e in old["voters"].items()}
    predicted = right = 0
    for voter, entry in named(entries).items():
        votes = entry.get("votes") or {}
        if "slot" not in votes:
            continue
        predicted += 1
        if votes["slot"] != target:
            continue
        right += 1
        was = voters.get(voter, {"right": 0})
        voters[voter] = {"name": entry["name"], "right": was["right"] + 1, "turn": last["turn"]}
    kept = sorted(voters.items(), key=lambda ve: (ve[1]["right"], ve[1].get("turn", -1)), reverse=True)
    crowd = _predicted(anonymous(entries))
    new = dict(state)
    new["last"] = dict(last, audience={"predicted": predicted, "right": right, "anonymous": crowd})
    new["audience"] = {"rounds": old["rounds"] + 1, "voters": dict(kept[:VOTERS_KEPT]),
                       "anonymous": old.get("anonymous", 0) + crowd}
    return new


def results(state: dict) -> dict:
    """{"best": the named voters with the most right predictions (at least one; ties
    together), "rounds": turns the audience could predict, "anonymous": the anonymous
    predictions over the game (counted apart)}."""
    aud = state.get("audience") or empty()
    top = max((e["right"] for e in aud["voters"].values()), default=0)
    best = sorted(({"name": e["name"], "right": e["right"]} for e in aud["voters"].values()
                   if top and e["right"] == top), key=lambda e: e["name"].casefold())
    return {"best": best, "rounds": aud["rounds"], "anonymous": aud.get("anonymous", 0)}
