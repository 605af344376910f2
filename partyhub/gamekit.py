"""The game interface: what every game's pure rules provide, and the values they return.

This module imports nothing from Django, Channels or the network, so `games/<game>/rules/`
may import it. See docs/decisions.md ("The game interface") for the reasoning.

A game is an object (usually a module-level instance of a class) with:

    id: str                      "association"
    name: str                    English display name (the front end translates by id)
    min_players, max_players: int
    options: dict[str, Option]   every option with its default and bounds
    streams: frozenset[str]      action types relayed without the room lock (sketch strokes)
    actions_schema: dict[str, dict[str, Field]]
                                 every action type (streams included) with its fields:
                                 {"tell": {"card": string(64), "clue": text(200)}, ...}.
                                 The platform cuts each action to these fields before the
                                 rules see it (`clean_action`): unknown fields are dropped,
                                 a wrong type or an oversize value is refused as bad_action,
                                 free text has its invisible controls stripped. The rules
                                 still judge the values (a card in the hand, a clue's length).

    setup(seats, options, seed) -> state
        seats: player ids in seat order; options: validated, defaults filled in, every
        `seconds` option already times the room's timer factor (`timed`: extended timers
        run twice as long); seed: int. Returns a JSON-serialisable dict.
    apply(state, seat, action, now) -> Accepted | Rejected
        seat is a player id; action is the client's `d` dict (has "type");
        now is game-clock epoch milliseconds (frozen while the room is paused).
        Never mutates `state`: an accepted action returns a new state.
    view(state, viewer) -> dict           viewer: a player id, TABLE or AUDIENCE
    actions(state, viewer) -> list[dict]  concrete legal actions; free text is None
    deadline(state) -> int | None         game-clock epoch ms of the next timer
    on_deadline(state, now) -> Accepted   what happens when that timer falls due
    scores(state) -> dict[seat, int]      live score of each seat
    outcome(state) -> None | {"scores": {seat: int}, "winners": [seat], ...}

Optional:
    begin(state, now) -> state
        called once right after setup with the game clock's now: arm the first timer here.
    check(options, players) -> str | None
        called before setup with the cleaned options and the number of players: a reason
        the game cannot start (the start is refused with bad_options), or None.
    keepsake(state) -> dict | None
        what a finished game leaves in the room's gallery (partyhub/keepsakes/): public data
        only (drawings, clues, won cards, words), bounded; None before the game is over.
    can_advance(state) -> bool  and  advance(state, now) -> Accepted | Rejected
        host-paced games (WCAG 2.2.1; the room's timers "none"): the platform deals with
        options[PACED] = True, and then no timer runs (`deadline` stays None): a phase a
        timer would have ended waits until everyone has done what it waits for, or until
        the VIP ends it (the room action `advance`). can_advance: the game is paced and its
        phase is one a timer would have ended; advance ends it now as that timer would have
        (Rejected("wrong_phase") otherwise). See `paced` and `timer_due`.

    blobs: frozenset[str]
        view keys whose values are large and rarely change (sketch: {"strokes"}): the
        platform sends each such value once per connection by content hash and puts a
        reference in the view frame (partyhub/blobs.py). The rules' views keep the values.

Decks (docs/decisions.md, "Decks"): an option declared `Option(DEFAULT_DECK, deck=True)`
is offered the platform's decks as its choices (the registry binds them), and the room
service hands the chosen deck to `check` and `setup` as plain data in `options["_<name>"]`:
{"id", "name", "image", "cards": [card ids], "spares": [the default deck's other ids]}.
The rules keep what they need in the state; they never look a deck up themselves.

Optional, the audience plays along (docs/protocol.md, "The audience"; all pure; a game with an
audience module binds them all with `audience_of(module)`):
    audience_schema: dict[str, dict[str, Field]]
        the audience's action types and their fields, cleaned like actions_schema
        ({"audience_vote": {"card": string(64)}}); a type is never also a seat's action
    audience_ballot(state) -> str | None
        the key of the ballot open now ("t3", "r2:vote", ...), unique within a game;
        None: the audience has nothing to do now
    audience_actions(state) -> list[dict]
        concrete legal audience actions now (free text None); [] when no ballot is open
    audience_check(state, action, mine: dict) -> Ballot | Rejected
        one audience action judged against the state (a recent snapshot of it); `mine` is
        this voter's entries in the open ballot so far ({key: value}). Ballot(key, value,
        reply): key None records nothing (a wrong guess) but still answers `reply`. A later
        value for the same key replaces the earlier one (each voter counts once per key).
    audience_summary(state, entries) -> dict
        the public live summary the TV's `tally` frame carries; entries = {voter: {"name":
        str | None, "votes": {key: value}}}. It MUST NOT reveal a secret (no per-card counts
        while a vote is secret).
    audience_close(state, ballot, entries) -> state
        folds the closed ballot into a NEW state (never mutates); called by the platform in
        the write that ends the ballot's phase (the ballot open before the rules' result is
        no longer the open one after it). What it keeps shows in views when the rules say it
        is public, and in outcome()'s results.

Optional, for high-rate streams (only games with `streams`):
    stream(state, seat, action, now) -> Relay | Rejected
        checks one stream item against a recent snapshot of the state; never mutates it
    stream_many(state, items, now) -> [Relay | Rejected, ...]
        optional: one verdict per item of [(seat, action), ...], in order; the platform
        gathers a room's items for a short tick and checks them in this one call (else it
        calls `stream` per item)
    absorb(state, items) -> state
        folds stream items [(seat, action), ...] (in arrival order) into the state; the
        platform calls it before every locked write and before building a resync view.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from partyhub.text import visible

TABLE = "@table"
AUDIENCE = "@audience"
DEFAULT_DECK = "default"    # the id of the shipped card deck (partyhub/decks/)
PACED = "_paced"            # the option the platform adds to a host-paced deal (no timers)


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
class Ballot:
    """An audience action accepted (audience_check): `value` under `key` in the voter's
    entries of the open ballot (key None: nothing recorded); `reply` goes to the voter."""
    key: str | None
    value: Any = None
    reply: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Relay:
    """A stream item accepted: `frame` is sent as {"t": <type>, "d": frame} to `to` viewers."""
    frame: dict
    to: tuple = (TABLE,)


@dataclass(frozen=True)
class Option:
    default: Any
    min: int | None = None
    max: int | None = None
    choices: Any = None         # a tuple, or a callable giving the current tuple (deck names)
    seconds: bool = False       # a timer length: scaled by the room's timer factor (`timed`)
    text: bool = False          # free text (a custom word list, a deck name...)
    labels: Any = None          # optional callable: {choice: display name} (custom decks)
    deck: bool = False          # a deck id: the registry binds the platform's decks as choices

    def choice_list(self) -> tuple | None:
        """The choices now: a callable `choices` is asked each time (decks come and go)."""
        if self.choices is None:
            return None
        return tuple(self.choices() if callable(self.choices) else self.choices)

    def spec(self) -> dict:
        out = {"default": self.default}
        for key in ("min", "max"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        choices = self.choice_list()
        if choices is not None:
            out["choices"] = list(choices)
            if self.labels is not None:
                out["labels"] = dict(self.labels())
        if self.seconds:
            out["seconds"] = True
        return out

    def clean(self, value):
        """The value checked against this option, or raises ValueError with a reason."""
        if value is None:
            return self.default
        choices = self.choice_list()
        if choices is not None:
            if value not in choices:
                raise ValueError(f"must be one of {list(choices)}")
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError("must be true or false")
            return value
        if isinstance(self.default, int) or (self.default is None and self.min is not None):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError("must be a whole number")
            if self.min is not None and value < self.min:
                raise ValueError(f"must be at least {self.min}")
            if self.max is not None and value > self.max:
                raise ValueError(f"must be at most {self.max}")
            return value
        if isinstance(self.default, str) or self.text:
            if not isinstance(value, str):
                raise ValueError("must be text")
            value = visible(value)
            if self.max is not None and len(value) > self.max:
                raise ValueError(f"must be at most {self.max} characters")
            return value
        return value


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


def clean_options(options: dict[str, Option], given: dict | None) -> dict:
    """Defaults filled in, every given value checked; raises ValueError("name: reason")."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(options))
    if unknown:
        raise ValueError(f"unknown option {unknown[0]}")
    out = {}
    for name, opt in options.items():
        try:
            out[name] = opt.clean(given.get(name))
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None
    return out


