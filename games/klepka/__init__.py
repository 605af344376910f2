"""Klepka: the Ukrainian letter memory and word game (rules in rules/, dictionary in dictionary.py)."""
