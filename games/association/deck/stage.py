"""What the story families share: sky and land, an actor with a visible mood, props in
relation, and the check that nothing overlaps by accident.

Scene coordinates as in scene.py: W x H, y grows downwards.
"""
from __future__ import annotations

from . import cast, scene
from .scene import H, PALETTES, W, f, mix


def backdrop(c, card: dict, horizon: float, layers: int = 3) -> tuple:
    """Sky and light (a disc only when the plan says so, else a glow behind cloud or none);
    returns (light x, light y, [(hill svg, ridge points)]) with the hills not yet drawn."""
    pal, rng = c.palette, c.rng
    c.add(scene.sky(pal, c.uid, rng))
    lx = W * (0.18 + 0.64 * rng.random())
    ly = H * (0.1 + 0.14 * rng.random())
    lr = 20 + rng.random() * 12
    if card.get("light") == "disc":
        c.add(scene.light(pal, c.uid, lx, ly, lr, rng))
    elif card.get("light") == "glow":
        c.add(f'<circle cx="{f(lx)}" cy="{f(ly)}" r="{f(lr * 4.5)}" fill="url(#halo{c.uid})" opacity=".6"/>')
        clouds(c, lx, ly + lr * 0.4, 1.2)
    hills = PALETTES[pal][5]
    made = []
    for k in range(layers):
        base = horizon + k * (H - horizon) * 0.3
        made.append(scene.hill(rng, base, 50 - 12 * k, hills[k], 0.8 + 0.1 * k,
                               sharp=(k == 0 and rng.random() < 0.4), n=5 + k + rng.randrange(3)))
    return lx, ly, made


def clouds(c, x: float, y: float, scale: float = 1.0) -> None:
    """A soft bank of cloud (over a glow, or raining on somebody)."""
    haze = mix(PALETTES[c.palette][6], "#ffffff", 0.35)
    for dx, dy, r in ((-40, 6, 26), (-12, -8, 32), (22, 0, 28), (50, 10, 20)):
        c.add(f'<circle cx="{f(x + dx * scale)}" cy="{f(y + dy * scale)}" r="{f(r * scale)}" '
              f'fill="{haze}" opacity=".85" filter="url(#soft{c.uid})"/>')


def weather(c) -> None:
    c.add(scene.weather(c.palette, c.rng))


def fog(c, ys) -> None:
    if c.palette in ("fog", "storm", "snow", "dawn", "autumn"):
        c.add(scene.fog_bands(c.palette, c.uid, c.rng, ys))


def shadow(c, cx: float, ground: float, w: float, long: float = 0.0) -> None:
    """A soft shadow under what stands at (cx, ground); `long` stretches it sideways."""
    rx = w * (0.48 + long)
    c.add(f'<ellipse cx="{f(cx + rx * long * 0.9)}" cy="{f(ground - 2)}" rx="{f(rx)}" '
          f'ry="{f(max(4, w * .07))}" fill="{c.ink}" opacity=".35" filter="url(#soft{c.uid})"/>')


def prop(c, name: str, cx: float, bottom: float, size: float, key: str, shade: bool = True, **kw) -> tuple:
    return c.place(name, cx, bottom, size, (c.rng.random() - .5) * 8, flip=c.rng.random() < .5,
                   shadow=shade, key=key, **kw)


def hero(c, card: dict, cx: float, ground: float, size: float, lift: float = 0.0) -> tuple | None:
    """The card's actor standing at (cx, ground), its mood shown around it, holding its
    carry (a balloon or kite flies on a string above). Returns its box, or None."""
    name, mood = card.get("hero"), card.get("mood")
    if not name:
        return None
    rng = c.rng
    size *= 1.3 if mood != "lonely" else 1.05
    if name in cast.FLYERS:
        lift += 34
    if mood == "joyful":
        lift += 18
    rot = {"afraid": -10, "curious": 9, "sad": 6, "brave": 13, "asleep": -4}.get(mood, 0) + (rng.random() - .5) * 4
    flip = rng.random() < 0.5
    if mood == "hopeful":
        c.add(f'<circle cx="{f(cx)}" cy="{f(ground - lift - size * .45)}" r="{f(size * .85)}" '
              f'fill="url(#glow{c.uid})" opacity=".9"/>')
    shadow(c, cx, ground, size * (0.5 if lift else 0.8), long=2.2 if mood == "lonely" else 0.0)
    x0, y0, w, h = c.place(name, cx, ground - lift, size, rot, flip=flip, key="hero")
    _mood_marks(c, mood, x0, y0, w, h, ground)
    carry = card.get("carry")
    if carry:
        side = 1 if cx < W / 2 else -1      # a kite flies over the middle, a lamp is held outwards
        if carry in cast.TETHERED:
            kx, ky = cx + side * 12, y0 - 70
            by, bh = c.float(carry, kx, ky, size * 0.5, (rng.random() - .5) * 24, key="carry")[1::2]
            c.string(x0 + w * (0.5 + side * 0.35), y0 + h * 0.45, kx, by + bh * 0.95)
        else:
            c.place(carry, cx - side * w * 0.42, ground - lift - h * 0.18, size * 0.42,
                    -side * 8, key="carry")
            c.relate("hero", "carry")
    return x0, y0, w, h


