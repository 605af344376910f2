"""The game registry: each game app registers its rules object in AppConfig.ready().

Registering also hands the game what the platform provides: its deck options are offered
the platform's decks (partyhub/decks/options.py).
"""
from partyhub.decks import options as deck_options

_games: dict = {}


def register(game) -> None:
    deck_options.bind(game)
    _games[game.id] = game


def get(game_id):
    return _games.get(game_id)


def listed() -> list:
    return sorted(_games.values(), key=lambda g: g.id)


def describe(game) -> dict:
    return {
        "id": game.id,
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": {name: opt.spec() for name, opt in game.options.items()},
    }


def game_app_config(module_name: str, verbose: str, warm=None):
    """The AppConfig of a game app: registers `<app>.rules.GAME` when Django is ready."""
    from importlib import import_module

    from django.apps import AppConfig

    app_name, label = module_name.rsplit(".", 1)[0], module_name.split(".")[1]

    def ready(self):
        register(import_module(f"{app_name}.rules").GAME)
        if warm is not None:
            warm()

    return type(f"{label.title()}Config", (AppConfig,),
                {"name": app_name, "label": label, "verbose_name": verbose, "ready": ready,
                 "__module__": module_name})
