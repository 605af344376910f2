"""A bot's turn, the one loop every bot client runs: it sees a view, chooses an action among
those offered, and when the rules refuse it chooses again in the same view, never the refused
one twice; a newer view starts over. The lobby's bots (over a socket, bots/client.py), the
stand-in (inside the write path, rooms/timers/standin.py) and the crash tests' clients
(tests/reliability/crash_client.py) each feed it what they hear and send what it chooses.
"""
from __future__ import annotations

import json
import random
import uuid

from partyhub.bots import choice


class Turn:
    """What a bot knows of its seat between two frames: the newest view (and its version), the
    actions refused in it, and the action awaiting its answer (`ref`)."""

    def __init__(self, view: dict | None = None, version: int = -1):
        self.view, self.version = view, version
        self.failed: set = set()     # the offered actions (as offered_key) refused in this view
        self.acted: int | None = None   # the version it acted in, while it waits for the answer
        self.ref: str | None = None     # the id of the action awaiting its view or its refusal
        self.key: str | None = None     # that action's offered_key, for `failed`
        self.streamed: set = set()      # the drawings already sent (stream_moves)

    def seen(self, view: dict, version: int) -> bool:
        """A view arrived: a newer one replaces the old, its refusals and its wait."""
        if version <= self.version:
            return False
        self.view, self.version, self.acted, self.failed = view, version, None, set()
        return True

    def due(self) -> bool:
        """Whether there is a view it has not acted in yet."""
        return self.view is not None and self.acted != self.version

    def refused(self, ref) -> bool:
        """An error answered `ref`: if it is the answer to the action it waits on in this view,
        that action goes into `failed` and it may choose again. Only the action's own error:
        a refused stroke is answered at its room's stream tick, maybe after it."""
        if self.acted != self.version or self.key is None or ref != self.ref:
            return False
        self.failed.add(self.key)
        self.acted = None
        return True

    def strokes(self) -> list[dict]:
        """The stream actions to send now (choice.stream_moves), once: the view shows the
        lines only after its room absorbed them."""
        moves = choice.stream_moves(self.view)
        key = json.dumps([self.view["room"].get("game_no"), moves[:1]], sort_keys=True)
        if not moves or key in self.streamed:
            return []
        self.streamed.add(key)
        return moves

    def choose(self, rnd: random.Random, memory: dict | None = None, pick=None) -> dict | None:
        """The action to send now (None: nothing), marked as awaiting its answer under a new
        `ref`. `pick(view, rnd, failed)` chooses; by default choice.next_action (the game's strategy, else chance)."""
        if pick is None:
            action = choice.next_action(self.view, rnd, self.failed, memory)
        else:
            action = pick(self.view, rnd, self.failed)
        if action is not None:
            self.acted, self.ref = self.version, uuid.uuid4().hex
            self.key = choice.offered_key(self.view.get("actions", []), action)
        return action
