"""What each viewer may see, built from scratch (default-deny), and each seat's legal actions."""
from __future__ import annotations

from partyhub.gamekit import DEFAULT_DECK, is_seat

from . import turn

SHOWN = ("vote", "reveal")     # phases in which the table cards lie face up


def view(state: dict, viewer) -> dict:
    phase = state["phase"]
    # a state saved before the deck was kept in it: the front end's default pictures
    deck = state.get("deck") or {"name": state["options"].get("deck", DEFAULT_DECK), "image": None}
    out = {
        "phase": phase,
        "turn": state["turn"],
        "storyteller": turn.teller(state) if phase != "over" else None,
        "clue": state["clue"] if phase in ("submit", "vote", "reveal") else None,
        "players": [_player(state, s) for s in state["seats"]],
        "table": list(state["table"]) if phase in SHOWN else [],
        "table_count": len(state["played"]) if phase != "over" else 0,
        "deck_count": len(state["draw"]),
        "deck": {"name": deck["name"], "image": deck["image"]},
        "target_score": state["options"].get("target_score", 0),
        "last": _copy(state["last"]),
        "ended": state["ended"],
    }
    if is_seat(viewer) and viewer in state["hands"]:
        out["hand"] = list(state["hands"][viewer])
        out["mine"] = state["played"].get(viewer) if phase != "over" else None
        out["my_vote"] = state["votes"].get(viewer) if phase in SHOWN else None
        out["sitting_out"] = viewer in state["sitting_out"]
    return out


def _player(state: dict, seat: str) -> dict:
    phase = state["phase"]
    return {
        "id": seat,
        "score": state["scores"][seat],
        "cards": len(state["hands"][seat]),
        "played": seat in state["played"] and phase != "over",
        "voted": seat in state["votes"] and phase in SHOWN,
        "sitting_out": seat in state["sitting_out"],
    }


def _copy(last):
    if last is None:
        return None
    # `audience`: the audience's votes of that turn (rules/audience.py), null until its
    # ballot is folded in (and in games without an audience vote)
    crowd = last.get("audience")
    return {**last, "cards": [dict(c, voters=list(c["voters"])) for c in last["cards"]],
            "gains": dict(last["gains"]), "scores": dict(last["scores"]),
            "audience": None if crowd is None else {**crowd, "votes": dict(crowd["votes"]),
                                                    "pick": list(crowd["pick"])}}


def actions(state: dict, viewer) -> list[dict]:
    if not is_seat(viewer) or viewer not in state["hands"]:
        return []
    phase = state["phase"]
    hand = state["hands"][viewer]
    if phase == "tell":
        if viewer != turn.teller(state):
            return []
        return [{"type": "tell", "card": c, "clue": None} for c in hand]
    if phase == "submit":
        if viewer not in turn.submitters(state):
            return []
        return [{"type": "submit", "card": c} for c in hand]
    if phase == "vote":
        if viewer not in turn.voters(state):
            return []
        own = state["played"].get(viewer)
        return [{"type": "vote", "card": c} for c in state["table"] if c != own]
    if phase == "reveal":
        return [{"type": "next"}]
    return []
