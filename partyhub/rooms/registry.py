"""The game registry: each game app registers its rules object in AppConfig.ready()."""
_games: dict = {}


def register(game) -> None:
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
