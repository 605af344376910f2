"""How a sketch bot draws: a small library of line drawings kept as data (`drawings.json`).

`drawings.json` holds `drawings` (an English key -> strokes in the stored compact form:
`{"c": colour, "w": width, "p": [x0, y0, x1, y1, ...]}` in thousandths of the board, "*" is the
generic doodle for a word without a drawing) and `words` (a built-in word in en/uk/ru -> its key).
`strokes_for(word)` turns a word's drawing into `stroke` actions within the stream's limits.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from games.sketch.rules.constants import MAX_POINTS_PER_BATCH, MAX_POINTS_PER_BOARD
from games.sketch.rules.matcher import normalise

FALLBACK = "*"


@lru_cache(maxsize=1)
def library() -> dict:
    data = json.loads((Path(__file__).with_name("drawings.json")).read_text(encoding="utf-8"))
    return {"drawings": data["drawings"],
            "words": {normalise(w): key for w, key in data["words"].items()}}


def drawing_for(word: str) -> tuple[str, list[dict]]:
    """(the library key used, its strokes): the word's own drawing or the generic doodle."""
    lib = library()
    key = lib["words"].get(normalise(word or ""), FALLBACK)
    return key, lib["drawings"][key]


def strokes_for(board: int, word: str) -> list[dict]:
    """The `stroke` actions that draw `word` on `board`: long lines are sent in batches of at
    most MAX_POINTS_PER_BATCH points joined into one stroke; never more than a board holds."""
    _, strokes = drawing_for(word)
    actions, total = [], 0
    for s in strokes:
        pts = [[s["p"][i] / 1000, s["p"][i + 1] / 1000] for i in range(0, len(s["p"]) - 1, 2)]
        if total + len(pts) > MAX_POINTS_PER_BOARD:
            break
        total += len(pts)
        for k in range(0, len(pts), MAX_POINTS_PER_BATCH):
            a = {"type": "stroke", "board": board, "points": pts[k:k + MAX_POINTS_PER_BATCH],
                 "color": s["c"], "width": s["w"]}
            if k:
                a["join"] = True
            actions.append(a)
    return actions


def stream_moves(view: dict) -> list[dict]:
    """For a bot's view: the strokes for the first board it may draw on that has a word and no
    lines yet (empty when there is none)."""
    g = view.get("game") or {}
    you = g.get("you") or {}
    if g.get("phase") != "drawing" or not isinstance(you.get("boards"), list):
        return []
    for i in you.get("drawable") or []:
        b = you["boards"][i] if i < len(you["boards"]) else None
        if b and b.get("word") and not b.get("strokes"):
            return strokes_for(i, b["word"])
    return []


def sensible(view: dict, actions: list) -> list:
    """A bot puts a word on a board once and draws it, instead of trading words forever."""
    you = (view.get("game") or {}).get("you") or {}
    worded = {i for i, b in enumerate(you.get("boards") or []) if b.get("word")}
    return [a for a in actions if not (a.get("type") == "draw" and a.get("board") in worded)]
