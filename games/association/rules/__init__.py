"""Association: the storyteller card game (rules/association.txt). Pure: no Django, no I/O
beyond reading the shipped deck manifest."""
from .game import Association

GAME = Association()

__all__ = ["GAME", "Association"]