def _mood_marks(c, mood, x0, y0, w, h, ground) -> None:
    ink = c.ink
    light = mix(PALETTES[c.palette][3], "#ffffff", .4)
    if mood == "asleep":
        for k, r in enumerate((3.5, 5.5, 8)):
            c.add(f'<circle cx="{f(x0 + w * .85 + k * 11)}" cy="{f(y0 - 4 - k * 15)}" r="{r}" fill="{light}" '
                  f'stroke="{ink}" stroke-width="1.6" opacity=".9"/>')
    elif mood == "afraid":
        for side in (-1, 1):
            x = x0 + w / 2 + side * (w / 2 + 6)
            for k in range(3):
                y = y0 + h * (0.2 + 0.18 * k)
                c.add(f'<path d="M{f(x)} {f(y)} q{f(side * 6)} 6 0 12" stroke="{ink}" stroke-width="2.2" '
                      f'fill="none" stroke-linecap="round"/>')
    elif mood == "joyful":
        for k in (-1, 1):
            c.add(f'<path d="M{f(x0 + w / 2 + k * w * .35)} {f(ground - 4)} q{f(k * 8)} -10 {f(k * 16)} -4" '
                  f'stroke="{ink}" stroke-width="2" fill="none" stroke-linecap="round"/>')
        for sx, sy in ((x0 - 8, y0 + 6), (x0 + w + 8, y0 + 16), (x0 + w * .5, y0 - 12)):
            s = 7
            c.add(f'<path d="M{f(sx)} {f(sy - s)} Q{f(sx)} {f(sy)} {f(sx + s)} {f(sy)} Q{f(sx)} {f(sy)} '
                  f'{f(sx)} {f(sy + s)} Q{f(sx)} {f(sy)} {f(sx - s)} {f(sy)} Q{f(sx)} {f(sy)} {f(sx)} {f(sy - s)}Z" '
                  f'fill="#fff3b0" stroke="{ink}" stroke-width=".8"/>')
    elif mood == "curious":
        step = -1 if x0 + w / 2 > W / 2 else 1
        for k in range(1, 6):
            x = x0 + w / 2 - step * (w * .3 + k * 17)
            y = ground + 3 + k * 2.5
            c.add(f'<ellipse cx="{f(x)}" cy="{f(y + (k % 2) * 5)}" rx="4" ry="2.4" fill="{ink}" opacity=".45"/>')
    elif mood == "sad":
        cx, cy = x0 + w / 2, y0 - 30
        clouds(c, cx, cy, 0.55)
        c.add(f'<ellipse cx="{f(cx)}" cy="{f(cy)}" rx="30" ry="12" fill="{mix(ink, "#8a95a0", .6)}" opacity=".9"/>')
        for k in range(5):
            x = cx - 20 + k * 10
            c.add(f'<line x1="{f(x)}" y1="{f(cy + 10)}" x2="{f(x - 4)}" y2="{f(cy + 26)}" stroke="#a9c8e8" '
                  f'stroke-width="2" stroke-linecap="round"/>')
    elif mood == "brave":
        side = 1 if c.rng.random() < .5 else -1
        for k in range(4):
            x = x0 + w / 2 - side * (w * .6 + 10)
            y = y0 + h * (0.1 + 0.22 * k)
            c.add(f'<path d="M{f(x)} {f(y)} q{f(-side * 22)} -8 {f(-side * 44)} 2" stroke="{light}" '
                  f'stroke-width="2.4" fill="none" stroke-linecap="round" opacity=".9"/>')


