"""A sketch drawing as a picture, made on the server from its stored strokes: a PNG, and an
animated GIF that replays the strokes in the order they were drawn. No Django here.

A stroke is stored as {"c": colour, "w": width, "p": [x0, y0, x1, y1, ...]} with coordinates
in thousandths of the (square) board and the width in pixels of a 500-px board, as the
phones paint it (frontend/static/games/sketch/board.js). Everything is bounded: the picture's
size, the points drawn (a board holds at most 3,000), the replay's frames. A picture is made
once and kept with its keepsake (renders.py).
"""
from __future__ import annotations

import io

from PIL import Image, ImageColor, ImageDraw

SCALE = 1000          # stored coordinates: thousandths of the board
BASE = 500            # a width is in pixels of a 500-px board
MAX_POINTS = 3000     # a board's bound (games/sketch/rules/constants.py); more are not drawn
PNG_SIZE = 600
REPLAY_SIZE = 360
REPLAY_FRAMES = 40    # the replay's frames while drawing, then the finished drawing held
FRAME_MS = 80
HOLD_MS = 2500
PAPER = (255, 255, 255)
INK = (0, 0, 0)


def png(strokes, size: int = PNG_SIZE) -> bytes:
    """The finished drawing as a PNG of size x size pixels."""
    canvas = _paper(size)
    pen = ImageDraw.Draw(canvas)
    for stroke, points in _strokes(strokes, size):
        _line(pen, points, stroke, size)
    out = io.BytesIO()
    canvas.save(out, "PNG")
    return out.getvalue()


def replay(strokes, size: int = REPLAY_SIZE, frames: int = REPLAY_FRAMES) -> bytes:
    """An animated GIF (looping) that draws the strokes point by point in `frames` steps,
    then holds the finished drawing."""
    plan = list(_strokes(strokes, size))
    total = sum(len(points) for _, points in plan)
    canvas = _paper(size)
    pen = ImageDraw.Draw(canvas)
    shots, drawn = [], 0
    cursor = [0, 0]      # the stroke and the point within it drawn up to
    for step in range(1, max(1, min(frames, total)) + 1):
        goal = total * step // max(1, min(frames, total))
        while drawn < goal:
            i, j = cursor
            stroke, points = plan[i]
            upto = min(len(points), j + goal - drawn)
            # from the last point drawn, so the line joins up across frames
            _line(pen, points[max(0, j - 1):upto], stroke, size)
            drawn += upto - j
            cursor = [i + 1, 0] if upto == len(points) else [i, upto]
        shots.append(canvas.copy())
    durations = [FRAME_MS] * (len(shots) - 1) + [HOLD_MS]
    out = io.BytesIO()
    shots[0].save(out, "GIF", save_all=True, append_images=shots[1:], duration=durations,
                  loop=0, disposal=1)
    return out.getvalue()


def _paper(size: int) -> Image.Image:
    """A white canvas in palette mode (ImageDraw adds each stroke's colour to the palette), so
    the replay's frames are copies, with no quantizing."""
    canvas = Image.new("P", (size, size), 0)
    canvas.putpalette(PAPER)
    return canvas


def _strokes(strokes, size: int):
    """(stroke, [(x, y) in pixels]) for each well-formed stroke, MAX_POINTS in all."""
    k = (size - 1) / SCALE
    left = MAX_POINTS
    for stroke in strokes if isinstance(strokes, list) else []:
        flat = stroke.get("p") if isinstance(stroke, dict) else None
        if not isinstance(flat, list) or len(flat) < 2 or left <= 0:
            continue
        coords = [min(max(v, 0), SCALE) if isinstance(v, (int, float)) else 0 for v in flat]
        points = [(coords[n] * k, coords[n + 1] * k) for n in range(0, len(coords) - 1, 2)][:left]
        left -= len(points)
        yield stroke, points


def _line(pen: ImageDraw.ImageDraw, points: list, stroke: dict, size: int) -> None:
    """One piece of a stroke with round ends, as the phone's canvas draws it."""
    if not points:
        return
    colour = _colour(stroke.get("c"))
    width = stroke.get("w") if isinstance(stroke.get("w"), (int, float)) else 4
    px = max(1, round(min(max(width, 1), 16) * size / BASE))
    if len(points) > 1:
        pen.line(points, fill=colour, width=px, joint="curve")
    r = px / 2
    for x, y in (points[0], points[-1]):
        pen.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def _colour(value) -> tuple:
    try:
        return ImageColor.getrgb(value) if isinstance(value, str) and len(value) <= 9 else INK
    except ValueError:
        return INK
