"""Jinx: the active player gives a clue for one of 9 images, the others race to put a finger on it."""
from __future__ import annotations

from partyhub.gamekit import (DEFAULT_DECK, Accepted, Option, Rejected, audience_of, evolve,
                              integer, paced, rng, text, timer_due)

from . import audience, turn
from .deck import GRID, REMOVED, faces, families_of, pair, pile_size
from .views import actions as _actions, view as _view

CLUE_MAX = 80


class Jinx(audience_of(audience)):   # the audience plays along (rules/audience.py)
    id = "jinx"
    name = "Jinx"
    min_players = min(REMOVED)
    max_players = max(REMOVED)
    streams = frozenset()
    minutes = 20     # 4 players, the defaults: bench/lengths.py, docs/games/jinx.md
    # The fields of each action and their size ceilings (apply judges the values).
    actions_schema = {"clue": {"text": text(500)}, "pick": {"slot": integer()}}
    # The audience predicts the target during the race (audience.py, issue 22).
    options = {
        "deck": Option(DEFAULT_DECK, deck=True),   # the platform offers its decks
        "first_player": Option("random", choices=("random", "first_seat")),
        "pick_seconds": Option(0, min=0, max=600, seconds=True),
        "next_turn_seconds": Option(8, min=1, max=60, seconds=True),   # the reveal is seen
    }

    # -- setup -----------------------------------------------------------------

    def setup(self, seats, options, seed) -> dict:
        seats = list(seats)
        if not self.min_players <= len(seats) <= self.max_players:
            raise ValueError(f"jinx needs {self.min_players}-{self.max_players} players")
        opts = {name: opt.default for name, opt in self.options.items()}
        opts.update(options or {})
        deck = opts.pop("_deck", None)                 # the deck as data (partyhub.gamekit)
        cards = pair(faces(deck))
        state = {"seed": seed, "rng": 0, "seats": seats, "options": opts, "cards": cards,
                 "families": families_of(deck, cards), "palettes": families_of(deck, cards, "palettes")}
        order = list(range(len(cards)))
        rng(state).shuffle(order)
        size = pile_size(len(cards), len(seats))
        first = rng(state).randrange(len(seats)) if opts["first_player"] == "random" else 0
        state.update({
            "deck": order[:size], "box": order[size:], "discard": [],
            "grid": [None] * GRID, "won": [[] for _ in seats],
            "turn": 1, "active": first, "last": None,
            "phase": "clue", "target": None, "clue": None, "picks": [], "deadline": None,
        })
        if turn.refill_into(state):
            turn.start_turn_into(state)
        else:
            state["phase"] = "over"
        return state

    # -- actions ---------------------------------------------------------------

    def apply(self, state, seat, action, now):
        me = turn.seat_of(state, seat)
        if me is None:
            return Rejected("not_playing", "You are not playing in this game.")
        if not isinstance(action, dict):
            return Rejected("bad_action", "An action is an object with a type.")
        kind = action.get("type")
        if kind == "clue":
            return self._clue(state, me, action, now)
        if kind == "pick":
            return self._pick(state, me, action, now)
        return Rejected("bad_action", f"Jinx has no action {kind!r}.")

    def _clue(self, state, me, action, now):
        if state["phase"] != "clue":
            return Rejected("wrong_phase", "The clue has already been given.")
        if me != state["active"]:
            return Rejected("not_your_turn", "Only the active player gives the clue.")
        text = action.get("text", "")
        text = "" if text is None else text
        if not isinstance(text, str):
            return Rejected("bad_clue", "The clue must be text.")
        text = " ".join(text.split())
        if len(text) > CLUE_MAX:
            return Rejected("clue_too_long", f"A clue has at most {CLUE_MAX} characters.")
        new = evolve(state)
        new["clue"] = text
        new["phase"] = "race"
        new["deadline"] = timer_due(new["options"], new["options"]["pick_seconds"], now)
        return Accepted(new, [{"type": "clue_given", "seat": state["seats"][me], "text": text}])

    def _pick(self, state, me, action, now):
        if state["phase"] != "race":
            return Rejected("wrong_phase", "Wait for the clue." if state["phase"] == "clue"
                            else "The turn is over.")
        if me == state["active"]:
            return Rejected("not_your_turn", "The active player does not pick.")
        slot = action.get("slot")
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < GRID:
            return Rejected("bad_slot", f"A slot is a whole number from 0 to {GRID - 1}.")
        if turn.picked(state, me) is not None:
            return Rejected("already_picked", "Your pick is final for this turn.")
        if turn.fingers(state)[slot] is not None:
            return Rejected("jinx", "Jinx! Another finger got there first: pick another card.",
                            public=True)
        right = slot == state["target"]
        event = {"type": "card_picked", "seat": state["seats"][me], "slot": slot,
                 "face": state["grid"][slot], "right": right}
        # The hot path: a shallow copy with a new picks list (nothing shared is changed).
        new = dict(state)
        new["picks"] = state["picks"] + [[me, slot]]
        if not right and turn.guessers_in(new):
            return Accepted(new, [event])
        new = evolve(new)
        return Accepted(new, [event] + turn.end_turn_into(new, me if right else None, now))

    # -- timers ----------------------------------------------------------------

    def deadline(self, state):
        return state["deadline"]

    def on_deadline(self, state, now):
        due = state["deadline"]
        if due is None or now < due:
            return Accepted(state, [])
        return self._time_up(state, now)

    def can_advance(self, state):
        """Host-paced: the race (a timer would have stopped it) and the reveal (a timer
        would have moved on to the next turn)."""
        return paced(state) and state["phase"] in ("race", "reveal")

    def advance(self, state, now):
        if not self.can_advance(state):
            return Rejected("wrong_phase", "No timer would end this phase.")
        return self._time_up(state, now)

    def _time_up(self, state, now):
        new = evolve(state)
        if state["phase"] == "race":
            return Accepted(new, turn.end_turn_into(new, None, now, timed_out=True))
        if state["phase"] == "reveal":
            return Accepted(new, turn.next_turn_into(new))
        return Accepted(state, [])

    # -- reading ---------------------------------------------------------------

    def view(self, state, viewer):
        return _view(state, viewer)

    def actions(self, state, viewer):
        return _actions(state, viewer)

    def scores(self, state):
        return {seat: len(won) for seat, won in zip(state["seats"], state["won"])}

    def outcome(self, state):
        if state["phase"] != "over":
            return None
        scores = self.scores(state)
        best = max(scores.values())
        return {"scores": scores, "winners": [s for s in state["seats"] if scores[s] == best],
                "cards": {seat: list(won) for seat, won in zip(state["seats"], state["won"])},
                "audience": audience.results(state)}

    def keepsake(self, state):
        """The finished game's share of the room's gallery (partyhub/keepsakes/): the cards
        each player won."""
        if state["phase"] != "over":
            return None
        return {"cards": {seat: list(won) for seat, won in zip(state["seats"], state["won"])}}


GAME = Jinx()
