from django.apps import AppConfig


class KlepkaConfig(AppConfig):
    name = "games.klepka"
    label = "klepka"
    verbose_name = "Klepka"

    def ready(self):
        from partyhub.rooms import registry

        from .rules import GAME

        registry.register(GAME)
        import threading

        from . import dictionary
        # Load the dictionary in the background so the first word check is fast.
        threading.Thread(target=dictionary.warm, name="klepka-dictionary", daemon=True).start()
