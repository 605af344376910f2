"""An action's fields: their declarations (Field and its helpers) and the cut of an action to
them (clean_action) before the rules see it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from partyhub.gamekit.values import Rejected
from partyhub.text import visible

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
