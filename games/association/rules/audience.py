"""The audience plays along (issue 22): in each turn's vote phase the audience votes for the
table card it thinks is the storyteller's. Pure; the platform keeps the tally (no state change
per vote) and folds the closed ballot in once, when the vote phase ends (`close`).

Scoring never changes. What a closed ballot keeps is public from the reveal on: the turn's
`last["audience"]` (and its recap entry), and the running votes per player for the
"audience favourite" award of the outcome (`results`). Only named voters (audience passes,
spectator seats) count in the per-card votes and the award; anonymous sockets are a count
apart (`anonymous`): anyone can open hundreds of them.
"""
from __future__ import annotations

from partyhub.gamekit import Ballot, Rejected, anonymous, evolve, named, string

VOTE = "audience_vote"
KEY = "card"                                    # the one entry a voter has per ballot
SCHEMA = {VOTE: {"card": string(64)}}


def ballot(state: dict) -> str | None:
    """The ballot open now: "t<turn>" during that turn's vote phase, else None."""
    if state["phase"] != "vote" or not state["table"]:
        return None
    return f"t{state['turn']}"


def actions(state: dict) -> list[dict]:
    """Any table card may get the audience's vote (the audience owns none of them)."""
    if ballot(state) is None:
        return []
    return [{"type": VOTE, "card": c} for c in state["table"]]


def check(state: dict, action: dict, mine: dict) -> Ballot | Rejected:
    """One audience vote; a later vote replaces the voter's earlier one (same key). The reply
    echoes the card, never whether it is the storyteller's."""
    if not isinstance(action, dict) or action.get("type") != VOTE:
        return Rejected("bad_action", "Unknown audience action.")
    if ballot(state) is None:
        return Rejected("wrong_phase", "The audience votes while the players do.")
    card = action.get("card")
    if not isinstance(card, str) or card not in state["table"]:
        return Rejected("bad_card", "That card is not on the table.")
    return Ballot(KEY, card, {"card": card})


def _cards(table, entries: dict) -> list[str]:
    """Each voter's card that lies on `table`, in voter order (one per voter)."""
    table = set(table)
    out = []
    for entry in (entries or {}).values():
        votes = entry.get("votes") if isinstance(entry, dict) else None
        card = votes.get(KEY) if isinstance(votes, dict) else None
        if isinstance(card, str) and card in table:
            out.append(card)
    return out


def summary(state: dict, entries: dict) -> dict:
    """The live summary for the TV: how many named voters voted (the anonymous ones: the
    tally frame's own count), never for which card (that would point at the storyteller's
    card before the reveal)."""
    return {"voted": len(_cards(state["table"], named(entries)))}


def close(state: dict, key: str, entries: dict) -> dict:
    """Fold the closed ballot `key` ("t<turn>") into a new state. Called when the vote phase
    has ended, so the turn is revealed (`last`): the result joins that turn's `last` and its
    recap entry, and the cards' votes are added to their owners' running count. A ballot of
    another turn than the last revealed one (never in play) leaves the state as it is."""
    last = state.get("last")
    if not last or f"t{last['turn']}" != key:
        return state
    cards = [c["card"] for c in last["cards"]]
    owner = {c["card"]: c["owner"] for c in last["cards"]}
    chosen = _cards(cards, named(entries))
    votes = {c: chosen.count(c) for c in cards if chosen.count(c)}
    top = max(votes.values(), default=0)
    result = {"votes": votes, "pick": [c for c in cards if top and votes.get(c) == top],
              "voters": len(chosen), "found": votes.get(last["story_card"], 0),
              "anonymous": len(_cards(cards, anonymous(entries)))}
    new = evolve(state)
    new["last"]["audience"] = result
    for r in new.setdefault("history", []):
        if r.get("turn") == last["turn"]:
            r["audience"] = evolve(result)
    crowd = new.setdefault("audience", {})
    tally = crowd.setdefault("votes", {})
    for card, n in votes.items():
        tally[owner[card]] = tally.get(owner[card], 0) + n
    crowd["anonymous"] = crowd.get("anonymous", 0) + result["anonymous"]
    return new


def results(state: dict) -> dict:
    """The outcome's `audience`: the players whose cards drew the most named audience votes
    over the game (ties together; none when no named voter voted), each player's count, and
    the anonymous votes cast over the game (counted apart)."""
    crowd = state.get("audience") or {}
    got = crowd.get("votes", {})
    votes = {s: got.get(s, 0) for s in state["seats"]}
    top = max(votes.values(), default=0)
    return {"favourite": [s for s in state["seats"] if top and votes[s] == top], "votes": votes,
            "anonymous": crowd.get("anonymous", 0)}