def timed(options: dict[str, Option], chosen: dict, factor: int) -> dict:
    """The options a game is dealt: `chosen` (cleaned) with every timer length (a `seconds`
    option) times the room's timer factor (2 with extended timers). Rules arm their timers
    from these, so they never hear of the room's setting; the room keeps `chosen`."""
    return {name: value * factor if _is_length(options.get(name), value) else value
            for name, value in chosen.items()}


def paced(state_or_options: dict) -> bool:
    """Whether a game was dealt host-paced: from its options, or from a state that keeps
    them in state["options"]."""
    options = state_or_options.get("options", state_or_options)
    return bool(isinstance(options, dict) and options.get(PACED))


def timer_due(options: dict, seconds, now: int | None) -> int | None:
    """The deadline of a timer of `seconds` armed at `now`: None when it is off (0), when
    there is no clock yet (setup) or when the game is host-paced."""
    if not seconds or now is None or paced(options):
        return None
    return now + seconds * 1000


def _is_length(option: Option | None, value) -> bool:
    return (option is not None and option.seconds and isinstance(value, int)
            and not isinstance(value, bool))


# ---------------------------------------------------------------- action fields

INT_LIMIT = 2 ** 31     # no integer field of any action needs more


@dataclass(frozen=True)
class Field:
    """One field of an action: its JSON type and size bound. null is always accepted (the
    rules read it as absent). Build fields with the helpers below, not directly."""
    kind: str                   # "text" | "string" | "integer" | "flag" | "list" | "record" | "mapping"
    max: int = 0                # characters (text, string), items (list, mapping)
    of: Any = None              # list: a Field for each item, or None (the rules check them);
                                # record: {name: Field}

    def clean(self, value):
        """The value as the rules will see it, or raises ValueError with a reason."""
        if value is None:
            return None
        check = _CHECKS[self.kind]
        return check(self, value)


