from django.apps import AppConfig


class JinxConfig(AppConfig):
    name = "games.jinx"
    label = "jinx"
    verbose_name = "Jinx"

    def ready(self):
        from partyhub.rooms import registry

        from .rules import GAME

        registry.register(GAME)