def interior(c, floor_y: float) -> tuple[str, str, str]:
    """A room's back wall (a shadowed corner on one side), skirting and floor boards;
    returns (wall, floor, frame) colours."""
    mid, hills, ink = PALETTES[c.palette][1], PALETTES[c.palette][5], PALETTES[c.palette][7]
    wall = mix(mid, "#e9dcc4", 0.45)
    c.add(f'<rect width="{W}" height="{H}" fill="{wall}"/>')
    stripe = c.rng.choice((22, 28, 36))
    for x in range(0, W, stripe):
        c.add(f'<rect x="{x}" y="0" width="{stripe // 2}" height="{f(floor_y)}" fill="{mix(wall, ink, .06)}"/>')
    corner = _jit(c.rng, 50, 120)
    cx = 0 if c.rng.random() < .5 else W - corner
    c.add(f'<rect x="{f(cx)}" y="0" width="{f(corner)}" height="{H}" fill="{mix(wall, ink, .45)}" opacity=".8"/>')
    floor = mix(hills[2], "#7a5434", 0.55)
    c.add(f'<path d="M0 {f(floor_y)}H{W}V{H}H0Z" fill="{floor}"/>')
    for k in range(1, 9):
        c.add(f'<line x1="{f(W / 2 + (k - 4.5) * 30)}" y1="{f(floor_y)}" x2="{f(W / 2 + (k - 4.5) * 70)}" '
              f'y2="{H}" stroke="{mix(floor, ink, .35)}" stroke-width="1.5" opacity=".5"/>')
    c.add(f'<rect x="0" y="{f(floor_y - 8)}" width="{W}" height="8" fill="{mix(wall, ink, .3)}"/>')
    return wall, floor, mix(ink, "#8a6a4a", 0.6)


def collisions(c, tolerance: float = 0.08) -> list[tuple[str, str]]:
    """Pairs of placed things whose boxes overlap by more than `tolerance` of the smaller one
    with no relation that asks for it (a sticker pasted over another by accident)."""
    out = []
    keys = sorted(c.boxes)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if frozenset((a, b)) in c.allowed:
                continue
            ax, ay, aw, ah = c.boxes[a]
            bx, by, bw, bh = c.boxes[b]
            ix = max(0.0, min(ax + aw, bx + bw) - max(ax, bx))
            iy = max(0.0, min(ay + ah, by + bh) - max(ay, by))
            if ix * iy > tolerance * min(aw * ah, bw * bh):
                out.append((a, b))
    return out


def framing(c, water: bool = False) -> None:
    """A dark silhouette at one edge of the scene (a branch hanging from a top corner, or a
    bush in a bottom corner) where it covers nothing placed: depth, and a picture that is not
    balanced the same way as the next one."""
    rng = c.rng
    colour = mix(c.ink, PALETTES[c.palette][5][2], .45)
    options = [(kind, side) for kind in (("branch",) if water else ("branch", "bush")) for side in (0, 1)]
    rng.shuffle(options)
    for kind, side in options:
        w, h = _jit(rng, 120, 190), _jit(rng, 90, 190)
        x0 = -10 if side == 0 else W + 10 - w
        y0 = -10 if kind == "branch" else H + 10 - h
        c.boxes["framing"] = (x0, y0, w, h)
        if collisions(c, tolerance=0.02) and any("framing" in pair for pair in collisions(c, 0.02)):
            del c.boxes["framing"]
            continue
        sx = 1 if side == 0 else -1
        ox = 0 if side == 0 else W
        if kind == "branch":
            c.add(f'<path d="M{f(ox)} {f(y0 + h * .25)} Q{f(ox + sx * w * .6)} {f(y0 + h * .1)} {f(ox + sx * w)} '
                  f'{f(y0 + h * .45)}" stroke="{colour}" stroke-width="9" fill="none" stroke-linecap="round"/>')
            for k in range(9):
                t = (k + 1) / 10
                lx, ly = ox + sx * w * t, y0 + h * (.2 + .3 * t) + rng.random() * 18
                c.add(f'<ellipse cx="{f(lx)}" cy="{f(ly + 16)}" rx="9" ry="20" transform="rotate({f(sx * 20)} '
                      f'{f(lx)} {f(ly + 16)})" fill="{colour}"/>')
        else:
            for k in range(6):
                cx = ox + sx * w * (k / 6)
                r = h * (.35 + .3 * rng.random())
                c.add(f'<circle cx="{f(cx)}" cy="{f(H + 10 - r * .4)}" r="{f(r * .7)}" fill="{colour}"/>')
            for k in range(14):
                gx = ox + sx * w * rng.random()
                c.add(f'<path d="M{f(gx)} {f(H - h * .3)} q3 -14 {f(sx * 8)} -{f(h * .3)}" stroke="{colour}" '
                      f'stroke-width="3" fill="none"/>')
        return


def _jit(rng, a: float, b: float) -> float:
    return a + (b - a) * rng.random()
