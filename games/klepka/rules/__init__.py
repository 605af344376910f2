"""klepka's pure rules: GAME implements partyhub.gamekit's game interface."""
from .game import KlepkaGame

GAME = KlepkaGame()

__all__ = ["GAME", "KlepkaGame"]
