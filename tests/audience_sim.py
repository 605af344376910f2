"""A pure stand-in for the platform's audience machinery (partyhub/rooms/relay/audience.py and
tallies.py), for the games' rules tests: one open ballot's entries, votes judged by the
game's `audience_check`, and the fold when `audience_ballot` changes. No Django."""
from __future__ import annotations

import json

from partyhub.gamekit import Ballot, Rejected, evolve


class Audience:
    def __init__(self, game):
        self.game = game
        self.ballot = None
        self.entries: dict = {}        # voter -> {"name", "votes": {key: value}}
        self.closed: list = []         # (ballot, entries) in closing order

    def offer(self, state, voter, name, action):
        """The verdict (Ballot | Rejected) on one audience action, recorded as the platform
        would; `state` is not changed (checked)."""
        before = evolve(state)   # compared after with ==: a quarter of two sorted dumps' CPU
        self.sync_open(state)
        key = self.game.audience_ballot(state)
        if key is None:
            return Rejected("no_ballot")
        mine = dict(self.entries.get(voter, {}).get("votes", {}))
        verdict = self.game.audience_check(state, action, mine)
        assert state == before, "audience_check changed the state"
        assert isinstance(verdict, (Ballot, Rejected)), verdict
        if isinstance(verdict, Ballot):
            json.dumps(verdict.reply)
            if verdict.key is not None:
                entry = self.entries.setdefault(voter, {"name": name, "votes": {}})
                entry["name"] = name
                entry["votes"][verdict.key] = verdict.value
        return verdict

    def sync_open(self, state):
        key = self.game.audience_ballot(state)
        if key != self.ballot:
            assert self.ballot is None, "a ballot changed without a fold"
            self.ballot, self.entries = key, {}

    def after(self, before_state, after_state):
        """The fold of the one write path: the state to store after a rules result."""
        old = self.game.audience_ballot(before_state)
        new = self.game.audience_ballot(after_state)
        if old is None or old == new:
            return after_state
        frozen = evolve(after_state)
        entries = self.entries if self.ballot == old else {}
        self.closed.append((old, entries))
        folded = self.game.audience_close(after_state, old, entries)
        assert after_state == frozen, "audience_close mutated"
        json.dumps(folded)
        self.ballot, self.entries = None, {}
        self.sync_open(folded)
        return folded

    def summary(self, state):
        return self.game.audience_summary(state, self.entries)
