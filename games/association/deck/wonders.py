"""The story deck's stranger outdoor families: a town on a creature's back, a road out of a
book, a giant's shadow, a desert of clocks."""
from __future__ import annotations

from . import scene
from .outdoors import _j, land
from .scene import H, PALETTES, W, f, mix
from .stage import backdrop, fog, hero, prop, weather


def creature_city(c, card):
    s = card["slots"]
    horizon = H * _j(c, .5, .6)
    lx, _, hills = backdrop(c, card, horizon, layers=1)
    c.add(hills[0][0])
    c.add(scene.water(c.palette, c.uid, horizon + 30, lx, c.rng))
    fog(c, [horizon + 20])
    bx, by = W * _j(c, .42, .58), H * _j(c, .66, .72)
    x0, y0, w, h = prop(c, s["bearer"], bx, by, _j(c, 230, 260), "bearer", shade=False, mirror_at=by)
    top = y0 + h * .28
    for key, dx, size in (("town", .34, 64), ("town2", .66, 54)):
        prop(c, s[key], x0 + w * dx, top + 10, size, key, shade=False)
        c.relate(key, "bearer")
    c.add(f'<ellipse cx="{f(W * .2)}" cy="{f(H * .97)}" rx="120" ry="36" fill="{PALETTES[c.palette][5][2]}"/>')
    hero(c, card, W * _j(c, .12, .2), H * .96, 72)
    weather(c)


def book_road(c, card):
    horizon = land(c, card, .42, .5, 2)
    gx = W * _j(c, .55, .75)
    prop(c, card["slots"]["far"], gx, horizon + 18, _j(c, 110, 140), "far", haze=True)
    fog(c, [horizon + 10])
    page, edge = "#f6efdc", mix("#f6efdc", c.ink, .35)
    py = H * _j(c, .8, .86)
    cover = mix(PALETTES[c.palette][5][2], "#6a1f2a", .6)
    c.add(f'<path d="M-20 {f(py - 18)} Q{f(W * .25)} {f(py - 48)} {f(W / 2)} {f(py - 8)} '
          f'Q{f(W * .75)} {f(py - 48)} {W + 20} {f(py - 18)} L{W + 20} {H + 5} L-20 {H + 5}Z" fill="{cover}"/>')
    c.add(f'<path d="M-20 {f(py - 30)} Q{f(W * .25)} {f(py - 60)} {f(W / 2)} {f(py - 20)} '
          f'Q{f(W * .75)} {f(py - 60)} {W + 20} {f(py - 30)} L{W + 20} {H + 5} L-20 {H + 5}Z" '
          f'fill="{page}" stroke="{edge}" stroke-width="3"/>'
          f'<line x1="{f(W / 2)}" y1="{f(py - 20)}" x2="{f(W / 2)}" y2="{H}" stroke="{edge}" stroke-width="2.5"/>')
    for k in range(1, 7):
        y = py - 20 + k * 14
        c.add(f'<path d="M{f(W * .06)} {f(y - 8)} Q{f(W * .25)} {f(y - 26)} {f(W * .45)} {f(y)}" stroke="{edge}" '
              f'stroke-width="1.4" fill="none" opacity=".5"/>'
              f'<path d="M{f(W * .55)} {f(y)} Q{f(W * .75)} {f(y - 26)} {f(W * .94)} {f(y - 8)}" stroke="{edge}" '
              f'stroke-width="1.4" fill="none" opacity=".5"/>')
    road = mix(PALETTES[c.palette][6], "#e8d8b0", .4)
    c.add(f'<path d="M{f(W / 2 - 14)} {f(py - 20)} C{f(W * .3)} {f(py - 90)} {f(gx + 30)} {f(horizon + 90)} '
          f'{f(gx)} {f(horizon + 20)} L{f(gx + 6)} {f(horizon + 20)} C{f(gx + 60)} {f(horizon + 90)} '
          f'{f(W * .42)} {f(py - 90)} {f(W / 2 + 14)} {f(py - 20)}Z" fill="{road}" stroke="{c.ink}" '
          f'stroke-width="1.2" opacity=".9"/>')
    hero(c, card, W * _j(c, .24, .32), py - 60, 82)
    weather(c)


def shadow(c, card):
    s, rng = card["slots"], c.rng
    pal = PALETTES[c.palette]
    wall_top = H * _j(c, .04, .3)
    c.add(scene.sky(c.palette, c.uid, rng))
    wall = mix(pal[6], "#efe2c8", .35)
    c.add(f'<rect x="-10" y="{f(wall_top)}" width="{W + 20}" height="{H}" fill="{wall}"/>')
    for k in range(int((H - wall_top) / 26)):
        y = wall_top + k * 26
        off = 0 if k % 2 else 30
        for x in range(-off, W, 60):
            c.add(f'<rect x="{x}" y="{f(y)}" width="58" height="24" fill="none" stroke="{mix(wall, c.ink, .2)}" '
                  f'stroke-width="1"/>')
    ground = H * _j(c, .76, .9)
    c.add(f'<rect y="{f(ground - 10)}" width="{W}" height="{f(H - ground + 10)}" fill="{mix(pal[5][2], wall, .3)}"/>')
    sx = W * _j(c, .34, .66)
    c.add(f'<g filter="url(#silhouette{c.uid})" opacity=".55">')
    c.place(s["shadow"], sx, ground - 20, _j(c, 250, 300), (rng.random() - .5) * 10,
            flip=rng.random() < .5, key="shadow")
    c.add('</g>')
    hx = W * (_j(c, .2, .3) if rng.random() < .5 else _j(c, .7, .8))
    c.add(f'<path d="M{f(hx)} {f(ground + 40)} L{f(hx - 60)} {H + 5} L{f(hx + 60)} {H + 5}Z" fill="#fff3c0" '
          f'opacity=".25"/>')
    if hero(c, card, hx, ground + 26, 78):
        c.relate("hero", "shadow")
        c.relate("carry", "shadow")


def clocks(c, card):
    s, rng = card["slots"], c.rng
    horizon = H * _j(c, .44, .54)
    _, _, hills = backdrop(c, card, horizon, layers=3)
    sand = [mix(h, "#e8c890", .45) for h in PALETTES[c.palette][5]]
    for (svg, _), col in zip(hills, sand):
        hills_svg = svg.replace(svg[svg.index('fill="') + 6: svg.index('"', svg.index('fill="') + 6)], col)
        c.add(hills_svg)
    for key, x, size in (("clock", _j(c, .68, .8), 130), ("clock2", _j(c, .5, .62), 80)):
        y = H * (.78 if key == "clock" else .56)
        c.place(s[key], W * x, y + size * .3, size, (rng.random() - .5) * 40, key=key)
        c.add(f'<path d="M{f(W * x - size * .8)} {f(y + 4)} Q{f(W * x)} {f(y - 12)} {f(W * x + size * .8)} {f(y + 4)} '
              f'L{f(W * x + size * .8)} {f(y + size * .4)} L{f(W * x - size * .8)} {f(y + size * .4)}Z" '
              f'fill="{sand[1 if key == "clock2" else 2]}"/>')
    hero(c, card, W * _j(c, .3, .38), H * .95, 86)
    weather(c)


DRAW = {"creature_city": creature_city, "book_road": book_road, "shadow": shadow, "clocks": clocks}
