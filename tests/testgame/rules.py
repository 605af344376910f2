"""A test-only game that exercises the whole game interface: "Count to N".

Players take turns adding 1, 2 or 3 to a shared counter; whoever adds points scores them.
Each seat has a secret number only it may see. Any player may `say` free text at any time.
A turn timer (option) adds 1 for a player who lets it run out. `doodle` is a stream.
The audience predicts each turn's amount (`predict`): one ballot per turn, "t<total>".
"""
from partyhub.gamekit import (AUDIENCE, TABLE, Accepted, Ballot, Option, Rejected, Relay, evolve,
                              integer, is_seat, listing, rng, text)


class CountGame:
    id = "count"
    name = "Count to N"
    min_players = 1
    max_players = 16
    options = {
        "target": Option(10, min=3, max=100),
        "turn_seconds": Option(0, min=0, max=120, seconds=True),
    }
    streams = frozenset({"doodle"})
    actions_schema = {"say": {"text": text(200)}, "add": {"n": integer()},
                      "doodle": {"points": listing(1000)}}
    audience_schema = {"predict": {"n": integer()}}

    def setup(self, seats, options, seed):
        state = {"seed": seed, "seats": list(seats), "turn": 0, "total": 0,
                 "target": options["target"], "turn_seconds": options["turn_seconds"],
                 "scores": {s: 0 for s in seats}, "said": [], "doodles": 0, "due": None,
                 "audience": []}
        r = rng(state)
        state["secrets"] = {s: r.randint(1, 9) for s in seats}
        return self._arm(state, None)

    def begin(self, state, now):
        return self._arm(evolve(state), now)

    def _arm(self, state, now):
        secs = state["turn_seconds"]
        state["due"] = (now + secs * 1000) if (secs and now is not None) else None
        return state

    def apply(self, state, seat, action, now):
        kind = action.get("type")
        if kind == "say":
            text = action.get("text")
            if not isinstance(text, str) or not 1 <= len(text) <= 80:
                return Rejected("bad_text", "say needs 1 to 80 characters")
            new = evolve(state)
            new["said"] = (new["said"] + [[seat, text]])[-5:]
            return Accepted(new, [{"type": "said", "seat": seat}])
        if kind != "add":
            return Rejected("bad_action", f"unknown action {kind!r}")
        if self.outcome(state) is not None:
            return Rejected("game_over", "the game has ended")
        if state["seats"][state["turn"]] != seat:
            return Rejected("not_your_turn", "wait for your turn")
        n = action.get("n")
        if n not in (1, 2, 3) or isinstance(n, bool):
            return Rejected("bad_number", "add 1, 2 or 3")
        return Accepted(self._add(state, n, now), [{"type": "counted", "seat": seat, "n": n}])

    def _add(self, state, n, now):
        new = evolve(state)
        seat = new["seats"][new["turn"]]
        new["total"] += n
        new["scores"][seat] += n
        new["turn"] = (new["turn"] + 1) % len(new["seats"])
        if new["total"] >= new["target"]:
            new["due"] = None
            return new
        return self._arm(new, now)

    def view(self, state, viewer):
        out = {"total": state["total"], "target": state["target"],
               "turn": state["seats"][state["turn"]], "said": state["said"],
               "doodles": state["doodles"], "audience": state.get("audience", [])}
        if is_seat(viewer) and viewer in state["secrets"]:
            out["secret"] = state["secrets"][viewer]
        return out

    def actions(self, state, viewer):
        if viewer in (TABLE, AUDIENCE) or self.outcome(state) is not None:
            return []
        acts = [{"type": "say", "text": None}]
        if state["seats"][state["turn"]] == viewer:
            acts = [{"type": "add", "n": n} for n in (1, 2, 3)] + acts
        return acts

    def deadline(self, state):
        return state["due"]

    def on_deadline(self, state, now):
        return Accepted(self._add(state, 1, now), [{"type": "timed_out"}])

    def scores(self, state):
        return dict(state["scores"])

    def outcome(self, state):
        if state["total"] < state["target"]:
            return None
        best = max(state["scores"].values())
        return {"scores": dict(state["scores"]),
                "winners": [s for s, v in state["scores"].items() if v == best]}

    def stream(self, state, seat, action, now):
        points = action.get("points")
        if not isinstance(points, list) or not points or len(points) > 100:
            return Rejected("bad_points", "1 to 100 points")
        return Relay({"seat": seat, "points": points}, (TABLE,))

    def absorb(self, state, items):
        new = evolve(state)
        new["doodles"] += len(items)
        return new

    # -- the audience predicts the next amount
    def audience_ballot(self, state):
        return None if self.outcome(state) is not None else f"t{state['total']}"

    def audience_actions(self, state):
        if self.audience_ballot(state) is None:
            return []
        return [{"type": "predict", "n": n} for n in (1, 2, 3)]

    def audience_check(self, state, action, mine):
        n = action.get("n")
        if n not in (1, 2, 3) or isinstance(n, bool):
            return Rejected("bad_number", "predict 1, 2 or 3")
        return Ballot("n", n, {"n": n, "changed": "n" in mine})

    def audience_summary(self, state, entries):
        return {"voters": len(entries)}      # no counts per amount while the turn runs

    def audience_close(self, state, ballot, entries):
        new = evolve(state)
        before = int(ballot[1:])
        n = new["total"] - before
        votes = {}
        for e in entries.values():
            key = str(e["votes"].get("n"))
            votes[key] = votes.get(key, 0) + 1
        new.setdefault("audience", []).append(
            {"ballot": ballot, "n": n, "votes": votes, "voters": len(entries),
             "right": sorted(e["name"] or "" for e in entries.values() if e["votes"].get("n") == n)})
        return new


GAME = CountGame()
