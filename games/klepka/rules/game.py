"""klepka: the Ukrainian letter memory and word game (rules/klepka.txt), as a gamekit game."""
from __future__ import annotations

from partyhub.gamekit import (Accepted, Option, Rejected, evolve, listing, paced, record, rng,
                              string)

from . import anytime, play, views
from .cards import TABLE_CHOICES, TABLES, build_deck
from .table import holds, letters_of, next_turn, seat_now

TURN_ACTIONS = {"word": play.make_word, "words_done": play.words_done, "flip": play.flip}
ANYTIME_ACTIONS = {"chaos": anytime.chaos, "exchange": anytime.exchange}
# The fields of each action and their size ceilings (the handlers judge the values).
CARD = string(64)
ACTIONS = {
    "word": {"cards": listing(play.MAX_WORD, CARD),
             "wild": record({"card": CARD, "letter": string(8)})},
    "words_done": {}, "flip": {"card": CARD}, "chaos": {"card": CARD},
    "exchange": {"card": CARD, "give": CARD, "take": CARD},
}


BEST_WORDS = 5
KEEPSAKE_WORDS = 300   # a game makes far fewer; the gallery stays bounded whatever happens


def best_words(state) -> list[dict]:
    """The recap: the game's best words by points (the earlier word first on a tie)."""
    ranked = sorted(enumerate(state["words"]), key=lambda iw: (-iw[1]["points"], iw[0]))
    return [{k: w[k] for k in ("seat", "word", "points", "double", "wild", "turn")}
            for _, w in ranked[:BEST_WORDS]]


class KlepkaGame:
    id = "klepka"
    name = "Klepka"
    min_players = 2
    max_players = 6
    words_language = "uk"     # Ukrainian words whatever the room's language (the lobby says so)
    minutes = 20     # 4 players, the defaults: bench/lengths.py, docs/games/klepka.md
    streams = frozenset()
    actions_schema = ACTIONS
    options = {
        "table": Option("10x10", choices=TABLE_CHOICES),
        "one_colour_x2": Option(True),
        "nouns_only": Option(False),
        "no_repeat": Option(False),
        "min_letters": Option(2, min=1, max=5),
        "reveal_seconds": Option(3, min=0, max=30, seconds=True),
    }

    def __init__(self, words=None):
        self._words = words

    @property
    def words(self):
        """The dictionary (is_word / can_make / find); the real one is loaded on first use."""
        if self._words is None:
            from games.klepka import dictionary

            self._words = dictionary.get()
        return self._words

    # -- setup -------------------------------------------------------------------------
    def setup(self, seats, options, seed) -> dict:
        opts = {name: opt.default for name, opt in self.options.items()}
        opts.update(options or {})
        rows, cols = TABLES[opts["table"]][:2]
        state = {"seed": seed, "rng": 0, "seats": list(seats), "options": opts,
                 "rows": rows, "cols": cols}
        deck = build_deck(opts["table"])
        r = rng(state)
        # Ids are random numbers, unrelated to the letter or the place a card is dealt to.
        ids = [f"c{n}" for n in r.sample(range(100, 1000), len(deck))]
        state["cards"] = {cid: card for cid, card in zip(ids, deck)}
        r.shuffle(ids)
        state.update(table=ids, up=[], pair=[], hands={s: [] for s in seats}, discard=[],
                     points={s: 0 for s in seats}, words=[], used=[], turn=0, turn_no=1,
                     made=0, made_words=[], pairs_left=0, reveal_until=None, idle=0,
                     chaos_no=0, slava=None, end=None, last=None, seq=0)
        state.update(phase="flips", pairs_left=1)  # the first player holds nothing yet
        return state

    # -- actions ---------------------------------------------------------------------
    def apply(self, state, seat, action, now):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return Rejected("bad_action", "An action needs a type.")
        if seat not in state["hands"]:
            return Rejected("not_a_player", "Only seated players play.")
        if state["phase"] == "over":
            return Rejected("game_over", "The game is over.")
        kind = action["type"]
        if kind in ANYTIME_ACTIONS:
            return ANYTIME_ACTIONS[kind](state, seat, action, now, self.words)
        if kind not in TURN_ACTIONS:
            return Rejected("bad_action", f"Unknown action {kind!r}.")
        if seat != seat_now(state):
            return Rejected("not_your_turn", "Wait for your turn.")
        return TURN_ACTIONS[kind](state, seat, action, now, self.words)

    def view(self, state, viewer) -> dict:
        return views.view(state, viewer)

    def actions(self, state, viewer) -> list[dict]:
        return views.actions(state, viewer)

    def suggest(self, state, seat) -> dict | None:
        """A concrete `word` action this seat could play now (for bots), or None."""
        if state["phase"] != "words" or seat != seat_now(state):
            return None
        opts = state["options"]
        found = self.words.find(letters_of(state, seat), bool(holds(state, seat, "polysemy")),
                                nouns_only=opts["nouns_only"], min_letters=opts["min_letters"],
                                exclude=frozenset(state["used"]) if opts["no_repeat"] else frozenset())
        if not found:
            return None
        word, wild_letter = found[0]
        free = {}
        for c in state["hands"][seat]:
            card = state["cards"][c]
            if card["kind"] == "letter":
                free.setdefault(card["letter"], []).append(c)
        wild_id = holds(state, seat, "polysemy")[0] if wild_letter else None
        cards, used_wild = [], False
        for ch in word:
            if free.get(ch):
                cards.append(free[ch].pop())
            elif wild_id and ch == wild_letter:
                cards.append(wild_id)
                used_wild = True
            else:
                return None
        wild = {"card": wild_id, "letter": wild_letter} if used_wild else None
        return {"type": "word", "cards": cards, "wild": wild}

    # -- timers --------------------------------------------------------------------------
    def deadline(self, state):
        return state["reveal_until"] if state["phase"] == "reveal" else None

    def on_deadline(self, state, now):
        due = state["reveal_until"]
        if state["phase"] != "reveal" or due is None or now < due:
            return Accepted(state, [])      # not due (never, host-paced): nothing changes
        return self._turn_down(state, now)

    def can_advance(self, state):
        """Host-paced: the reveal (the letters a timer would have turned down)."""
        return paced(state) and state["phase"] == "reveal"

    def advance(self, state, now):
        if not self.can_advance(state):
            return Rejected("wrong_phase", "No timer would end this phase.")
        return self._turn_down(state, now)

    def _turn_down(self, state, now):
        s = evolve(state)
        events: list = []
        next_turn(s, self.words, now, events)
        return Accepted(s, events)

    # -- scores ------------------------------------------------------------------------
    def scores(self, state) -> dict:
        return {seat: state["points"][seat] + len(state["hands"][seat]) for seat in state["seats"]}

    def outcome(self, state):
        if state["phase"] != "over":
            return None
        scores = self.scores(state)
        if state["slava"] is not None:
            winners = [state["slava"]]
        else:
            best = max(scores.values())
            winners = [seat for seat in state["seats"] if scores[seat] == best]
        return {"scores": scores, "winners": winners, "reason": state["end"],
                "words": {seat: state["points"][seat] for seat in state["seats"]},
                "held": {seat: len(state["hands"][seat]) for seat in state["seats"]},
                "best_words": best_words(state)}

    def keepsake(self, state):
        """The finished game's share of the room's gallery (partyhub/keepsakes/): the words
        made, in the order they were made (the first KEEPSAKE_WORDS)."""
        if state["phase"] != "over":
            return None
        return {"words": [{k: w[k] for k in ("seat", "word", "points", "double", "turn")}
                          for w in state["words"][:KEEPSAKE_WORDS]]}
