"""The turn: deal the square, secret target, the race of fingers, the scoring and the refill.

Functions named `_..._into` change the fresh state they are given (already an evolve copy);
nothing here touches a state that came from the caller.
"""
from __future__ import annotations

from partyhub.gamekit import rng, timer_due

from .deck import GRID


def seat_of(state: dict, player) -> int | None:
    try:
        return state["seats"].index(player)
    except ValueError:
        return None


def fingers(state: dict) -> list:
    """Slot -> seat index of the finger on it (None when free)."""
    out = [None] * GRID
    for seat, slot in state["picks"]:
        out[slot] = seat
    return out


def picked(state: dict, seat: int) -> int | None:
    """The slot this seat's finger is on this turn, or None."""
    for s, slot in state["picks"]:
        if s == seat:
            return slot
    return None


def guessers_in(state: dict) -> list[int]:
    """Seats still racing: not the active player, not out."""
    done = {s for s, _ in state["picks"]}
    return [i for i in range(len(state["seats"])) if i != state["active"] and i not in done]


def refill_into(state: dict) -> bool:
    """Fill the empty slots from the top of the deck, each card on a random face, so that no
    two faces of the square come from one scene family (state["families"], when the deck
    tells them), and palettes differ too where a card can be found for it (state["palettes"]): a card whose faces both repeat one waits in the deck for a later turn, and
    when no card of the deck fits, one from the box takes the top card's place (only a
    six-player game near its end, with no box, may have to show a family twice).

    False (and nothing drawn) when the deck cannot complete the square.
    """
    empty = [i for i, face in enumerate(state["grid"]) if face is None]
    if len(empty) > len(state["deck"]):
        return False
    r = rng(state)
    fam, pal = state.get("families") or {}, state.get("palettes") or {}
    for slot in empty:
        shown = {fam[f] for f in state["grid"] if f in fam}
        lit = {pal[f] for f in state["grid"] if f in pal}
        at, faces = 0, state["cards"][state["deck"][0]]
        # the box only swaps with a top card nobody has seen: one a finder gave back (under
        # the deck) must not go into the box, which stays unseen (test_jinx_secrecy)
        unseen_top = state["deck"][0] not in state.get("returned", ())
        pool = state["deck"] + (state.get("box", []) if unseen_top else [])
        for wanted in ((shown, lit), (shown, set())):    # a new family and palette, else a new family
            found = _nearest(state, pool, fam, pal, *wanted)
            if found:
                at, faces = found
                break
        if at >= len(state["deck"]):      # only the box has one: it swaps with the top card
            box = state["box"]
            box[at - len(state["deck"])], state["deck"][0] = state["deck"][0], box[at - len(state["deck"])]
            at = 0
        state["deck"].pop(at)
        state["grid"][slot] = faces[r.randrange(len(faces))] if len(faces) > 1 else faces[0]
    return True


def _nearest(state, pool, fam, pal, families, palettes):
    """(index in pool, its faces that show neither a family nor a palette of those given)."""
    for i, card in enumerate(pool):
        fits = [f for f in state["cards"][card]
                if (f not in fam or fam[f] not in families) and (f not in pal or pal[f] not in palettes)]
        if fits:
            return i, fits
    return None


def start_turn_into(state: dict) -> None:
    """A new turn for state["active"]: the position card is drawn, the clue is awaited."""
    state["phase"] = "clue"
    state["target"] = rng(state).randrange(GRID)
    state["clue"] = None
    state["picks"] = []
    state["deadline"] = None


def end_turn_into(state: dict, finder: int | None, now: int, timed_out: bool = False) -> list:
    """Score the turn, clear the picked cards and show the reveal until next_turn_seconds pass
    (host-paced: until the VIP moves on).

    finder: the seat whose finger is on the target (its pick is the last of state["picks"]),
    or None when every guesser is out or the time ran out.
    """
    seats, active, target = state["seats"], state["active"], state["target"]
    grid_before = list(state["grid"])
    moves = []

    def move(face, to, source="grid"):
        moves.append({"face": face, "from": source, "to": to})

    for seat, slot in state["picks"]:
        face = grid_before[slot]
        state["grid"][slot] = None
        if slot == target:
            state["won"][seat].append(face)
            move(face, seats[seat])
        elif finder is not None:
            state["won"][active].append(face)
            move(face, seats[active])
        else:
            state["discard"].append(_card_of(state, face))
            move(face, "discard")
    if finder is None:
        face = state["grid"][target]
        state["grid"][target] = None
        state["discard"].append(_card_of(state, face))
        move(face, "discard")
        if state["won"][active]:
            face = state["won"][active].pop()
            state["deck"].append(_card_of(state, face))
            state.setdefault("returned", []).append(_card_of(state, face))
            move(face, "deck", source=seats[active])
    state["last"] = {
        "turn": state["turn"],
        "active": seats[active],
        "clue": state["clue"],
        "grid": grid_before,
        "target": target,
        "finder": None if finder is None else seats[finder],
        "picks": [{"player": seats[s], "slot": slot, "right": slot == target}
                  for s, slot in state["picks"]],
        "moves": moves,
        "timed_out": timed_out,
    }
    state["phase"] = "reveal"
    state["target"] = None
    state["clue"] = None
    state["picks"] = []
    state["deadline"] = timer_due(state["options"], state["options"]["next_turn_seconds"], now)
    return [{"type": "turn_ended", "turn": state["turn"], "active": seats[active],
             "target": target, "finder": state["last"]["finder"], "timed_out": timed_out}]


def next_turn_into(state: dict) -> list:
    """After the reveal: refill the square and pass the turn to the left, or end the game."""
    if not refill_into(state):
        state["phase"] = "over"
        state["deadline"] = None
        return [{"type": "game_ended"}]
    state["turn"] += 1
    state["active"] = (state["active"] + 1) % len(state["seats"])
    start_turn_into(state)
    return [{"type": "turn_started", "turn": state["turn"],
             "active": state["seats"][state["active"]]}]


def _card_of(state: dict, face: str) -> int:
    for i, card in enumerate(state["cards"]):
        if face in card:
            return i
    raise KeyError(face)
