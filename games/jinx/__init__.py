"""Jinx: the 3x3 clue race (rules in rules/, registered with the room registry in apps.py)."""
