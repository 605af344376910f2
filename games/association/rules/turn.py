"""A turn of association: tell -> submit -> vote -> reveal, scoring, and the end of the game."""
from __future__ import annotations

from partyhub.gamekit import DEFAULT_DECK, PACED, rng, timer_due

HAND = 6


def deck_of(options: dict) -> dict:
    """The deck the platform resolved into the options; without one there are no cards."""
    deck = options.get("_deck")
    if deck is None:
        name = options.get("deck", DEFAULT_DECK)
        return {"id": name, "name": name, "image": None, "cards": []}
    return deck


def setup(seats: list, options: dict, seed: int) -> dict:
    deck = deck_of(options)
    if not deck["cards"]:
        raise ValueError("association deals from options['_deck'], which the platform resolves")
    state = {
        "seed": seed, "rng": 0, "seats": list(seats),
        "options": {k: v for k, v in options.items() if not k.startswith("_") or k == PACED},
        "deck": {"name": deck["id"], "image": deck["image"]},
        "draw": [], "hands": {s: [] for s in seats}, "out": [],
        "phase": "tell", "turn": 0, "teller": 0, "clue": None,
        "played": {}, "table": [], "votes": {}, "scores": {s: 0 for s in seats},
        "last": None, "deadline": None, "idle": 0, "ended": None,
        "sitting_out": [], "history": [],
        "families": {c: f for c, f in (deck.get("families") or {}).items() if f},
    }
    pile = list(deck["cards"])
    r = rng(state)
    r.shuffle(pile)
    state["draw"] = pile
    for _ in range(HAND):
        for s in seats:
            draw_for(state, s)
    state["teller"] = rng(state).randrange(len(seats))
    start_tell(state, None)
    return state


def draw_for(state: dict, seat: str) -> None:
    """Give `seat` a card from the top of the draw pile (its end) whose scene family no card
    of its hand has, preferring a family fewer other hands hold (so a table of cards, one from
    each hand, repeats a family as rarely as the deck allows); the top card when the deck
    tells no families (an uploaded deck); none when every card left would repeat one."""
    pile, fam = state["draw"], state.get("families") or {}
    if not pile:
        return
    pick = len(pile) - 1
    if fam:
        hand = state["hands"][seat]
        have = {fam.get(c) for c in hand}
        held: dict = {}
        for s, cards in state["hands"].items():
            if s != seat:
                for c in cards:
                    held[fam.get(c)] = held.get(fam.get(c), 0) + 1
        best = None
        for i in range(len(pile) - 1, -1, -1):
            f = fam.get(pile[i])
            if f is not None and f in have:
                continue
            score = held.get(f, 0) if f is not None else 0
            if best is None or score < best[0]:
                best = (score, i)
                if score == 0:
                    break
        if best is None:
            return                # every card left repeats a family of the hand: it stays short
        pick = best[1]
    state["hands"][seat].append(pile.pop(pick))


def teller(state: dict) -> str:
    return state["seats"][state["teller"]]


def others(state: dict) -> list:
    return [s for s in state["seats"] if s != teller(state)]


def set_timer(state: dict, option: str, now: int | None) -> None:
    """Arm the phase's timer from `now`; setup has no clock (now=None): `begin` arms it.
    A host-paced game arms none."""
    state["deadline"] = timer_due(state["options"], state["options"].get(option, 0), now)


def start_tell(state: dict, now: int | None) -> None:
    state.update(phase="tell", turn=state["turn"] + 1, clue=None, played={}, table=[], votes={},
                 sitting_out=[])
    set_timer(state, "tell_seconds", now)


def submitters(state: dict) -> list:
    """Who still has to put a card down this turn."""
    return [s for s in others(state)
            if s not in state["played"] and s not in state["sitting_out"] and state["hands"][s]]


def voters(state: dict) -> list:
    """Who still has to vote: every non-storyteller with a table card that is not their own."""
    out = []
    for s in others(state):
        own = state["played"].get(s)
        if s not in state["votes"] and any(c != own for c in state["table"]):
            out.append(s)
    return out


def play(state: dict, seat: str, card: str) -> None:
    state["hands"][seat].remove(card)
    state["played"][seat] = card


def advance(state: dict, now: int, events: list) -> None:
    """Move on when the current phase has nothing left to wait for."""
    if state["phase"] == "submit" and not submitters(state):
        if len(state["played"]) < 2:
            reveal(state, now, events)
            return
        table = sorted(state["played"].values())
        rng(state).shuffle(table)
        state.update(phase="vote", table=table)
        set_timer(state, "vote_seconds", now)
        events.append({"type": "cards_shown", "count": len(table)})
    if state["phase"] == "vote" and not voters(state):
        reveal(state, now, events)


