"""The story deck's indoor families: a table for strange guests, a window onto another
season, an empty theatre, a drowned room, a mirror that shows something else."""
from __future__ import annotations

from . import cast, scene
from .outdoors import _j
from .scene import H, PALETTES, W, f, mix
from .stage import hero, interior, prop

OTHER_SEASON = {"snow": "meadow", "meadow": "snow", "autumn": "snow", "forest": "snow",
                "dawn": "storm", "dusk": "snow", "night": "desert", "rose": "storm", "fog": "desert",
                "storm": "meadow", "candle": "snow", "aurora": "desert"}


def table(c, card):
    s = card["slots"]
    floor_y = H * _j(c, .5, .64)
    frame = interior(c, floor_y)[2]
    c.add(f'<circle cx="{f(W * _j(c, .3, .7))}" cy="{f(H * .14)}" r="70" fill="url(#glow{c.uid})"/>')
    ty = H * _j(c, .62, .72)
    seated = bool(card.get("hero"))
    spots = (_j(c, .16, .22), _j(c, .52, .58)) if seated else (_j(c, .2, .28), _j(c, .68, .76))
    for key, x in (("guest", spots[0]), ("guest2", spots[1])):
        low = 34 if s[key] in cast.WIDE else 12        # a cow or a bear sits deeper: legs hidden
        prop(c, s[key], W * x, ty + low, 100, key, shade=False)    # seated: only the legs hidden
        c.relate(key, "table")
    cloth = mix(PALETTES[c.palette][3], "#ffffff", .5)
    c.add(f'<rect x="-10" y="{f(ty)}" width="{W + 20}" height="16" fill="{cloth}" stroke="{c.ink}" stroke-width="2"/>'
          f'<path d="M-10 {f(ty + 16)} H{W + 10} V{f(ty + 70)} q-20 10 -40 0 t-40 0 t-40 0 t-40 0 t-40 0 t-40 0 '
          f't-40 0 t-40 0 t-40 0 t-40 0 V{f(ty + 16)}Z" fill="{mix(cloth, c.ink, .12)}"/>')
    for k in range(3):
        x = W * (.15 + .35 * k)
        c.add(f'<rect x="{f(x)}" y="{f(ty + 70)}" width="10" height="{f(H - ty)}" fill="{frame}"/>')
    c.box("table", (-10, ty, W + 20, 70))
    for key, x, diner in (("fare", spots[0], "guest"), ("fare2", spots[1], "guest2")):
        prop(c, s[key], W * x, ty + 10, 50, key, shade=False)    # set before each guest
        c.relate(key, "table")
        c.relate(key, diner)
    if hero(c, card, W * .86, ty + (64 if card.get("hero") in cast.WIDE else 30), 80):   # a cow stands before it
        c.relate("hero", "table")
        c.relate("carry", "table")


def season_window(c, card):
    s, rng = card["slots"], c.rng
    floor_y = H * _j(c, .66, .72)
    frame = interior(c, floor_y)[2]
    other = OTHER_SEASON.get(c.palette, "snow")
    wx, wy, ww, wh = W * _j(c, .24, .44), H * _j(c, .06, .16), _j(c, 140, 190), _j(c, 190, 250)
    c.add(f'<clipPath id="win{c.uid}"><rect x="{f(wx)}" y="{f(wy)}" width="{ww}" height="{wh}"/></clipPath>'
          f'<linearGradient id="osky{c.uid}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" '
          f'stop-color="{scene.PALETTES[other][0]}"/><stop offset="1" stop-color="{scene.PALETTES[other][2]}"/>'
          f'</linearGradient><g clip-path="url(#win{c.uid})">'
          f'<rect x="{f(wx)}" y="{f(wy)}" width="{ww}" height="{wh}" fill="url(#osky{c.uid})"/>')
    svg, _ = scene.hill(rng, wy + wh - 50, 30, scene.PALETTES[other][5][1], 1, n=4)
    c.add(svg)
    if other == "snow":
        for _ in range(40):
            c.add(f'<circle cx="{f(wx + rng.random() * ww)}" cy="{f(wy + rng.random() * wh)}" r="2" fill="#fff"/>')
    c.add('</g>')
    c.add(f'<rect x="{f(wx)}" y="{f(wy)}" width="{ww}" height="{wh}" fill="none" stroke="{frame}" stroke-width="8"/>'
          f'<line x1="{f(wx + ww / 2)}" y1="{f(wy)}" x2="{f(wx + ww / 2)}" y2="{f(wy + wh)}" stroke="{frame}" '
          f'stroke-width="5"/><path d="M{f(wx)} {f(wy + wh)} L{f(wx + ww)} {f(wy + wh)} L{f(wx + ww + 80)} '
          f'{f(floor_y + 140)} L{f(wx + 30)} {f(floor_y + 140)}Z" fill="{scene.PALETTES[other][3]}" opacity=".16"/>')
    c.box("window", (wx - 4, wy - 4, ww + 8, wh + 8))
    prop(c, s["furniture"], W * _j(c, .76, .84), floor_y + 40, 100, "furniture")
    hero(c, card, W * _j(c, .22, .3), H * .95, 108)
    c.relate("hero", "window")
    c.relate("carry", "window")


