"""What rules return and build their states with: the viewers (TABLE, AUDIENCE), a move's
verdict (Accepted, Rejected), a stream item's (Relay), the state's randomness and copy."""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

TABLE = "@table"
AUDIENCE = "@audience"


@dataclass(frozen=True)
class Accepted:
    state: dict
    events: list = field(default_factory=list)   # [{"type": "card_voted", ...}], past tense


@dataclass(frozen=True)
class Rejected:
    code: str
    message: str = ""
    public: bool = False   # the table hears of it too (a "JINX!" collision): {"t": "notice"}


@dataclass(frozen=True)
class Relay:
    """A stream item accepted: `frame` is sent as {"t": <type>, "d": frame} to `to` viewers."""
    frame: dict
    to: tuple = (TABLE,)


def rng(state: dict) -> random.Random:
    """A random generator drawn from the state's seed; each call gives the next stream.

    Mutates state["rng"] (a counter), so call it on the new state being built.
    """
    n = state.get("rng", 0)
    state["rng"] = n + 1
    return random.Random(f"{state['seed']}:{n}")


def evolve(state: dict) -> dict:
    """A deep copy to build the next state from (rules never mutate their input). A state is
    JSON data (it is stored as JSON): its dicts and lists are copied here, several times
    faster than copy.deepcopy, which copies anything else in it."""
    return _copied(state)


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _copied(value):
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copied(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _copied(v) for v in value]
    return value if kind in _ATOMS else copy.deepcopy(value)


def is_seat(viewer) -> bool:
    return viewer not in (TABLE, AUDIENCE)
