"""The association game object: options, apply, deadlines, scores and the outcome."""
from __future__ import annotations

from partyhub.gamekit import (DEFAULT_DECK, Accepted, Option, Rejected, audience_of, evolve, paced,
                              string, text)

from . import audience, turn, views

CLUE_MAX = 140


def _options() -> dict:
    # The defaults end a game (issue 27): 30 points as in the published game, or the deck
    # running out; and timers generous enough for a story, so that an absent player never
    # stalls the table (docs/games/association.md, "How long a game takes").
    timer = dict(min=0, max=600, seconds=True)
    return {
        "deck": Option(DEFAULT_DECK, deck=True),   # the platform offers its decks
        "target_score": Option(30, min=0, max=200),
        "tell_seconds": Option(90, **timer),
        "submit_seconds": Option(60, **timer),
        "vote_seconds": Option(60, **timer),
        "reveal_seconds": Option(20, min=0, max=300, seconds=True),
        "on_timeout": Option("random", choices=("random", "skip")),
    }


def _card(action: dict):
    card = action.get("card")
    return card if isinstance(card, str) else None


def _tell(state, seat, action, now):
    if seat != turn.teller(state):
        return Rejected("not_your_turn", "Only the storyteller tells a story.")
    card = _card(action)
    if card is None or card not in state["hands"][seat]:
        return Rejected("bad_card", "That card is not in your hand.")
    clue = action.get("clue")
    if clue is None:
        clue = ""
    if not isinstance(clue, str) or len(clue) > CLUE_MAX:
        return Rejected("bad_clue", f"The clue must be text of at most {CLUE_MAX} characters.")
    new = evolve(state)
    turn.play(new, seat, card)
    new.update(phase="submit", clue=" ".join(clue.split()), idle=0)
    turn.set_timer(new, "submit_seconds", now)
    events = [{"type": "story_told", "seat": seat, "clue": new["clue"]}]
    turn.advance(new, now, events)
    return Accepted(new, events)


def _submit(state, seat, action, now):
    if seat == turn.teller(state):
        return Rejected("not_your_turn", "The storyteller's card is already down.")
    if seat in state["played"]:
        return Rejected("already_submitted", "You have already put a card down.")
    if seat in state["sitting_out"]:
        return Rejected("too_late", "The time to put a card down is over.")
    card = _card(action)
    if card is None or card not in state["hands"][seat]:
        return Rejected("bad_card", "That card is not in your hand.")
    new = evolve(state)
    turn.play(new, seat, card)
    events = [{"type": "card_submitted", "seat": seat}]
    turn.advance(new, now, events)
    return Accepted(new, events)


def _vote(state, seat, action, now):
    if seat == turn.teller(state):
        return Rejected("not_your_turn", "The storyteller does not vote.")
    if seat in state["votes"]:
        return Rejected("already_voted", "You have already voted.")
    card = _card(action)
    if card is None or card not in state["table"]:
        return Rejected("bad_card", "That card is not on the table.")
    if card == state["played"].get(seat):
        return Rejected("own_card", "You cannot vote for your own card.")
    new = evolve(state)
    new["votes"][seat] = card
    events = [{"type": "card_voted", "seat": seat}]
    turn.advance(new, now, events)
    return Accepted(new, events)


def _next(state, seat, action, now):
    new = evolve(state)
    events = [{"type": "reveal_closed", "seat": seat}]
    turn.end_turn(new, now, events)
    return Accepted(new, events)


TIMED = ("tell", "submit", "vote", "reveal")    # the phases a timer option can end
HANDLERS = {"tell": ("tell", _tell), "submit": ("submit", _submit), "vote": ("vote", _vote),
            "next": ("reveal", _next)}
# The fields of each action and their size ceilings (the rules above judge the values).
CARD = string(64)
ACTIONS = {"tell": {"card": CARD, "clue": text(500)}, "submit": {"card": CARD},
           "vote": {"card": CARD}, "next": {}}


class Association(audience_of(audience)):   # the audience votes too (rules/audience.py)
    id = "association"
    name = "Association"
    min_players = 3
    max_players = 12
    streams = frozenset()
    actions_schema = ACTIONS
    minutes = 20     # 4 players, the defaults: bench/lengths.py, docs/games/association.md
    pacing = frozenset({"next"})     # ends the reveal: a person's tap (partyhub/rooms/timers/pace.py)

    def __init__(self):
        self.options = _options()

    def check(self, options, players):
        """Why these options cannot start a game of `players` players, or None.

        A deck must deal every hand and give everyone one more card: 7 cards a player.
        The platform gives the chosen deck as data in options["_deck"] (partyhub.gamekit).
        """
        deck = turn.deck_of(options)
        have, need = len(deck["cards"]), (turn.HAND + 1) * players
        if have < need:
            return (f"deck: {deck['name']} has {have} cards; "
                    f"{players} players need at least {need}")
        return None

    def setup(self, seats, options, seed):
        return turn.setup(seats, options, seed)

    def begin(self, state, now):
        """Called by the platform right after setup with the game clock: arm the first timer."""
        new = evolve(state)
        if new["phase"] == "tell":
            turn.set_timer(new, "tell_seconds", now)
        return new

    def apply(self, state, seat, action, now):
        if seat not in state["seats"]:
            return Rejected("not_a_player", "Only seated players play.")
        if not isinstance(action, dict) or action.get("type") not in HANDLERS:
            return Rejected("bad_action", "Unknown action.")
        if state["phase"] == "over":
            return Rejected("game_over", "The game is over.")
        phase, handler = HANDLERS[action["type"]]
        if state["phase"] != phase:
            return Rejected("wrong_phase", f"You can't {action['type']} now.")
        return handler(state, seat, action, now)

    def view(self, state, viewer):
        return views.view(state, viewer)

    def actions(self, state, viewer):
        return views.actions(state, viewer)

    def deadline(self, state):
        return state["deadline"]

    def on_deadline(self, state, now):
        due = state["deadline"]
        if due is None or now < due or state["phase"] == "over":
            return Accepted(state, [])
        return self._time_up(state, now)

    def can_advance(self, state):
        """Host-paced: every phase but the end is one a timer would have ended."""
        return paced(state) and state["phase"] in TIMED

    def advance(self, state, now):
        """The VIP ends the phase now, as its timer would have (turn.timeout)."""
        if not self.can_advance(state):
            return Rejected("wrong_phase", "No timer would end this phase.")
        return self._time_up(state, now)

    def _time_up(self, state, now):
        new = evolve(state)
        events: list = []
        turn.timeout(new, now, events)
        return Accepted(new, events)

    def scores(self, state):
        return dict(state["scores"])

    def outcome(self, state):
        if state["phase"] != "over":
            return None
        scores = dict(state["scores"])
        best = max(scores.values())
        return {"scores": scores, "winners": [s for s in state["seats"] if scores[s] == best],
                "reason": state["ended"], "turns": state["turn"],
                "recap": [dict(r) for r in state.get("history", [])],
                "audience": audience.results(state)}

    def keepsake(self, state):
        """The finished game's share of the room's gallery (partyhub/keepsakes/): every
        revealed turn (clue, storyteller's card, who found it) and the deck's picture address."""
        if state["phase"] != "over":
            return None
        deck = state.get("deck") or {}
        return {"turns": [dict(r) for r in state.get("history", [])], "image": deck.get("image")}
