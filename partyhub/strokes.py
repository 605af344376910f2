"""A drawing's strokes, as the platform checks and stores them: sketch's boards and the
players' portraits (rooms/access/portraits.py) are drawn with one pen.

A stroke is stored compactly: {"c": colour, "w": width, "p": [x0, y0, x1, y1, ...], "join"}
with the coordinates as integers in thousandths of the canvas (0..SCALE).
"""
from __future__ import annotations

import math

from partyhub.gamekit import Rejected

# A small palette ("#fff" is the canvas itself, i.e. the eraser) and three widths.
PALETTE = ("#000", "#e4572e", "#f3a712", "#29bf12", "#2e86de", "#8e44ad", "#8b5a2b", "#fff")
WIDTHS = (2, 4, 8)
MAX_POINTS_PER_BATCH = 200
SCALE = 1000                  # stored coordinates are integers in thousandths of the canvas


def _coordinate(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return round(min(max(value, 0), 1) * SCALE)


def parse_stroke(action: dict) -> dict | Rejected:
    """The stroke as stored ({"c", "w", "p", "join"}), or why it is malformed."""
    points = action.get("points")
    if not isinstance(points, list) or not 1 <= len(points) <= MAX_POINTS_PER_BATCH:
        return Rejected("bad_points", f"Send 1 to {MAX_POINTS_PER_BATCH} points a batch.")
    flat = []
    for point in points:
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            return Rejected("bad_points", "Each point is [x, y].")
        xy = [_coordinate(v) for v in point]
        if None in xy:
            return Rejected("bad_points", "Coordinates are numbers from 0 to 1.")
        flat.extend(xy)
    if action.get("color") not in PALETTE:
        return Rejected("bad_color", "Pick a colour from the palette.")
    width = action.get("width")
    if isinstance(width, bool) or width not in WIDTHS:
        return Rejected("bad_width", "Pick one of the three widths.")
    return {"c": action["color"], "w": width, "p": flat, "join": action.get("join") is True}
