"""The story deck's outdoor scene families: each draws its card's plan with things in relation."""
from __future__ import annotations

import math

from . import scene
from .scene import H, PALETTES, W, f, mix
from .stage import backdrop, fog, hero, prop, weather


def _j(c, a: float, b: float) -> float:
    return a + (b - a) * c.rng.random()


def waterside(c, card, lo: float, hi: float) -> tuple[float, float]:
    """Sky over open water from a horizon between lo and hi (of H); returns (horizon, light x)."""
    horizon = H * _j(c, lo, hi)
    lx, _, _ = backdrop(c, card, horizon, layers=0)
    c.add(scene.water(c.palette, c.uid, horizon, lx, c.rng))
    return horizon, lx


def land(c, card, lo: float, hi: float, layers: int) -> float:
    """Sky and every hill drawn, from a horizon between lo and hi (of H); returns it."""
    horizon = H * _j(c, lo, hi)
    _, _, hills = backdrop(c, card, horizon, layers=layers)
    for svg, _ in hills:
        c.add(svg)
    return horizon


def journey(c, card):
    s = card["slots"]
    horizon = H * _j(c, .46, .6)
    _, _, hills = backdrop(c, card, horizon)
    c.add(hills[0][0])
    gx = W * _j(c, .6, .74)
    prop(c, s["giant"], gx, scene.height_at(hills[0][1], gx) + 26, _j(c, 140, 180), "giant", haze=True)
    c.add(hills[1][0])
    fog(c, [H * .7])
    c.add(hills[2][0])
    hx = W * _j(c, .16, .26)
    ground = scene.height_at(hills[2][1], hx) + _j(c, 50, 80)
    pale = mix(PALETTES[c.palette][6], "#f6e7c0", .5)
    c.add(f'<path d="M{f(hx - 30)} {H + 5} C{f(hx)} {f(ground - 60)} {f(gx - 60)} {f(horizon + 60)} {f(gx)} '
          f'{f(horizon + 24)} C{f(gx - 30)} {f(horizon + 70)} {f(hx + 80)} {f(ground - 40)} {f(hx + 60)} {H + 5}Z" '
          f'fill="{pale}" opacity=".4"/>')
    hero(c, card, hx, ground, _j(c, 105, 130))
    weather(c)


def sea(c, card):
    s = card["slots"]
    horizon, _ = waterside(c, card, .34, .6)
    fx = W * _j(c, .62, .8)
    prop(c, s["far"], fx, horizon + 14, _j(c, 90, 130), "far", shade=False, mirror_at=horizon + 14, haze=True)
    fog(c, [horizon])
    bx, by = W * _j(c, .26, .42), H * _j(c, .8, .9)
    x0, y0, w, h = prop(c, s["boat"], bx, by, _j(c, 150, 180), "boat", shade=False, mirror_at=by)
    if hero(c, card, bx, y0 + h * .62, 82):
        c.relate("hero", "boat")
    weather(c)


