"""Jinx's pure rules (no Django, no network): `GAME` implements partyhub.gamekit's interface."""
from .deck import faces
from .game import GAME, Jinx

__all__ = ["GAME", "Jinx", "faces"]
