from django.apps import AppConfig


class TestGameConfig(AppConfig):
    name = "tests.testgame"
    label = "testgame"

    def ready(self):
        from partyhub.rooms.gateway import registry
        from tests.testgame.rules import GAME
        registry.register(GAME)
