"""The options of a game in a room: the lobby's choice, the options kept per game for the next
time it is picked, and the options of a new deal (checked, defaults filled in, decks resolved)."""
from __future__ import annotations

from partyhub.decks import options as deck_options
from partyhub.gamekit import clean_options
from partyhub.rooms.access import familymode
from partyhub.rooms.core.errors import ServiceError, fail
from partyhub.rooms.domain import photos
from partyhub.rooms.gateway import calls, registry

KEPT = "kept"     # settings["kept"]: {game id: the options the host set for it}, per room


def _kept(room) -> dict:
    kept = room.settings.get(KEPT)
    return kept if isinstance(kept, dict) else {}


def keep(room, game_id: str, options: dict) -> None:
    room.settings = {**room.settings, KEPT: {**_kept(room), game_id: dict(options)}}


def kept_options(room, game) -> dict:
    """The options the host set for `game` in this room, those still allowed (a deck since
    deleted is dropped, so picking the game again never fails)."""
    mine = _kept(room).get(game.id)
    if not isinstance(mine, dict):
        return {}
    return {name: value for name, value in mine.items() if _allowed(room, game, name, value)}


def _allowed(room, game, name, value) -> bool:
    try:
        cleaned(room, game, {name: value})
    except ServiceError:
        return False
    return True


def chosen(room, editor: bool = True) -> dict | None:
    """The lobby's choice as the views show it: {"game", "options" (only those set)}. A viewer
    who cannot choose (`editor` False: neither the TV nor the VIP) is not shown the game's
    free-text options: sketch's custom word list holds the words the next deal puts on the
    players' cards (docs/games/sketch.md, "Secrecy")."""
    c = room.settings.get("chosen")
    game = registry.get(c.get("game")) if isinstance(c, dict) else None
    if game is None:
        return None
    hidden = () if editor else _free_text(game)
    return {"game": c["game"], "options": {k: v for k, v in (c.get("options") or {}).items() if k not in hidden}}


def shown(room, game) -> dict:
    """The dealt game's options as every view carries them (`room.options`), but its free-text
    ones (`Option(text=True)`: sketch's custom word list). Those hold the words the players'
    cards were dealt from, which no player may read while the game runs (docs/games/sketch.md,
    "Secrecy"), and up to 20,000 characters that every frame to every socket carried. The room
    keeps them, for `again` and the log. `game`: the room's game, as the view looked it up."""
    text = _free_text(game)
    return {name: value for name, value in (room.options or {}).items() if name not in text}


def _free_text(game) -> set:
    """The game's free-text options (`Option(text=True)`)."""
    return {name for name, opt in game.options.items() if opt.text} if game is not None else set()


def chosen_options(room, game_id: str) -> dict:
    c = chosen(room)
    return c["options"] if c and c["game"] == game_id else {}


def of_deal(room, game, given, players: int) -> tuple[dict, dict]:
    """The options of a new deal as the host chose them (checked, defaults filled in, and a
    game's `language` option the room's language unless the host chose one), and the chosen
    decks resolved as data for the rules (partyhub/decks/options.py)."""
    given = public(given)
    options = cleaned(room, game, given)
    try:
        dealt = photos.mixed(room, deck_options.resolved(game.options, options))
    except ValueError as e:
        raise fail("bad_options", str(e))
    familymode.check_options(room, game, options)
    if "language" in game.options and not given.get("language"):
        options["language"] = room.language
    problem = calls.decided(game, "check", {**options, **dealt}, players) if hasattr(game, "check") else None
    if problem:
        raise fail("bad_options", problem)
    return options, dealt


def public(given) -> dict:
    """Options as a client may give them (no internal-looking `_` names)."""
    return {k: v for k, v in (given or {}).items() if not k.startswith("_")}


def cleaned(room, game, given: dict) -> dict:
    """`given` checked by the game's options cleaner, defaults filled in (refusals as codes)."""
    if deck_options.refused(game.options, given, room.host):
        raise fail("deck_not_yours")
    try:
        return clean_options(deck_options.scoped(game.options, room.host), given)
    except ValueError as e:
        raise fail("bad_options", str(e))
