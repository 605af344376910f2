"""The audience's part of the game interface: a ballot's verdict (Ballot), who counts in a
tally (named, anonymous), and the hooks of a game's audience module (audience_of)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Ballot:
    """An audience action accepted (audience_check): `value` under `key` in the voter's
    entries of the open ballot (key None: nothing recorded); `reply` goes to the voter."""
    key: str | None
    value: Any = None
    reply: dict = field(default_factory=dict)


def named(entries: dict) -> dict:
    """The entries of named voters (audience passes, spectator seats): the ones a game counts
    in per-card tallies and awards."""
    return {v: e for v, e in (entries or {}).items() if isinstance(e, dict) and e.get("name") is not None}


def anonymous(entries: dict) -> dict:
    """The entries of anonymous voters (name None): a count apart."""
    return {v: e for v, e in (entries or {}).items() if isinstance(e, dict) and e.get("name") is None}


def audience_of(module):
    """A base class that gives a game the audience hooks of its audience module: `SCHEMA`,
    `ballot`, `actions`, `check`, `summary` and `close` (pure functions, as above), bound as
    `audience_schema`, `audience_ballot`, ... (`class Jinx(audience_of(audience)):`)."""
    return type(f"AudienceOf({module.__name__})", (), {
        "audience_schema": module.SCHEMA,
        **{f"audience_{name}": _late(module, name)
           for name in ("ballot", "actions", "check", "summary", "close")}})


def _late(module, name: str):
    """module.name, looked up at each call (a test may replace it, as it may a method)."""
    return staticmethod(lambda *args: getattr(module, name)(*args))
