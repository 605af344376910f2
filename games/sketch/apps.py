from django.apps import AppConfig


class SketchConfig(AppConfig):
    name = "games.sketch"
    label = "sketch"
    verbose_name = "Sketch"

    def ready(self):
        from partyhub.rooms import registry

        from .rules import GAME

        registry.register(GAME)
