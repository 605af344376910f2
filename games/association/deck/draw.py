"""One card's SVG from its plan: a painted scene with OpenMoji and Openclipart drawings placed
in relation."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

from . import clipart, emoji, outdoors, rooms, stage, wonders
from .scene import H, PALETTES, W, defs, f

CARD_W, CARD_H, BORDER = 400, 600, 14
BOXES = json.loads((Path(__file__).parent / "boxes.json").read_text())
BLACK = re.compile(r'([":])(?:#000000|#000|black)(?=[";\s])')     # outlines drawn in the palette's ink


def drawing(name: str) -> str:
    """The SVG of a drawing the deck may use: an Openclipart one (clipart.json) or an OpenMoji one."""
    return clipart.inner(name) if clipart.is_clip(name) else emoji.inner(name)


class Canvas:
    """Collects the scene's SVG and places emoji by their measured boxes."""

    def __init__(self, palette: str, uid: str, rng: random.Random):
        self.palette, self.uid, self.rng = palette, uid, rng
        self.ink = PALETTES[palette][7]
        self.parts: list[str] = []
        self.features: list[str] = []
        self.boxes: dict[str, tuple] = {}      # key -> (x, y, w, h) of what was placed
        self.allowed: set[frozenset] = set()   # pairs of keys whose overlap a relation asks for

    def relate(self, a: str, b: str) -> None:
        """`a` and `b` touch on purpose (one carries, holds, sits in or reflects the other)."""
        self.allowed.add(frozenset((a, b)))

    def box(self, key: str, box: tuple) -> tuple:
        self.boxes[key] = tuple(box)
        return box

    def add(self, svg: str) -> None:
        self.parts.append(svg)

    def body(self, name: str) -> str:
        return BLACK.sub(lambda m: m.group(1) + self.ink, drawing(name))

    def place(self, name: str, cx: float, bottom: float, size: float, rot: float = 0.0,
              flip: bool = False, haze: bool = False, shadow: bool = False,
              mirror_at: float | None = None, key: str | None = None) -> tuple:
        """Draw `name` with its box's bottom centre at (cx, bottom), largest side `size`."""
        bx, by, bw, bh = BOXES[name]
        s = size / max(bw, bh)
        w, h = bw * s, bh * s
        sx = -s if flip else s
        inner = (f'scale({f(sx)} {f(s)}) translate({f(-(bx + bw / 2))} {f(-(by + bh))})')
        filt = f' filter="url(#haze{self.uid})"' if haze else ""
        if shadow:
            self.add(f'<ellipse cx="{f(cx)}" cy="{f(bottom - 2)}" rx="{f(w * .48)}" ry="{f(max(4, w * .07))}" '
                     f'fill="{self.ink}" opacity=".33" filter="url(#soft{self.uid})"/>')
        body = self.body(name)
        clip = clipart.is_clip(name)
        if clip:                           # Openclipart: the ink line and flat colour (clipart.treatment)
            self.add(f'<g filter="url(#oc{self.uid})">')
        if mirror_at is not None:
            my = 2 * mirror_at - bottom
            self.add(f'<g opacity=".3" transform="translate({f(cx)} {f(my)}) rotate({f(-rot)}) '
                     f'scale(1 -1) {inner}"{filt}>{body}</g>')
        self.add(f'<g transform="translate({f(cx)} {f(bottom)}) rotate({f(rot)}) {inner}"{filt}>'
                 f'{body}</g>')
        if clip:
            self.add('</g>')
        box = (cx - w / 2, bottom - h, w, h)
        if key:
            self.boxes[key] = box
        return box

    def float(self, name: str, cx: float, cy: float, size: float, rot: float = 0.0, **kw) -> tuple:
        bx, by, bw, bh = BOXES[name]
        h = bh * size / max(bw, bh)
        return self.place(name, cx, cy + h / 2, size, rot, **kw)

    def string(self, x1: float, y1: float, x2: float, y2: float) -> None:
        mx, my = (x1 + x2) / 2 + 18, (y1 + y2) / 2
        self.add(f'<path d="M{f(x1)} {f(y1)} Q{f(mx)} {f(my)} {f(x2)} {f(y2)}" stroke="{self.ink}" '
                 f'stroke-width="1.6" fill="none" opacity=".8"/>')


# palette -> (wash colour, opacity): one glaze over the whole scene that gives each palette
# its own cast of light (grey palettes too), so the deck spreads over the colour wheel
WASH = {"storm": ("#3f8f86", .34), "fog": ("#7fd0bc", .46), "desert": ("#ffd34d", .3),
        "dawn": ("#b99cff", .3), "snow": ("#9cc0ff", .34), "autumn": ("#ffc640", .34),
        "candle": ("#ff9a40", .2)}


