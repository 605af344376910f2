import threading

from partyhub.rooms.gateway.registry import game_app_config


def _warm():
    """Load the dictionary in the background so the first word check is fast."""
    from games.klepka import dictionary
    threading.Thread(target=dictionary.warm, name="klepka-dictionary", daemon=True).start()


KlepkaConfig = game_app_config(__name__, "Klepka", warm=_warm)
