"""A game's options: their declarations (Option), their cleaning, the room's timer factor
(timed) and host pacing (PACED, paced, timer_due)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from partyhub.text import visible

DEFAULT_DECK = "default"    # the id of the shipped card deck (partyhub/decks/)
PACED = "_paced"            # the option the platform adds to a host-paced deal (no timers)


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
