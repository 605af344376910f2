"""Decks in game options: what the registry offers a game and what the room service hands it.

A game declares a deck option (`Option(DEFAULT_DECK, deck=True)`) and knows nothing more.
At registration `bind` gives that option the platform's decks as its choices and labels
(asked afresh each time: decks come and go). At the start of a game `resolved` turns each
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
    """Offer the platform's decks as the choices of the game's deck options (idempotent)."""
    wanted = names_of(game.options)
    if not wanted:
        return
    game.options = {name: replace(opt, choices=decks.names, labels=decks.labels)
                    if name in wanted else opt for name, opt in game.options.items()}


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

