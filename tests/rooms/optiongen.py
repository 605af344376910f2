"""Hypothesis strategies over a game's `Option` specs, and the refusal codes docs/protocol.md
documents for each room action.

`valid_options(game)` draws option dicts the platform must accept: any subset of the game's
options (a missing one takes its default) with values inside the spec, sometimes with a key
starting with "_" (dropped by the platform, never a way to set its internals).
`broken_options(game)` draws a valid dict with exactly one thing wrong in it.
`chosen(game, given, room_language)` is the model: the options a start with `given` deals.
"""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

DOCS = Path(__file__).resolve().parents[2] / "docs"
WORD = st.text(alphabet="abcxyz ", min_size=1, max_size=8)


def _value(opt):
    choices = opt.choice_list()
    if choices is not None:
        return st.sampled_from(choices)
    if isinstance(opt.default, bool):
        return st.booleans()
    if isinstance(opt.default, int):
        return st.integers(opt.min, opt.max)
    return st.lists(WORD, max_size=6).map("\n".join)      # free text (a word list)


def _is_int(opt) -> bool:
    return isinstance(opt.default, int) and not isinstance(opt.default, bool)


def _bad_values(opt) -> list:
    """Values this option must refuse."""
    if opt.choice_list() is not None:
        return ["no such choice", 1, []]
    if isinstance(opt.default, bool):
        return [1, "yes"]
    if _is_int(opt):
        return [opt.max + 1, opt.min - 1, str(opt.default), True, 1.5, 10 ** 12]
    return [5, "x" * (opt.max + 1)] if opt.max is not None else [5]


def valid_options(game):
    optional = {name: _value(opt) for name, opt in game.options.items()}
    optional["_timer_factor"] = st.integers(0, 9)      # internal-looking keys are dropped
    return st.fixed_dictionaries({}, optional=optional)


@st.composite
def broken_options(draw, game):
    given = dict(draw(valid_options(game)))
    name = draw(st.sampled_from(sorted(game.options) + ["no_such_option"]))
    if name == "no_such_option":
        given[name] = draw(st.integers(0, 3))
        return given
    given[name] = draw(st.sampled_from(_bad_values(game.options[name])))
    return given


def chosen(game, given: dict, room_language: str) -> dict:
    """The options a start with `given` deals, as the host chose them (no timer factor)."""
    out = {name: given.get(name, opt.default) for name, opt in game.options.items()}
    if "language" in game.options and not given.get("language"):
        out["language"] = room_language
    return out


# ---------------------------------------------------------------- the documented codes

CODE = re.compile(r"`([a-z_]+)`")


def _section(text: str, heading: str) -> str:
    rest = text[text.index(heading) + len(heading):]
    end = rest.find("\n#")
    return rest if end < 0 else rest[:end]


def room_action_codes() -> dict:
    """{action type: the refusal codes its row of "Room actions" in docs/protocol.md lists}."""
    text = (DOCS / "protocol.md").read_text()
    out: dict = {}
    for line in _section(text, "### Room actions").splitlines():
        cells = line.split("|")
        if len(cells) < 5:
            continue
        for kind in re.findall(r'"type":"(\w+)"', cells[1]):
            out[kind] = set(CODE.findall(cells[3]))
    return out


def join_codes() -> set:
    """The refusals of `POST /api/rooms/<code>/join` (how people and bots take a seat)."""
    text = (DOCS / "protocol.md").read_text()
    row = next(line for line in text.splitlines() if "/join`" in line)
    return set(CODE.findall(row.split("|")[3]))


def documented_anywhere(code: str) -> bool:
    return f"`{code}`" in (DOCS / "protocol.md").read_text()
