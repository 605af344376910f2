"""Sketch's rules object: options, setup, the round clock and the action dispatch."""
from __future__ import annotations

from partyhub.gamekit import Accepted, Option, Rejected, audience_of, paced, rng, timer_due

from . import audience, drawing, guessing, state as st
from .constants import BOARDS, DIFFICULTIES, LANGUAGES, ROUNDS
from .progress import progress as live_progress
from .views import view as build_view
from .words import deal


class Sketch(audience_of(audience)):   # the audience plays along (rules/audience.py)
    id = "sketch"
    name = "Sketch"
    min_players = 3
    max_players = 10          # the box plays 3-8; 9-10 fit on the TV too (see the docs)
    minutes = 16     # six rounds of the default 150 s and the results: docs/games/sketch.md
    options = {
        "round_seconds": Option(150, min=5, max=600, seconds=True),
        "tie_window_ms": Option(1000, min=0, max=5000),
        "difficulty": Option("easy", choices=DIFFICULTIES),
        "language": Option("en", choices=LANGUAGES),
        "words": Option("", max=20000, text=True),
    }
    streams = drawing.STREAMS
    # Drawings go to each connection once, by content hash (partyhub/blobs.py): a guess's
    # view then names the boards' drawings instead of carrying them again.
    blobs = frozenset({"strokes"})
    actions_schema = {**drawing.ACTIONS, **guessing.ACTIONS}
    # The audience guesses the drawings for glory (audience.py, issue 22).

    def setup(self, seats, options, seed) -> dict:
        state = {
            "seed": seed, "rng": 0, "seats": list(seats), "options": dict(options),
            "phase": "drawing", "round": 1, "deadline": None,
            "boards": {s: [st.new_board() for _ in range(BOARDS)] for s in seats},
            "guesses": [], "next_guess": 1, "seq": 1,
            "last": {"type": "round_started", "round": 1, "kind": ROUNDS[0], "n": 1},
        }
        state["cards"] = deal(list(seats), state["options"], rng(state))
        state["guess_words"] = st.guess_words(state)
        return state

    def begin(self, state, now) -> dict:
        """The VIP pressed Start: the sand timer turns and the first drawing round runs
        round_seconds from `now` (the platform calls this once, right after setup). Host-paced,
        no sand runs: the VIP ends each drawing round (`advance`)."""
        return dict(state, deadline=self._sand(state, now))

    @staticmethod
    def _sand(state, now):
        return timer_due(state["options"], state["options"]["round_seconds"], now)

    # -- actions -------------------------------------------------------------------------
    def apply(self, state, seat, action, now):
        if seat not in state["seats"]:
            return Rejected("not_a_player", "Only players take part.")
        kind = action.get("type") if isinstance(action, dict) and isinstance(action.get("type"), str) else None
        if state["phase"] == "over":
            return Rejected("game_over", "The game is over.")
        if state["deadline"] is not None and now >= state["deadline"]:
            return Rejected("time_up", "The sand has run out: the next round is coming.")
        if kind in drawing.STREAMS:
            relayed = drawing.stream(state, seat, action, now)
            if isinstance(relayed, Rejected):
                return relayed
            return Accepted(drawing.absorb(state, [(seat, action)]), [])
        if kind == "draw":
            return drawing.draw(state, seat, action)
        if kind == "guess":
            return self._settled(guessing.guess(state, seat, action, now), now)
        if kind == "feedback":
            return guessing.feedback(state, seat, action)
        return Rejected("bad_action", "Unknown action.")

    def _next_round_into(self, new, start) -> list:
        if new["phase"] == "guessing":
            st.close_guessing(new)
        new["round"] += 1
        new["seq"] += 1
        if new["round"] > len(ROUNDS):
            new.update(phase="over", round=len(ROUNDS), deadline=None)
            new["last"] = {"type": "game_ended", "n": new["seq"]}
            return [{"type": "game_ended", "scores": st.scores(new), "winners": st.winners(new)}]
        kind = ROUNDS[new["round"] - 1]
        new["phase"] = kind
        new["deadline"] = self._sand(new, start)
        new["last"] = {"type": "round_started", "round": new["round"], "kind": kind,
                       "n": new["seq"]}
        return [{"type": "round_started", "round": new["round"], "kind": kind}] + self._done(new, start)

    def _done(self, new, now) -> list:
        """Host-paced, a guessing round with no board left to guess is over: at once when
        nothing was drawn, else when the tie window of the last win closes (a short timer,
        so that a correct guess "at the same time" still wins)."""
        if not paced(new) or new["phase"] != "guessing" or st.open_boards(new):
            return []
        won = [b["won_at"] for boards in new["boards"].values() for b in boards
               if b["won_at"] is not None]
        closes = max(won) + new["options"]["tie_window_ms"] if won else now
        if closes > now:
            new["deadline"] = closes
            return []
        return self._next_round_into(new, now)

    def _settled(self, result, now):
        """An accepted guess, with the round ended if it left nothing to guess (host-paced)."""
        if not isinstance(result, Accepted) or not paced(result.state):
            return result
        return Accepted(result.state, result.events + self._done(result.state, now))

    def stream(self, state, seat, action, now):
        return drawing.stream(state, seat, action, now)

    def stream_many(self, state, items, now):
        return drawing.stream_many(state, items, now)

    def absorb(self, state, items):
        return drawing.absorb(state, items)

    def progress(self, state):
        """The drawing round's public progress (rules/progress.py): the platform sends it to
        the TV as strokes come in, throttled (partyhub/rooms/relay/progress.py)."""
        return live_progress(state)

    def actions(self, state, viewer) -> list[dict]:
        if viewer not in state["seats"] or state["phase"] == "over":
            return []
        if state["phase"] == "drawing":
            return drawing.draw_actions(state, viewer)
        return guessing.guess_actions(state, viewer) + guessing.feedback_actions(state, viewer)

    # -- time ----------------------------------------------------------------------------
    def deadline(self, state):
        return state["deadline"]

    def on_deadline(self, state, now):
        """The sand ran out: the next round starts at once and runs round_seconds from `now`
        (the due time when on time; a late timekeeper never shortens a round); after the
        sixth round the game is over. Called early, it changes nothing."""
        due = state["deadline"]
        if due is None or now < due:
            return Accepted(state, [])
        new = st.fork(state)
        return Accepted(new, self._next_round_into(new, now))

    def can_advance(self, state):
        """Host-paced: every round (the sand would have ended it)."""
        return paced(state) and state["phase"] in ("drawing", "guessing")

    def advance(self, state, now):
        """The VIP ends the round now: the next one starts (after the sixth the game ends)."""
        if not self.can_advance(state):
            return Rejected("wrong_phase", "No round is running.")
        new = st.fork(state)
        return Accepted(new, self._next_round_into(new, now))

    # -- reading -------------------------------------------------------------------------
    def view(self, state, viewer):
        return build_view(state, viewer)

    def scores(self, state):
        return st.scores(state)

    def outcome(self, state):
        if state["phase"] != "over":
            return None
        return {"scores": st.scores(state), "winners": st.winners(state),
                "boards_left": {s: st.own_left(state, s) for s in state["seats"]},
                "won": {s: st.won_count(state, s) for s in state["seats"]},
                "audience": audience.results(state)}

    def keepsake(self, state):
        """The finished game's share of the room's gallery (partyhub/keepsakes/): every board
        that got a word, with its drawer, who won it and its strokes. Nothing before the end."""
        if state["phase"] != "over":
            return None
        return {"drawings": [{"player": owner, "board": i, "word": b["word"],
                              "won_by": list(b["won_by"]), "strokes": b["strokes"]}
                             for owner in state["seats"]
                             for i, b in enumerate(state["boards"][owner]) if b["word"] is not None]}


GAME = Sketch()
