"""What each viewer sees of klepka, and the legal actions now (default-deny, pure).

Collected cards lie open (as at a real table), so every viewer sees the same game view:
the only secret is the letter of a face-down card, and a face-down card appears only as
its table position (`t<n>`), never with an id or a letter.
"""
from __future__ import annotations

from partyhub.gamekit import is_seat

from .table import face_down, holds, on_table, ref, seat_now

RECENT_WORDS = 12
CARD_FIELDS = ("kind", "letter", "points", "colour")


def card_view(state: dict, cid: str) -> dict:
    card = state["cards"][cid]
    return {"id": cid, **{k: card[k] for k in CARD_FIELDS if k in card}}


def _table(state: dict) -> list:
    up = set(state["up"])
    out = []
    for slot, cid in enumerate(state["table"]):
        if cid is None:
            out.append(None)
        elif slot in up:
            out.append({"ref": ref(slot), "down": False, "card": card_view(state, cid)})
        else:
            out.append({"ref": ref(slot), "down": True})
    return out


def _player(state: dict, seat: str) -> dict:
    hand = state["hands"][seat]
    return {"hand": [card_view(state, c) for c in hand],
            "points": state["points"][seat],
            "words": sum(1 for w in state["words"] if w["seat"] == seat),
            "score": state["points"][seat] + len(hand)}


def _word(w: dict) -> dict:
    return {k: w[k] for k in ("seat", "word", "points", "double", "wild", "turn")}


def view(state: dict, viewer) -> dict:
    flips = None
    if state["phase"] == "flips":
        flips = {"pairs_left": state["pairs_left"],
                 "pending": [ref(f["slot"]) if state["table"][f["slot"]] is not None else None
                             for f in state["pair"]]}
    out = {
        "phase": state["phase"],
        "turn": seat_now(state),
        "turn_no": state["turn_no"],
        "rows": state["rows"],
        "cols": state["cols"],
        "table": _table(state),
        "on_table": len(on_table(state)),
        "face_down": len(face_down(state)),
        "players": {seat: _player(state, seat) for seat in state["seats"]},
        "order": list(state["seats"]),
        "words": [_word(w) for w in state["words"][-RECENT_WORDS:]],
        "made": state["made"],
        "flips": flips,
        "reveal_until": state["reveal_until"],
        "chaos_no": state["chaos_no"],
        "discarded": len(state["discard"]),
        "last": _last(state),
        "options": dict(state["options"]),
        "slava": state["slava"],
        "end": state["end"],
    }
    if is_seat(viewer) and viewer in state["hands"]:
        out["mine"] = [card_view(state, c) for c in state["hands"][viewer]]
    return out


def _last(state: dict):
    last = state["last"]
    if last is None:
        return None
    # A flipped card's letter is in `last` only while the card still lies face up or is held.
    if last["type"] == "card_flipped":
        slot = int(last["ref"][1:])
        if slot not in state["up"]:
            return {"type": "card_flipped", "seat": last["seat"], "ref": last["ref"],
                    "seq": last["seq"]}
    return dict(last)


def actions(state: dict, viewer) -> list[dict]:
    if not is_seat(viewer) or viewer not in state["hands"] or state["phase"] == "over":
        return []
    out: list[dict] = []
    if viewer == seat_now(state):
        if state["phase"] == "words":
            out.append({"type": "word", "cards": None, "wild": None})
            out.append({"type": "words_done"})
        elif state["phase"] == "flips":
            out.extend({"type": "flip", "card": ref(slot)} for slot in face_down(state))
    if len(on_table(state)) >= 2:
        out.extend({"type": "chaos", "card": c} for c in holds(state, viewer, "chaos"))
    swaps = holds(state, viewer, "exchange")
    if swaps:
        card = swaps[0]  # exchange cards are alike: the first one stands for all of them
        give = [c for c in state["hands"][viewer] if c != card]
        take = [c for seat in state["seats"] if seat != viewer for c in state["hands"][seat]]
        out.extend({"type": "exchange", "card": card, "give": g, "take": t}
                   for g in give for t in take)
    return out
