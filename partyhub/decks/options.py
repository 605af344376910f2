"""Decks in game options: what the registry offers a game and what the room service hands it.

A game declares a deck option (`Option(DEFAULT_DECK, deck=True)`) and knows nothing more.
At registration `bind` gives that option the decks anyone may pick (the default deck);
`scoped` gives it a room host's decks (its own uploads and those shared with it: decks come
and go, so they are asked afresh for each view and each start). At the start of a game `resolved` turns each
chosen deck id into plain data under `_<option name>`, which `check` and `setup` read. The
rules keep what they need in the state, so a game replays from its logged options, seed and
actions, and no view or action ever reaches the disk, the settings or another game.
"""
from __future__ import annotations

from dataclasses import replace

from partyhub import decks


def names_of(options: dict) -> list[str]:
    """The names of the options that choose a deck."""
    return [name for name, opt in options.items() if opt.deck]


def bind(game) -> None:
    """Offer the decks anyone may pick as the choices of the game's deck options (idempotent)."""
    game.options = scoped(game.options, "")


def scoped(game_options: dict, host: str, ids=None) -> dict:
    """The options with each deck option's choices the decks a room of the host key hash
    `host` may pick (`ids`: those decks, when the caller has them already)."""
    wanted = names_of(game_options)
    if not wanted:
        return game_options
    ids = decks.names_for(host) if ids is None else tuple(ids)
    shown = decks.labels(ids[1:])
    return {name: replace(opt, choices=ids, labels=lambda: shown) if name in wanted else opt
            for name, opt in game_options.items()}


def refused(game_options: dict, given: dict, host: str) -> str | None:
    """The first uploaded deck chosen in `given` that a room of `host` may not pick (it
    exists, but belongs to another host), or None."""
    for name in names_of(game_options):
        chosen = (given or {}).get(name)
        if chosen in decks.names() or not isinstance(chosen, str):
            continue
        try:
            decks.manifest(chosen)
        except (KeyError, OSError, ValueError):
            continue    # no such deck: the options check says so
        if chosen not in decks.allowed(host):
            return chosen
    return None


def resolved(game_options: dict, options: dict) -> dict:
    """{"_<name>": the chosen deck as data} for each deck option (options already cleaned);
    raises ValueError("<name>: ...") when a deck has gone since the options were checked."""
    out = {}
    for name in names_of(game_options):
        try:
            out[f"_{name}"] = decks.resolve(options[name])
        except (KeyError, OSError, ValueError):
            raise ValueError(f"{name}: no deck {options[name]!r}") from None
    return out

