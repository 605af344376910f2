from django.apps import AppConfig


class AssociationConfig(AppConfig):
    name = "games.association"
    label = "association"
    verbose_name = "Association"

    def ready(self):
        from partyhub.rooms import registry

        from .rules import GAME

        registry.register(GAME)
