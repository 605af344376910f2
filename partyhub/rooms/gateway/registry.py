"""The game registry: each game app registers its rules object in AppConfig.ready().

Registering also hands the game what the platform provides: its deck options are offered
the platform's decks (partyhub/decks/options.py); and it checks the game's declared actions
(`actions_schema`), with which every action is cleaned before it reaches the rules.
"""
from importlib import import_module

from django.apps import AppConfig

from partyhub import decks
from partyhub.decks import options as deck_options
from partyhub.gamekit import Rejected, clean_action
from partyhub.rooms.core.errors import fail
from partyhub.rooms.core.schema import SCHEMA as ROOM_ACTIONS

_games: dict = {}
# Every action type this server knows, room actions and each game's: {type: {name: Field}}.
# An action type means one thing on the server, so an action is cut to its fields before
# the room (and so its game) is read: `clean`, at the top of services.room_apply.
_actions: dict = dict(ROOM_ACTIONS)
_audience: dict = {}    # every game's audience action types: {type: {name: Field}}
_audience_kinds = [frozenset()]     # their types, for the socket's routing of every act


def _known() -> dict:
    return _actions


def register(game) -> None:
    schema = getattr(game, "actions_schema", None)
    if not isinstance(schema, dict) or not set(game.streams) <= set(schema):
        raise TypeError(f"game {game.id!r} must declare every action in actions_schema")
    for kind, fields in schema.items():
        if kind in ROOM_ACTIONS or kind in _audience or _known().get(kind, fields) != fields:
            raise ValueError(f"game {game.id!r}: action {kind!r} is already declared otherwise")
    audience = getattr(game, "audience_schema", None) or {}
    for kind, fields in audience.items():
        if kind in _known() or kind in schema or _audience.get(kind, fields) != fields:
            raise ValueError(f"game {game.id!r}: audience action {kind!r} is already declared otherwise")
    _known().update(schema)
    _audience.update(audience)
    _audience_kinds[0] = frozenset(_audience)
    deck_options.bind(game)
    _games[game.id] = game


def audience_kinds() -> frozenset:
    """Every audience action type of the registered games (audience.py judges them)."""
    return _audience_kinds[0]


def declared(kind) -> dict | None:
    """The fields an action type declares ({name: Field}), or None for an unknown type."""
    return _known().get(kind) if isinstance(kind, str) else None


def clean(d):
    """The action `d` cut to its declared fields, or Rejected (see gamekit.clean_action).
    Anything but a dict with a string type is returned as it is, for the caller to refuse."""
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        return d
    return clean_action(_known(), d)


def cleaned(d):
    """`clean`, raising ServiceError("bad_action") instead of returning Rejected."""
    out = clean(d)
    if isinstance(out, Rejected):
        raise fail(out.code, out.message)
    return out


def get(game_id):
    return _games.get(game_id)


def listed() -> list:
    return sorted(_games.values(), key=lambda g: g.id)


def describe(game, host: str = "", ids=None) -> dict:
    """The game as the lobby offers it to a room of the host key hash `host` (its deck
    options' choices are that host's decks; none of the uploaded ones for "")."""
    options = deck_options.scoped(game.options, host, ids)
    return {
        "id": game.id,
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "minutes": getattr(game, "minutes", None),     # a game of 4 with the defaults
        "words_language": getattr(game, "words_language", None),   # its words' own language (klepka: uk)
        "options": {name: opt.spec() for name, opt in options.items()},
    }


def described(host: str = "") -> list:
    """Every game, described for a room of `host` (its decks looked up once)."""
    ids = decks.names_for(host)
    return [describe(g, host, ids) for g in listed()]


def game_app_config(module_name: str, verbose: str, warm=None):
    """The AppConfig of a game app: registers `<app>.rules.GAME` when Django is ready."""
    app_name, label = module_name.rsplit(".", 1)[0], module_name.split(".")[1]

    def ready(self):
        register(import_module(f"{app_name}.rules").GAME)
        if warm is not None:
            warm()

    return type(f"{label.title()}Config", (AppConfig,),
                {"name": app_name, "label": label, "verbose_name": verbose, "ready": ready,
                 "__module__": module_name})