def gains(state: dict) -> tuple[str, dict]:
    """The scoring case and each seat's points for this turn (rules/association.txt)."""
    told = teller(state)
    story = state["played"][told]
    gain = {s: 0 for s in state["seats"]}
    if len(state["played"]) < 2:
        return "void", gain
    guessers = [s for s, c in state["votes"].items() if c == story]
    if len(guessers) == len(others(state)):
        for s in guessers:
            gain[s] = 3
        return "all", gain
    owner = {c: s for s, c in state["played"].items()}
    case = "none" if not guessers else "some"
    if guessers:
        gain[told] += 3
        for s in guessers:
            gain[s] += 3
    for s, c in state["votes"].items():
        if c != story:
            gain[owner[c]] += 1
    if case == "some":
        gain[told] += len(guessers)
    return case, gain


def reveal(state: dict, now: int, events: list) -> None:
    told = teller(state)
    case, gain = gains(state)
    for s, g in gain.items():
        state["scores"][s] += g
    order = state["table"] or sorted(state["played"].values())
    owner = {c: s for s, c in state["played"].items()}
    state["last"] = {
        "turn": state["turn"], "storyteller": told, "clue": state["clue"],
        "story_card": state["played"][told], "case": case,
        "cards": [{"card": c, "owner": owner[c],
                   "voters": [s for s in state["seats"] if state["votes"].get(s) == c]}
                  for c in order],
        "gains": gain, "scores": dict(state["scores"]),
    }
    state.setdefault("history", []).append(recap(state["last"]))
    state.update(phase="reveal", table=order)
    set_timer(state, "reveal_seconds", now)
    events.append({"type": "turn_scored", "storyteller": told, "story_card": state["played"][told],
                   "case": case, "gains": gain})


def recap(last: dict) -> dict:
    """A revealed turn for the results screen: the clue, the storyteller's card, who found it
    and who was fooled by whose card. Only what the reveal already showed everyone."""
    story = next(c for c in last["cards"] if c["card"] == last["story_card"])
    return {"turn": last["turn"], "storyteller": last["storyteller"], "clue": last["clue"],
            "story_card": last["story_card"], "case": last["case"], "found": list(story["voters"]),
            "fooled": [{"voter": v, "by": c["owner"], "card": c["card"]}
                       for c in last["cards"] if c["card"] != last["story_card"] for v in c["voters"]]}


def end_turn(state: dict, now: int, events: list, told: bool = True) -> None:
    """Played cards leave the game, hands are refilled, the role passes on (or the game ends)."""
    if told:
        state["out"].extend(state["table"])
        start = state["teller"]
        n = len(state["seats"])
        for k in range(1, n + 1):
            seat = state["seats"][(start + k) % n]
            if len(state["hands"][seat]) < HAND:
                draw_for(state, seat)
    state.update(played={}, table=[], votes={}, sitting_out=[])
    target = state["options"].get("target_score", 0)
    state["teller"] = (state["teller"] + 1) % len(state["seats"])
    if target and max(state["scores"].values()) >= target:
        finish(state, "target_score", events)
    elif state["idle"] >= len(state["seats"]):
        finish(state, "nobody_told", events)
    elif not state["hands"][teller(state)]:
        finish(state, "out_of_cards", events)
    else:
        start_tell(state, now)


def finish(state: dict, reason: str, events: list) -> None:
    state.update(phase="over", ended=reason, deadline=None, clue=None)
    events.append({"type": "game_ended", "reason": reason, "scores": dict(state["scores"])})


def timeout(state: dict, now: int, events: list) -> None:
    """The current phase's timer fell due: the table moves on without the missing players."""
    phase = state["phase"]
    if phase == "tell":
        state["idle"] += 1
        events.append({"type": "storyteller_skipped", "seat": teller(state)})
        end_turn(state, now, events, told=False)
    elif phase == "submit":
        r = rng(state)
        for seat in submitters(state):
            if state["options"].get("on_timeout") == "random":
                play(state, seat, r.choice(sorted(state["hands"][seat])))
                events.append({"type": "card_submitted", "seat": seat, "auto": True})
            else:
                state["sitting_out"].append(seat)
                events.append({"type": "submit_skipped", "seat": seat})
        advance(state, now, events)
    elif phase == "vote":
        for seat in voters(state):
            events.append({"type": "vote_skipped", "seat": seat})
        reveal(state, now, events)
    elif phase == "reveal":
        end_turn(state, now, events)

