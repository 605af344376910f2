"""Association: the storyteller card game (rules/association.txt). Pure: no Django, no I/O;
the platform hands the chosen deck in as data (options["_deck"])."""
from .game import Association

GAME = Association()

__all__ = ["GAME", "Association"]
