"""Sketch: simultaneous drawing and guessing (rules in rules/, word lists in words/)."""
