"""What a bot plays: an action among those its view offers (free text from a small word list),
or the game's own strategy's (`games/<game>/bot.py`, see `strategy`). It gets only the seat's
view and answers with an action a phone could send. Pure: no socket, no database; the lobby's
bots, the stand-in and the crash tests' clients all choose here (through bots/turn.py).
"""
from __future__ import annotations

import functools
import importlib
import json
import logging
import random

from partyhub.rooms.core import schema
from partyhub.rooms.gateway import registry
from partyhub.rooms.timers import pace

log = logging.getLogger(__name__)
WORDS = {
    "en": ["moon", "ladder", "dream", "ocean", "secret", "journey", "storm", "garden", "clock", "door"],
    "uk": ["місяць", "драбина", "мрія", "океан", "таємниця", "подорож", "буря", "сад", "годинник", "двері"],
    "ru": ["луна", "лестница", "мечта", "океан", "тайна", "путешествие", "буря", "сад", "часы", "дверь"],
}


def choose(actions: list, language: str, rnd: random.Random, failed=()) -> dict | None:
    """A game action picked at random among the offered ones (free text from a small word list)."""
    game = [a for a in actions if a.get("type") not in schema.SCHEMA
            and json.dumps(a, sort_keys=True) not in failed]
    if not game:
        return None
    pick = rnd.choice(game)
    words = WORDS.get(language, WORDS["en"])
    return {k: (rnd.choice(words) if v is None else v) for k, v in pick.items()}


@functools.lru_cache(maxsize=32)
def strategy(game: str | None):
    """The game's own bot module (`games/<game>/bot.py`), or None. Its hooks are optional:
    - `choose(view, offered, rnd, failed, memory)`: the whole decision (None: nothing to do
      now), e.g. klepka's solver;
    - `prefer(view, actions, language, rnd)`: a sensible pick among `actions` (the offered game
      actions not refused in this view) or None to leave it to chance, e.g. association's and
      jinx's card tags;
    - `sensible(view, actions)`: narrows the actions the bot may pick from;
    - `stream_moves(view)`: stream actions to send now (a sketch bot's drawing);
    - `NEVER`: the kinds of action it never plays (klepka keeps exchange and chaos).
    The bot still sees only its own view and sends what a phone could send; a hook that raises
    is logged and the bot picks at random."""
    if not game or not isinstance(game, str) or not game.isidentifier():
        return None
    try:
        return importlib.import_module(f"games.{game}.bot")
    except ModuleNotFoundError as e:
        if e.name not in (f"games.{game}", f"games.{game}.bot", "games"):
            raise          # the strategy itself is broken: say so, do not play at random
        return None


def never_played(game: str | None) -> frozenset:
    """The kinds of action the game's bot never plays: its strategy's (`games/<game>/bot.py:
    NEVER`) and the game's moves that only pace the table (`pacing`: association's `next`;
    a person ends a reveal, partyhub/rooms/timers/pace.py). Offered only these, a seat is not one
    the game waits on."""
    return frozenset(getattr(strategy(game), "NEVER", ())) | pace.kinds(registry.get(game))


def _hook(view: dict, name: str):
    """The game's optional bot hook `games/<game>/bot.py: <name>`, or None."""
    module = strategy((view.get("room") or {}).get("game"))
    hook = getattr(module, name, None) if module is not None else None
    return hook if callable(hook) else None


def stream_moves(view: dict) -> list[dict]:
    """Stream actions (not listed in a view's actions) the game's hook `stream_moves(view)`
    wants sent now, e.g. a sketch bot's drawing."""
    hook = _hook(view, "stream_moves")
    return hook(view) if hook else []


def offered_actions(view: dict) -> list[dict]:
    """The view's actions but those the bot never plays (`never_played`), narrowed by the
    game's hook `sensible(view, actions)` if it has one."""
    never = never_played((view.get("room") or {}).get("game"))
    actions = view.get("actions", [])
    if never:
        actions = [a for a in actions if not (isinstance(a, dict) and a.get("type") in never)]
    hook = _hook(view, "sensible")
    return hook(view, actions) if hook else actions


def next_action(view: dict, rnd: random.Random, failed=(), memory=None) -> dict | None:
    """What the bot does in this view: the game's `choose`, else its `prefer`, else chance."""
    offered = offered_actions(view)
    language = (view.get("room") or {}).get("language", "en")
    game = [a for a in offered if a.get("type") not in schema.SCHEMA]
    try:
        plan = _hook(view, "choose")
        if plan is not None and view.get("game") is not None:
            return plan(view, game, rnd, failed, {} if memory is None else memory)
        prefer = _hook(view, "prefer")
        fresh = [a for a in game if json.dumps(a, sort_keys=True) not in failed]
        if prefer is not None and fresh and view.get("game") is not None:
            pick = prefer(view, fresh, language, rnd)
            if pick is not None:
                return pick
    except Exception:        # noqa: BLE001 - a strategy's slip must not stop the bot
        log.exception("bot strategy failed; picking at random")
    return choose(offered, language, rnd, failed)


def offered_key(offered: list, action: dict) -> str:
    """How a refused `action` goes into `failed`: the offered action it filled in (free-text
    fields left None), so that `next_action` chooses something else in the same view."""
    template = next((a for a in offered if a.get("type") == action["type"] and
                     all(action.get(k) == v for k, v in a.items() if v is not None)), action)
    return json.dumps(template, sort_keys=True)