def stairs(c, card):
    rng = c.rng
    land(c, card, .55, .68, 2)
    fog(c, [H * .62])
    n, step_w, step_h = rng.randrange(9, 13), _j(c, 22, 28), _j(c, 26, 32)
    stone = mix(PALETTES[c.palette][6], "#f5efe0", 0.5)
    x0, y0 = 18, H - 30
    prof = [(x0, H + 5), (x0, y0)]
    for i in range(n):
        x, y = x0 + i * step_w, y0 - i * step_h
        prof += [(x, y - step_h), (x + step_w, y - step_h)]
    end_x, end_y = prof[-1]
    pts = " ".join(f"{f(x)},{f(y)}" for x, y in prof + [(end_x, end_y + 34), (x0 + 60, H + 5)])
    c.add(f'<polygon points="{pts}" fill="{mix(stone, c.ink, .35)}" stroke="{c.ink}" stroke-width="2"/>')
    for i in range(n):
        c.add(f'<rect x="{f(x0 + i * step_w)}" y="{f(y0 - (i + 1) * step_h)}" width="{f(step_w + 12)}" '
              f'height="7" fill="{stone}" stroke="{c.ink}" stroke-width="1.2"/>')
    c.add(f'<ellipse cx="{f(end_x)}" cy="{f(end_y + 40)}" rx="40" ry="14" fill="#ffffff" opacity=".35" '
          f'filter="url(#soft{c.uid})"/>')
    i = rng.randrange(n // 3, n // 2 + 1)
    hero(c, card, x0 + (i + .5) * step_w, y0 - (i + 1) * step_h + 4, 82)
    c.float(card["slots"]["sky"], min(W - 60, end_x + 70), max(70, end_y - 110), 92,
            (rng.random() - .5) * 20, key="sky")
    weather(c)


def doorway(c, card):
    rng, s = c.rng, card["slots"]
    land(c, card, .5, .6, 3)
    dx, dw, dh = W * _j(c, .3, .6), 100, _j(c, 160, 200)
    ground = H * _j(c, .76, .84)
    dy = ground - dh
    other = "night" if c.palette not in scene.NIGHTLY else "dawn"
    c.add(f'<path d="M{f(dx)} {f(ground)} L{f(dx + dw)} {f(ground)} L{f(dx + dw + 70)} {H} L{f(dx - 70)} {H}Z" '
          f'fill="#fff1c0" opacity=".25"/>')
    c.add(f'<rect x="{f(dx)}" y="{f(dy)}" width="{dw}" height="{dh}" fill="{PALETTES[other][0]}"/>'
          f'<rect x="{f(dx)}" y="{f(dy + dh * .55)}" width="{dw}" height="{f(dh * .45)}" fill="{PALETTES[other][2]}"/>')
    for _ in range(12):
        c.add(f'<circle cx="{f(dx + rng.random() * dw)}" cy="{f(dy + rng.random() * dh * .5)}" '
              f'r="{f(.8 + rng.random())}" fill="#fffbe8"/>')
    c.add(f'<rect x="{f(dx - 7)}" y="{f(dy - 8)}" width="{dw + 14}" height="{dh + 8}" fill="none" '
          f'stroke="{mix(c.ink, "#a07850", .55)}" stroke-width="9"/>')
    c.box("door", (dx - 7, dy - 8, dw + 14, dh + 8))
    prop(c, s["comes"], dx + dw * .55, ground + 6, 96, "comes")
    c.relate("comes", "door")
    hx = W * _j(c, .12, .18) if dx > W * .42 else W * _j(c, .84, .88)
    hero(c, card, hx, H * _j(c, .9, .96), 100)
    weather(c)


def dwelling(c, card):
    s = card["slots"]
    horizon = H * _j(c, .5, .6)
    _, _, hills = backdrop(c, card, horizon)
    c.add(hills[0][0])
    c.add(hills[1][0])
    fog(c, [H * .66])
    hx = W * _j(c, .5, .66)
    hy = scene.height_at(hills[1][1], hx) + 40
    x0, y0, w, h = prop(c, s["house"], hx, hy, _j(c, 190, 230), "house")
    c.add(f'<path d="M{f(hx - 13)} {f(hy - 6)} v-25 a13 13 0 0 1 26 0 v25Z" fill="#ffd98a" '
          f'stroke="{c.ink}" stroke-width="2.5"/>')
    wy = y0 + h * 0.38
    c.add(f'<circle cx="{f(hx + w * .2)}" cy="{f(wy)}" r="22" fill="url(#glow{c.uid})"/>'
          f'<rect x="{f(hx + w * .2 - 9)}" y="{f(wy - 9)}" width="18" height="18" rx="3" fill="#ffe49a" '
          f'stroke="{c.ink}" stroke-width="2.5"/>')
    c.add(hills[2][0])
    hero(c, card, W * _j(c, .16, .24), H * _j(c, .9, .96), 96)
    weather(c)


def inside(c, card):
    s = card["slots"]
    waterside(c, card, .36, .6)
    vx, vy = W * _j(c, .3, .7), H * _j(c, .78, .88)
    size = _j(c, 210, 250)
    x0, y0, w, h = prop(c, s["vessel"], vx, vy, size, "vessel", shade=False, mirror_at=vy)
    if hero(c, card, vx, y0 + h * .5, size * .42):
        c.relate("hero", "vessel")
    sea_c = mix(PALETTES[c.palette][5][2], "#0a1a2a", .3)
    c.add(f'<path d="M-10 {f(vy - 18)} q30 -12 60 0 t60 0 t60 0 t60 0 t60 0 t60 0 t60 0 V{H + 5} H-10Z" '
          f'fill="{sea_c}" opacity=".55"/>')
    weather(c)


def bridge(c, card):
    rng = c.rng
    horizon = H * _j(c, .5, .62)
    _, _, hills = backdrop(c, card, horizon, layers=1)
    c.add(hills[0][0])
    fog(c, [H * .66, H * .8])
    c.add(f'<rect y="{f(H * .7)}" width="{W}" height="{f(H * .3)}" fill="{PALETTES[c.palette][6]}" opacity=".5" '
          f'filter="url(#soft{c.uid})"/>')
    end = W * _j(c, .55, .68)
    deck_y = H * _j(c, .6, .68)
    wood = mix(c.ink, "#a07850", .55)
    c.add(f'<path d="M-10 {f(deck_y + 40)} Q{f(end * .5)} {f(deck_y - 30)} {f(end)} {f(deck_y)} '
          f'L{f(end - 8)} {f(deck_y + 22)} Q{f(end * .5)} {f(deck_y - 8)} -10 {f(deck_y + 64)}Z" '
          f'fill="{wood}" stroke="{c.ink}" stroke-width="2"/>')
    for k in range(6):
        x = k * end / 6
        c.add(f'<line x1="{f(x)}" y1="{f(deck_y + 30 - k * 6)}" x2="{f(x)}" y2="{f(H)}" stroke="{wood}" '
              f'stroke-width="5" opacity="{f(.9 - k * .12)}"/>')
    hero(c, card, end - 34, deck_y + 6, 86)
    c.float(card["slots"]["sky"], min(W - 56, end + 90), H * _j(c, .22, .34), 96,
            (rng.random() - .5) * 20, key="sky")
    weather(c)


def boatfield(c, card):
    s, rng = card["slots"], c.rng
    horizon = land(c, card, .46, .58, 3)
    grass = mix(PALETTES[c.palette][5][1], "#f0e0a0", .3)
    for _ in range(70):
        x, y = rng.random() * W, horizon + 60 + rng.random() * (H - horizon - 60)
        c.add(f'<path d="M{f(x)} {f(y)} q2 -9 {f(4 + rng.random() * 4)} -{f(10 + rng.random() * 8)}" '
              f'stroke="{grass}" stroke-width="1.6" fill="none" opacity=".8"/>')
    bx, by = W * _j(c, .3, .44), H * _j(c, .82, .9)
    x0, y0, w, h = prop(c, s["boat"], bx, by, _j(c, 150, 175), "boat")
    if hero(c, card, bx, y0 + h * .6, 80):
        c.relate("hero", "boat")
        c.relate("carry", "boat")
    prop(c, s["ground"], W * _j(c, .8, .86), H * _j(c, .66, .72), 78, "ground")
    weather(c)


def tree(c, card):
    s = card["slots"]
    land(c, card, .5, .75, 2)
    tx = W * _j(c, .55, .72)
    bark = mix(c.ink, "#7a5434", .6)
    c.add(f'<path d="M{f(tx - 40)} {H + 5} C{f(tx - 30)} {f(H * .6)} {f(tx - 36)} {f(H * .35)} {f(tx - 20)} {f(H * .2)} '
          f'L{f(tx + 24)} {f(H * .2)} C{f(tx + 34)} {f(H * .4)} {f(tx + 30)} {f(H * .6)} {f(tx + 46)} {H + 5}Z" '
          f'fill="{bark}" stroke="{c.ink}" stroke-width="2"/>')
    leaf = PALETTES[c.palette][5]
    for k in range(9):
        a = k / 9 * math.pi * 2
        c.add(f'<circle cx="{f(tx + math.cos(a) * 90)}" cy="{f(H * .16 + math.sin(a) * 50)}" r="{f(_j(c, 46, 64))}" '
              f'fill="{mix(leaf[k % 3], ("#4f8a3a", "#6fa84f", "#2f6a34")[k % 3], .55)}" opacity=".95"/>')
    by = H * _j(c, .56, .62)
    c.add(f'<path d="M{f(tx - 20)} {f(by + 8)} L{f(tx - 150)} {f(by - 4)} L{f(tx - 150)} {f(by + 6)} '
          f'L{f(tx - 20)} {f(by + 22)}Z" fill="{bark}" stroke="{c.ink}" stroke-width="2"/>')
    wx, wy = tx - 18, H * .3
    c.add(f'<rect x="{f(wx - 6)}" y="{f(wy - 6)}" width="62" height="72" rx="8" fill="{c.ink}"/>'
          f'<rect x="{f(wx)}" y="{f(wy)}" width="50" height="60" rx="6" fill="#ffe49a"/>')
    c.add(f'<rect x="{f(tx - 8)}" y="{f(H * .72)}" width="24" height="36" rx="10" fill="#ffd98a" '
          f'stroke="{c.ink}" stroke-width="2"/>')
    c.box("window", (wx - 6, wy - 6, 62, 72))
    prop(c, s["guest"], wx + 25, wy + 60, 56, "guest", shade=False)
    c.relate("guest", "window")
    hero(c, card, tx - 100, by + 4, 78)
    weather(c)


DRAW = {"journey": journey, "sea": sea, "stairs": stairs, "doorway": doorway, "dwelling": dwelling,
        "inside": inside, "bridge": bridge, "boatfield": boatfield, "tree": tree}