def painterly(uid: str, seed: int) -> str:
    """The one treatment every card gets: ink that wobbles, paper grain, and light that falls
    off away from one side of the scene (a light from the left or the right, not the middle)."""
    rng = random.Random(f"vignette:{uid}")
    return (
        f'<filter id="paint{uid}" x="-2%" y="-2%" width="104%" height="104%">'
        f'<feTurbulence type="fractalNoise" baseFrequency=".035" numOctaves="3" seed="{seed % 997}" result="n"/>'
        f'<feDisplacementMap in="SourceGraphic" in2="n" scale="7" xChannelSelector="R" '
        f'yChannelSelector="G" result="d"/>'
        f'<feTurbulence type="fractalNoise" baseFrequency=".9" numOctaves="2" seed="{seed % 991}" result="g"/>'
        f'<feColorMatrix in="g" type="matrix" values="0 0 0 0 .5  0 0 0 0 .45  0 0 0 0 .4  0 0 0 .22 0" '
        f'result="ga"/><feComposite in="ga" in2="d" operator="in" result="gi"/>'
        f'<feBlend in="gi" in2="d" mode="overlay"/></filter>'
        f'<radialGradient id="vig{uid}" cx="{f(rng.choice((.1, .9)) + (rng.random() - .5) * .2)}" '
        f'cy="{f(.2 + .6 * rng.random())}" r="{f(.85 + .2 * rng.random())}"><stop offset=".5" stop-color="#000" '
        f'stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".5"/></radialGradient>'
    )


def paint(card: dict, seed: int) -> Canvas:
    """The card's scene drawn on a canvas (its parts and the boxes of what it placed)."""
    uid = card["id"]
    roll = f"{seed}:{uid}:draw" + (f":{card['variant']}" if card.get("variant") else "")
    canvas = Canvas(card["palette"], uid, random.Random(roll))
    {**outdoors.DRAW, **wonders.DRAW, **rooms.DRAW}[card["family"]](canvas, card)
    if card["family"] not in ("theatre", "underwater_room", "shadow"):
        stage.framing(canvas, water=card["family"] in ("sea", "inside", "creature_city"))
    return canvas


def silhouette(uid: str, ink: str) -> str:
    """A drawing filled with ink and blurred: the shadow something casts on a wall."""
    return (f'<filter id="silhouette{uid}" x="-10%" y="-10%" width="120%" height="120%">'
            f'<feFlood flood-color="{ink}"/><feComposite in2="SourceAlpha" operator="in"/>'
            f'<feGaussianBlur stdDeviation="2.5"/></filter>')


def card_svg(card: dict, seed: int) -> str:
    uid = card["id"]
    canvas = paint(card, seed)
    scene_svg = "".join(canvas.parts)
    if card.get("mirror"):
        scene_svg = f'<g transform="translate({W} 0) scale(-1 1)">{scene_svg}</g>'
    tint, glaze = WASH.get(card["palette"], (PALETTES[card["palette"]][4], .1))
    inner_w, inner_h = CARD_W - 2 * BORDER, CARD_H - 2 * BORDER
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CARD_W} {CARD_H}" '
        f'width="{CARD_W}" height="{CARD_H}"><defs>{defs(card["palette"], uid)}'
        f'{painterly(uid, int(uid[1:]) * 31 + 7)}{silhouette(uid, canvas.ink)}'
        f'{clipart.treatment(uid, canvas.ink)}'
        f'<clipPath id="clip{uid}"><rect width="{inner_w}" height="{inner_h}" rx="12"/></clipPath>'
        f'</defs><rect width="{CARD_W}" height="{CARD_H}" rx="22" fill="#f3ead6"/>'
        f'<rect x="3" y="3" width="{CARD_W - 6}" height="{CARD_H - 6}" rx="20" fill="none" '
        f'stroke="#d9ccb0" stroke-width="2"/>'
        f'<g transform="translate({BORDER} {BORDER})" clip-path="url(#clip{uid})">'
        f'<g filter="url(#paint{uid})">{scene_svg}'
        f'<rect width="{W}" height="{H}" fill="{tint}" opacity="{f(glaze)}" style="mix-blend-mode:multiply"/>'
        f'</g><rect width="{W}" height="{H}" fill="url(#vig{uid})"/></g>'
        f'<rect x="{BORDER}" y="{BORDER}" width="{inner_w}" height="{inner_h}" rx="12" fill="none" '
        f'stroke="#3b3024" stroke-opacity=".35" stroke-width="1.5"/></svg>'
    )