def text(max_chars: int) -> Field:
    """Free text people read (a clue, a guess): invisible controls stripped, then at most
    `max_chars` characters."""
    return Field("text", max_chars)


def string(max_chars: int = 64) -> Field:
    """A short string kept as sent: an id (a card, a player), a choice (a colour, a letter)."""
    return Field("string", max_chars)


def integer() -> Field:
    """A whole number (not true/false) within +-2**31; the rules judge its range."""
    return Field("integer")


def flag() -> Field:
    return Field("flag")


def listing(max_items: int, of: Field | None = None) -> Field:
    """A list of at most `max_items` items, each checked against `of` when given."""
    return Field("list", max_items, of)


def record(fields: dict) -> Field:
    """A JSON object with these fields (others dropped), like an action's own."""
    return Field("record", of=fields)


def mapping(max_keys: int) -> Field:
    """A JSON object of at most `max_keys` keys whose contents its handler checks (options)."""
    return Field("mapping", max_keys)


def _text(f: Field, value):
    if not isinstance(value, str):
        raise ValueError("must be text")
    value = visible(value) if f.kind == "text" else value
    if len(value) > f.max:
        raise ValueError(f"must be at most {f.max} characters")
    return value


def _integer(f: Field, value):
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > INT_LIMIT:
        raise ValueError("must be a whole number")
    return value


def _flag(f: Field, value):
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


def _list(f: Field, value):
    if not isinstance(value, list):
        raise ValueError("must be a list")
    if len(value) > f.max:
        raise ValueError(f"must have at most {f.max} items")
    return value if f.of is None else [f.of.clean(item) for item in value]


def _record(f: Field, value):
    if not isinstance(value, dict):
        raise ValueError("must be an object")
    return _fields(f.of, value)


def _mapping(f: Field, value):
    if not isinstance(value, dict):
        raise ValueError("must be an object")
    if len(value) > f.max:
        raise ValueError(f"must have at most {f.max} keys")
    return value


_CHECKS = {"text": _text, "string": _text, "integer": _integer, "flag": _flag,
           "list": _list, "record": _record, "mapping": _mapping}


def _fields(fields: dict, given: dict) -> dict:
    """The declared fields of `given`, each cleaned; raises ValueError("name: reason")."""
    out = {}
    for name, f in fields.items():
        if name in given:
            try:
                out[name] = f.clean(given[name])
            except ValueError as e:
                raise ValueError(f"{name}: {e}") from None
    return out


def clean_action(schema: dict, action: dict) -> dict | Rejected:
    """`action` ({"type": ..., ...}) cut to the fields its type declares in `schema`
    ({type: {name: Field}}), or Rejected("bad_action") for an unknown type, a field of the
    wrong type or one too large. Fields not declared are dropped, not refused: a client newer
    than the server may send more (PROTOCOL.md: "add fields freely"), and what is dropped is
    never stored."""
    kind = action.get("type")
    fields = schema.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return Rejected("bad_action", f"There is no action {str(kind)[:40]!r}.")
    try:
        return {"type": kind, **_fields(fields, action)}
    except ValueError as e:
        return Rejected("bad_action", f"{kind}: {e}")


def rng(state: dict) -> random.Random:
    """A random generator drawn from the state's seed; each call gives the next stream.

    Mutates state["rng"] (a counter), so call it on the new state being built.
    """
    n = state.get("rng", 0)
    state["rng"] = n + 1
    return random.Random(f"{state['seed']}:{n}")


def evolve(state: dict) -> dict:
    """A deep copy to build the next state from (rules never mutate their input)."""
    return copy.deepcopy(state)


def is_seat(viewer) -> bool:
    return viewer not in (TABLE, AUDIENCE)
