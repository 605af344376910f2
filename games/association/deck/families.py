"""The scene families: how each kind of card is laid out and how its objects relate."""
from __future__ import annotations

from . import scene
from .scene import H, PALETTES, W, f, mix

TETHERED = {"BALLOON", "KITE", "IZAKAYA LANTERN", "YO-YO"}


def _backdrop(c, horizon: float, layers: int = 3, light_y: float | None = None) -> tuple:
    """Sky, light and hills; returns (light x, light y, light r, [ridges]) with hills not yet drawn."""
    pal, rng = c.palette, c.rng
    c.add(scene.sky(pal, c.uid, rng))
    lx = W * (0.18 + 0.64 * rng.random())
    ly = light_y if light_y is not None else H * (0.1 + 0.16 * rng.random())
    lr = 22 + rng.random() * 16
    c.add(scene.light(pal, c.uid, lx, ly, lr, rng))
    hills = PALETTES[pal][5]
    made = []
    for k in range(layers):
        base = horizon + k * (H - horizon) * 0.3
        svg, pts = scene.hill(rng, base, 55 - 12 * k, hills[k], 0.8 + 0.1 * k,
                              sharp=(k == 0 and rng.random() < 0.4), n=6 + k)
        made.append((svg, pts))
    return lx, ly, lr, made


def _fog(c, ys):
    if c.palette in ("fog", "storm", "snow"):
        c.add(scene.fog_bands(c.palette, c.uid, c.rng, ys))


def _sky_object(c, name, x, y, size, tether_to=None):
    rot = (c.rng.random() - 0.5) * 40
    bx, by, bw, bh = c.float(name, x, y, size, rot, flip=c.rng.random() < 0.5)
    if tether_to and name in TETHERED:
        c.string(x, by + bh * 0.95, *tether_to)


def landscape(c, slots):
    rng = c.rng
    horizon = H * (0.5 + 0.08 * rng.random())
    lx, ly, lr, hills = _backdrop(c, horizon)
    c.add(hills[0][0])
    _fog(c, [horizon - 10])
    gx = W * (0.3 + 0.4 * rng.random())
    ground_mid = scene.height_at(hills[1][1], gx)
    top = None
    if "giant" in slots:
        x0, y0, w, h = c.place(slots["giant"], gx, ground_mid + 30, 210 + rng.random() * 50,
                               (rng.random() - .5) * 10, flip=rng.random() < .5, haze=True)
        top = (gx, y0)
    c.add(hills[1][0])
    _fog(c, [H * 0.72])
    c.add(hills[2][0])
    fx = W * 0.22 if gx > W / 2 else W * 0.78
    fy = scene.height_at(hills[2][1], fx) + 40
    anchor = None
    if "ground" in slots:
        x0, y0, w, h = c.place(slots["ground"], fx, fy, 115 + rng.random() * 30,
                               (rng.random() - .5) * 12, flip=rng.random() < .5, shadow=True)
        anchor = (fx + w * 0.25, y0 + h * 0.3)
    if "perched" in slots and top:
        c.place(slots["perched"], top[0] + (rng.random() - .5) * 30, top[1] + 16, 72)
    if "sky" in slots:
        sx = W - lx if abs(W - lx - lx) > 60 else (lx + W / 2) % W
        tether = anchor if slots["sky"] in TETHERED else None
        _sky_object(c, slots["sky"], max(60, min(W - 60, sx)), H * (0.17 + 0.12 * rng.random()),
                    110 + rng.random() * 26, tether)
        if tether is None and PALETTES[c.palette][8] != "rays" and rng.random() < 0.45:
            c.add(scene.ladder(W - fx, scene.height_at(hills[2][1], W - fx) + 10,
                               lx + (8 if lx > W - fx else -8), ly + lr * .6, mix(c.ink, "#8a6a4a", .5)))
    c.add(scene.weather(c.palette, rng))


