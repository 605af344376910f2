"""Prize cards played at any moment, also during another player's turn: chaos and exchange."""
from __future__ import annotations

from partyhub.gamekit import Accepted, Rejected, evolve, rng

from .table import holds, next_turn, note, on_table, owner


def chaos(state: dict, seat: str, action: dict, now: int, words):
    card = action.get("card")
    if card not in holds(state, seat, "chaos"):
        return Rejected("bad_card", "That is not a chaos card of yours.")
    slots = on_table(state)
    if len(slots) < 2:
        return Rejected("nothing_to_shuffle", "There are not two cards on the table to shuffle.")
    s = evolve(state)
    events: list = []
    s["hands"][seat].remove(card)
    s["discard"].append(card)
    # Every card still on the table goes face down and is dealt again over the same places:
    # face-down cards have no identity in any view, so nothing follows a card through this.
    ids = [s["table"][i] for i in slots]
    rng(s).shuffle(ids)
    for i, cid in zip(slots, ids):
        s["table"][i] = cid
    s["up"] = []
    s["pair"] = [f for f in s["pair"] if s["cards"][f["card"]]["kind"] != "letter"]
    s["chaos_no"] += 1
    note(s, events, {"type": "table_shuffled", "seat": seat, "card": card})
    if s["phase"] == "reveal":
        next_turn(s, words, now, events)
    return Accepted(s, events)


def exchange(state: dict, seat: str, action: dict, now: int, words):
    card, give, take = action.get("card"), action.get("give"), action.get("take")
    if card not in holds(state, seat, "exchange"):
        return Rejected("bad_card", "That is not an exchange card of yours.")
    if give == card or not isinstance(give, str) or give not in state["hands"][seat]:
        return Rejected("bad_card", "Give one of your other cards.")
    other = owner(state, take) if isinstance(take, str) else None
    if other is None or other == seat:
        return Rejected("bad_card", "Take a card another player holds.")
    s = evolve(state)
    events: list = []
    s["hands"][seat].remove(card)
    s["discard"].append(card)
    s["hands"][seat].remove(give)
    s["hands"][other].remove(take)
    s["hands"][seat].append(take)
    s["hands"][other].append(give)
    note(s, events, {"type": "cards_exchanged", "seat": seat, "with": other,
                     "card": card, "gave": give, "took": take})
    return Accepted(s, events)
