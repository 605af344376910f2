"""Sketch's pure rules (no Django, no network): `GAME` implements partyhub.gamekit's interface."""
from .game import GAME, Sketch
from .matcher import is_correct, normalise

__all__ = ["GAME", "Sketch", "is_correct", "normalise"]