def sea(c, slots):
    rng = c.rng
    horizon = H * (0.5 + 0.06 * rng.random())
    c.add(scene.sky(c.palette, c.uid, rng))
    lx, ly, lr = W * (0.2 + 0.6 * rng.random()), H * (0.12 + 0.2 * rng.random()), 26
    c.add(scene.light(c.palette, c.uid, lx, ly, lr, rng))
    island, pts = scene.hill(rng, horizon + 6, 30, PALETTES[c.palette][5][0], .8, n=5)
    c.add(f'<clipPath id="above{c.uid}"><rect width="{W}" height="{f(horizon)}"/></clipPath>'
          f'<g clip-path="url(#above{c.uid})" opacity=".7">{island}</g>')
    c.add(scene.water(c.palette, c.uid, horizon, lx, rng))
    _fog(c, [horizon])
    gx = W * (0.25 + 0.5 * rng.random())
    if "giant" in slots:
        c.place(slots["giant"], gx, horizon + 12, 170 + rng.random() * 50, (rng.random() - .5) * 8,
                flip=rng.random() < .5, haze=True, mirror_at=horizon + 12)
    fx = W * 0.25 if gx > W / 2 else W * 0.75
    fy = H * 0.86
    c.add(f'<ellipse cx="{f(fx)}" cy="{f(fy + 4)}" rx="92" ry="20" fill="{PALETTES[c.palette][5][2]}"/>')
    c.add(f'<ellipse cx="{f(fx)}" cy="{f(fy + 12)}" rx="104" ry="9" fill="#ffffff" opacity=".18"/>')
    if "ground" in slots:
        c.place(slots["ground"], fx, fy + 4, 115 + rng.random() * 20, (rng.random() - .5) * 10,
                flip=rng.random() < .5, shadow=True)
    if "sky" in slots:
        _sky_object(c, slots["sky"], W - lx if abs(W - 2 * lx) > 80 else W * .5, H * .22, 112)
    c.add(scene.weather(c.palette, rng))


def room(c, slots):
    rng = c.rng
    top, mid, bottom, light_c, halo, hills, haze, ink, kind = PALETTES[c.palette]
    wall = mix(mid, "#e9dcc4", 0.55)
    floor_y = H * 0.7
    c.add(f'<rect width="{W}" height="{H}" fill="{wall}"/>')
    for x in range(0, W, 28):
        c.add(f'<rect x="{x}" y="0" width="12" height="{f(floor_y)}" fill="{mix(wall, ink, .06)}"/>')
    floor = mix(hills[2], "#7a5434", 0.55)
    c.add(f'<path d="M0 {f(floor_y)}H{W}V{H}H0Z" fill="{floor}"/>')
    for k in range(1, 9):
        x = W / 2 + (k - 4.5) * 70
        c.add(f'<line x1="{f(W / 2 + (k - 4.5) * 30)}" y1="{f(floor_y)}" x2="{f(x)}" y2="{H}" '
              f'stroke="{mix(floor, ink, .35)}" stroke-width="1.5" opacity=".5"/>')
    c.add(f'<rect x="0" y="{f(floor_y - 8)}" width="{W}" height="8" fill="{mix(wall, ink, .3)}"/>')
    window_left = rng.random() < 0.5
    wx, wy, ww, wh = (34 if window_left else W - 34 - 130), 70, 130, 180
    c.add(f'<clipPath id="win{c.uid}"><rect x="{wx}" y="{wy}" width="{ww}" height="{wh}"/></clipPath>')
    c.add(f'<g clip-path="url(#win{c.uid})">')
    c.add(scene.sky(c.palette, c.uid, rng, wx, wy, ww, wh))
    c.add(scene.light(c.palette, c.uid, wx + ww * .7, wy + 40, 14, rng))
    hill_svg, _ = scene.hill(rng, wy + wh - 30, 25, hills[0], .9, n=4)
    c.add(hill_svg)
    if "window" in slots:
        c.float(slots["window"], wx + ww * .42, wy + wh * .45, 84, (rng.random() - .5) * 30)
    c.add("</g>")
    frame = mix(ink, "#8a6a4a", 0.6)
    c.add(f'<rect x="{wx}" y="{wy}" width="{ww}" height="{wh}" fill="none" stroke="{frame}" stroke-width="7"/>'
          f'<line x1="{wx + ww / 2}" y1="{wy}" x2="{wx + ww / 2}" y2="{wy + wh}" stroke="{frame}" stroke-width="4"/>'
          f'<line x1="{wx}" y1="{wy + wh / 2}" x2="{wx + ww}" y2="{wy + wh / 2}" stroke="{frame}" stroke-width="4"/>')
    c.add(f'<path d="M{wx} {wy + wh} L{wx + ww} {wy + wh} L{wx + ww + 90} {f(floor_y + 120)} '
          f'L{wx + 40} {f(floor_y + 120)}Z" fill="{light_c}" opacity=".12"/>')
    dx = W - 34 - 96 if window_left else 34
    dw, dh = 96, 200
    dy = floor_y - dh
    c.add(f'<rect x="{dx - 6}" y="{f(dy - 6)}" width="{dw + 12}" height="{dh + 6}" fill="{frame}"/>'
          f'<rect x="{dx}" y="{f(dy)}" width="{dw}" height="{dh}" fill="url(#glow{c.uid})"/>'
          f'<rect x="{dx}" y="{f(dy)}" width="{dw}" height="{dh}" fill="#ffe7a8" opacity=".55"/>')
    leaf = (f'M{dx} {f(dy)} L{dx - 34 if not window_left else dx + dw + 34} {f(dy + 14)} '
            f'L{dx - 34 if not window_left else dx + dw + 34} {f(floor_y + 12)} L{dx} {f(floor_y)}Z')
    leaf = leaf if not window_left else leaf.replace(f"M{dx} ", f"M{dx + dw} ").replace(f"L{dx} ", f"L{dx + dw} ")
    c.add(f'<path d="{leaf}" fill="{mix(frame, wall, .3)}" stroke="{ink}" stroke-width="1.5"/>')
    c.add(f'<path d="M{dx} {f(floor_y)} L{dx + dw} {f(floor_y)} L{dx + dw + 50} {H} L{dx - 50} {H}Z" '
          f'fill="#ffe7a8" opacity=".18"/>')
    if "door" in slots:
        c.place(slots["door"], dx + dw / 2, floor_y + 10, 92, flip=rng.random() < .5, shadow=True)
    if "giant" in slots:
        gx = W * 0.5 + (40 if window_left else -40)
        c.place(slots["giant"], gx, H * 0.95, 200 + rng.random() * 40, (rng.random() - .5) * 8,
                flip=rng.random() < .5, shadow=True)
    c.add(scene.weather(c.palette, rng) if c.palette == "underwater" else "")


