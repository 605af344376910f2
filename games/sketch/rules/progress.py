"""The drawing round's live progress (issue 27): what the TV may show while drawings are secret.

Per player: how much ink each of their boards holds, as a coarse level (0..INK_LEVELS), and
whether they have finished (every board still in play has a word and some ink). Nothing else:
no stroke, no point, no colour, no word, so the drawing cannot be read back from it (a level
changes only every few board widths of line, and an eraser stroke adds none).
"""
from __future__ import annotations

import math

from .constants import SCALE

INK_LEVELS = 4
# The length of line (in board widths) from which each level 1..INK_LEVELS starts: a first
# mark, a shape, a drawing, a detailed drawing.
INK_STEPS = (0, 2, 5, 10)
ERASER = "#fff"


def _length(strokes: list) -> float:
    """The drawn length of `strokes` in board widths (eraser strokes draw nothing)."""
    total = 0
    for s in strokes:
        if s["c"] == ERASER:
            continue
        p = s["p"]
        total += sum(math.hypot(p[i + 2] - p[i], p[i + 3] - p[i + 1]) for i in range(0, len(p) - 2, 2))
        if len(p) == 2:
            total += s["w"] / 2     # a dot is ink too
    return total / SCALE


def ink(strokes: list) -> int:
    """The board's ink level, 0 (no line) to INK_LEVELS."""
    if not any(s["c"] != ERASER for s in strokes):
        return 0
    length = _length(strokes)
    return sum(1 for step in INK_STEPS if length >= step) if length > 0 else 1


def progress(state: dict) -> dict | None:
    """{"round", "players": [{"id", "ink": [level per board], "done"}]} in a drawing round,
    else None. A won board is final (ink 0: it is no longer drawn on; the view says won)."""
    if state["phase"] != "drawing":
        return None
    players = []
    for seat in state["seats"]:
        boards = state["boards"][seat]
        levels = [0 if b["won_by"] or b["word"] is None else ink(b["strokes"]) for b in boards]
        open_ = [i for i, b in enumerate(boards) if not b["won_by"]]
        players.append({"id": seat, "ink": levels,
                        "done": bool(open_) and all(levels[i] > 0 for i in open_)})
    return {"round": state["round"], "players": players}