def theatre(c, card):
    s = card["slots"]
    dark = mix(c.ink, "#000000", .4)
    c.add(f'<rect width="{W}" height="{H}" fill="{dark}"/>')
    stage_y = H * _j(c, .55, .7)
    cw = _j(c, 40, 90)
    c.add(f'<rect y="{f(stage_y)}" width="{W}" height="30" fill="{mix("#7a5434", c.ink, .3)}"/>')
    curtain = mix(PALETTES[c.palette][5][1], "#8a1020", .6)
    for side in (0, 1):
        x = 0 if side == 0 else W - cw
        c.add(f'<rect x="{f(x)}" y="0" width="{f(cw)}" height="{f(stage_y)}" fill="{curtain}"/>')
        for k in range(int(cw // 16)):
            c.add(f'<line x1="{f(x + 8 + k * 16)}" y1="0" x2="{f(x + 8 + k * 16)}" y2="{f(stage_y)}" '
                  f'stroke="{mix(curtain, "#000000", .4)}" stroke-width="4"/>')
    c.add(f'<path d="M0 0 H{W} V40 Q{W / 2} 90 0 40Z" fill="{curtain}"/>')
    hx = W * _j(c, .32, .56)
    c.add(f'<path d="M{f(hx - 20)} -10 L{f(hx + 20)} -10 L{f(hx + 90)} {f(stage_y + 8)} L{f(hx - 90)} '
          f'{f(stage_y + 8)}Z" fill="{PALETTES[c.palette][3]}" opacity=".28"/>'
          f'<ellipse cx="{f(hx)}" cy="{f(stage_y + 4)}" rx="90" ry="12" fill="{PALETTES[c.palette][3]}" opacity=".5"/>')
    for row in range(c.rng.randrange(2, 5)):
        y = stage_y + 60 + row * 32
        for k in range(9):
            c.add(f'<path d="M{f(k * 44 + (row % 2) * 22 - 10)} {f(y + 30)} v-18 a16 14 0 0 1 32 0 v18Z" '
                  f'fill="{mix(curtain, "#000000", .55 - row * .05)}"/>')
    hero(c, card, hx, stage_y + 6, 100)
    prop(c, s["prop"], hx + (100 if hx < W / 2 else -100), stage_y + 6, 62, "prop")


def underwater_room(c, card):
    s, rng = card["slots"], c.rng
    floor_y = H * _j(c, .58, .76)
    interior(c, floor_y)
    c.add(f'<rect width="{W}" height="{H}" fill="#0d5a79" opacity=".45"/>')
    for _ in range(4):
        x = rng.random() * W
        c.add(f'<path d="M{f(x)} -10 L{f(x + 30)} -10 L{f(x + 110)} {f(H * .8)} L{f(x + 40)} {f(H * .8)}Z" '
              f'fill="#e6fffb" opacity=".08"/>')
    prop(c, s["furniture"], W * _j(c, .7, .8), floor_y + 50, 110, "furniture")
    c.float(s["swimmer"], W * _j(c, .55, .7), H * _j(c, .18, .26), 92, (rng.random() - .5) * 30, key="swimmer")
    hero(c, card, W * _j(c, .22, .3), H * .95, 100)
    c.add(scene.weather("underwater", rng))


def mirror(c, card):
    s = card["slots"]
    floor_y = H * _j(c, .64, .7)
    frame = interior(c, floor_y)[2]
    mx, my, mw, mh = W * _j(c, .56, .68), H * _j(c, .3, .42), _j(c, 130, 160), _j(c, 220, 260)
    other = OTHER_SEASON.get(c.palette, "night")
    c.add(f'<ellipse cx="{f(mx)}" cy="{f(my)}" rx="{f(mw / 2 + 10)}" ry="{f(mh / 2 + 10)}" fill="{frame}" '
          f'stroke="{c.ink}" stroke-width="2"/>'
          f'<ellipse cx="{f(mx)}" cy="{f(my)}" rx="{f(mw / 2)}" ry="{f(mh / 2)}" fill="{scene.PALETTES[other][1]}"/>'
          f'<path d="M{f(mx - 40)} {f(my - 80)} l30 -20 M{f(mx - 50)} {f(my - 50)} l50 -34" stroke="#fff" '
          f'stroke-width="3" opacity=".5"/>')
    c.box("mirror", (mx - mw / 2 - 10, my - mh / 2 - 10, mw + 20, mh + 20))
    prop(c, s["reflection"], mx, my + mh * .38, 104, "reflection", shade=False)
    c.relate("reflection", "mirror")
    hero(c, card, W * _j(c, .16, .24), H * .95, 104)


DRAW = {"table": table, "season_window": season_window, "theatre": theatre,
        "underwater_room": underwater_room, "mirror": mirror}