def doorway(c, slots):
    rng = c.rng
    horizon = H * 0.55
    lx, ly, lr, hills = _backdrop(c, horizon)
    c.add(hills[0][0])
    door_left = rng.random() < 0.5
    dx = W * ((0.12 if door_left else 0.52) + 0.12 * rng.random())
    dw, dh = 104, 190
    if "giant" in slots:
        gx = W * (0.74 if door_left else 0.26)
        c.place(slots["giant"], gx, scene.height_at(hills[1][1], gx) + 25, 180, haze=True,
                flip=rng.random() < .5)
    c.add(hills[1][0])
    _fog(c, [H * .7])
    c.add(hills[2][0])
    other = "night" if c.palette not in scene.NIGHTLY else "dawn"
    dy_bottom = scene.height_at(hills[2][1], dx + dw / 2) + 50
    dy = dy_bottom - dh
    c.add(f'<path d="M{f(dx)} {f(dy_bottom)} L{f(dx + dw)} {f(dy_bottom)} L{f(dx + dw + 70)} {H} '
          f'L{f(dx - 70)} {H}Z" fill="#fff1c0" opacity=".25"/>')
    c.add(f'<clipPath id="door{c.uid}"><rect x="{f(dx)}" y="{f(dy)}" width="{dw}" height="{dh}"/></clipPath>'
          f'<g clip-path="url(#door{c.uid})"><rect x="{f(dx)}" y="{f(dy)}" width="{dw}" height="{dh}" '
          f'fill="{PALETTES[other][0]}"/><rect x="{f(dx)}" y="{f(dy + dh * .5)}" width="{dw}" '
          f'height="{dh / 2}" fill="{PALETTES[other][2]}" opacity=".8"/>')
    for _ in range(14):
        c.add(f'<circle cx="{f(dx + rng.random() * dw)}" cy="{f(dy + rng.random() * dh * .6)}" '
              f'r="{f(.8 + rng.random())}" fill="#fffbe8"/>')
    c.add(f'<circle cx="{f(dx + dw * .65)}" cy="{f(dy + 45)}" r="16" fill="{PALETTES[other][3]}"/></g>')
    frame = mix(c.ink, "#a07850", 0.55)
    c.add(f'<rect x="{f(dx - 7)}" y="{f(dy - 8)}" width="{dw + 14}" height="{dh + 8}" fill="none" '
          f'stroke="{frame}" stroke-width="9"/>')
    c.add(f'<ellipse cx="{f(dx + dw / 2)}" cy="{f(dy_bottom)}" rx="{dw * .75}" ry="8" fill="{c.ink}" '
          f'opacity=".3" filter="url(#soft{c.uid})"/>')
    anchor = None
    if "door" in slots:
        x0, y0, w, h = c.place(slots["door"], dx + dw * .62, dy_bottom + 30, 112, flip=rng.random() < .5,
                               shadow=True)
        anchor = (x0 + w * .7, y0 + h * .3)
    if "sky" in slots:
        sx = W * .7 if door_left else W * .3
        _sky_object(c, slots["sky"], sx, H * .2, 112, anchor if slots["sky"] in TETHERED else None)
    c.add(scene.weather(c.palette, rng))


def stairs(c, slots):
    rng = c.rng
    horizon = H * 0.6
    lx, ly, lr, hills = _backdrop(c, horizon, layers=2)
    for svg, _ in hills:
        c.add(svg)
    _fog(c, [H * .62])
    left = rng.random() < 0.5
    n, step_w, step_h = 12, 26, 27
    stone = mix(PALETTES[c.palette][6], "#f5efe0", 0.5)
    side = mix(stone, c.ink, 0.35)
    sign = 1 if left else -1
    x0, y0 = (18 if left else W - 18), H - 30
    prof = [(x0, H + 5), (x0, y0)]
    for i in range(n):
        x, y = x0 + sign * i * step_w, y0 - i * step_h
        prof += [(x, y - step_h), (x + sign * step_w, y - step_h)]
    end_x, end_y = prof[-1]
    under = [(end_x, end_y + 34), (x0 + sign * 60, H + 5)]
    pts = " ".join(f"{f(x)},{f(y)}" for x, y in prof + under)
    c.add(f'<polygon points="{pts}" fill="{side}" stroke="{c.ink}" stroke-width="2"/>')
    for i in range(n):
        x, y = x0 + sign * i * step_w, y0 - (i + 1) * step_h
        c.add(f'<rect x="{f(min(x, x + sign * (step_w + 12)))}" y="{f(y)}" width="{step_w + 12}" height="7" '
              f'fill="{stone}" stroke="{c.ink}" stroke-width="1.2"/>')
    top_x, top_y = end_x - sign * step_w / 2, end_y
    c.add(f'<ellipse cx="{f(end_x)}" cy="{f(end_y + 40)}" rx="40" ry="14" fill="#ffffff" opacity=".35" '
          f'filter="url(#soft{c.uid})"/>')
    if "top" in slots:
        c.place(slots["top"], top_x, top_y + 3, 130, flip=rng.random() < .5, shadow=True)
    if "ground" in slots:
        i = 3
        c.place(slots["ground"], x0 + sign * (i + .5) * step_w, y0 - (i + 1) * step_h + 4, 86,
                flip=not left, shadow=True)
    if "sky" in slots:
        _sky_object(c, slots["sky"], W * .32 if left else W * .68, H * .2, 112)
    c.add(scene.weather(c.palette, rng))


def dwelling(c, slots):
    rng = c.rng
    horizon = H * 0.56
    lx, ly, lr, hills = _backdrop(c, horizon)
    c.add(hills[0][0])
    c.add(hills[1][0])
    _fog(c, [H * .66])
    hx = W * (0.35 + 0.3 * rng.random())
    hy = scene.height_at(hills[1][1], hx) + 40
    x0, y0, w, h = c.place(slots["house"], hx, hy, 200 + rng.random() * 30, flip=rng.random() < .5,
                           shadow=True)
    door_w, door_h = 26, 38
    c.add(f'<path d="M{f(hx - door_w / 2)} {f(hy - 6)} v{-door_h + 13} a13 13 0 0 1 26 0 v{door_h - 13}Z" '
          f'fill="#ffd98a" stroke="{c.ink}" stroke-width="2.5"/>')
    wy = y0 + h * 0.38
    c.add(f'<circle cx="{f(hx + w * .18)}" cy="{f(wy)}" r="22" fill="url(#glow{c.uid})"/>'
          f'<rect x="{f(hx + w * .18 - 9)}" y="{f(wy - 9)}" width="18" height="18" rx="3" fill="#ffe49a" '
          f'stroke="{c.ink}" stroke-width="2.5"/>')
    path = mix(PALETTES[c.palette][6], "#f6e7c0", 0.5)
    c.add(f'<path d="M{f(hx - 10)} {f(hy - 4)} C{f(hx - 50)} {f(hy + 50)} {f(hx + 40)} {f(H - 80)} '
          f'{f(hx - 70)} {H + 5} L{f(hx + 30)} {H + 5} C{f(hx + 90)} {f(H - 80)} {f(hx - 20)} '
          f'{f(hy + 50)} {f(hx + 10)} {f(hy - 4)}Z" fill="{path}" opacity=".45"/>')
    anchor = None
    if "ground" in slots:
        fx = hx - 90 if hx > W / 2 else hx + 90
        x1, y1, w1, h1 = c.place(slots["ground"], fx, H * .92, 100, flip=fx > hx, shadow=True)
        anchor = (x1 + w1 * .5, y1 + h1 * .2)
    if "sky" in slots:
        _sky_object(c, slots["sky"], W - lx if abs(W - 2 * lx) > 80 else W * .8, H * .2, 108,
                    anchor if slots["sky"] in TETHERED else None)
    c.add(scene.weather(c.palette, rng))


DRAW = {"landscape": landscape, "sea": sea, "room": room, "doorway": doorway, "stairs": stairs,
        "dwelling": dwelling}
