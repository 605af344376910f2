"""Palettes and painted backgrounds (sky, light, hills, sea, room) as SVG fragments.

Scene coordinates: the picture inside the card border is W x H; y grows downwards.
"""
from __future__ import annotations

import math

W, H = 372, 572

# sky top, sky middle, sky bottom, light, halo, [far, middle, near hills], haze, ink, kind
PALETTES = {
    "night": ("#0a1230", "#1f2d5c", "#46507e", "#f6efcf", "#aab8ff",
              ["#37406e", "#242c52", "#131a33"], "#3a4576", "#15122a", "moon"),
    "aurora": ("#05141f", "#0c3a40", "#1f6b5e", "#e9fff4", "#7dffc8",
               ["#1d4a4c", "#12333a", "#0a1f26"], "#1f5a55", "#0b1418", "moon"),
    "dawn": ("#6f8fc9", "#e9b3b0", "#ffd9a3", "#fff4cf", "#ffd0a0",
             ["#b79ab8", "#8a73a0", "#564a78"], "#d9b7c0", "#2a2038", "sun"),
    "desert": ("#3f98d8", "#97cdee", "#f6e6c4", "#fffbe8", "#fff2b0",
               ["#e9c894", "#d9a066", "#b0713d"], "#f1dcb8", "#3a2414", "sun"),
    "fog": ("#aeb9bd", "#d3d9d6", "#eceee7", "#ffffff", "#f3f3ea",
            ["#b6c0bf", "#8d9b9b", "#5d6d6e"], "#dfe3de", "#283033", "sun"),
    "underwater": ("#03263f", "#0d5a79", "#2a9aa5", "#e6fffb", "#8ef0e6",
                   ["#2f7f7a", "#1e5c5d", "#123d44"], "#2a8690", "#062027", "rays"),
    "forest": ("#8fc9a9", "#d4ecd2", "#f6f1cf", "#fffbe0", "#fff1a8",
               ["#8cbf8a", "#4f8a5b", "#2a5636"], "#c5e0c0", "#16271a", "sun"),
    "snow": ("#8fa9cf", "#d2deec", "#f6f8fb", "#ffffff", "#e6eeff",
             ["#dfe7f2", "#c3d1e3", "#a6b9d3"], "#e4ebf4", "#1f2a3d", "sun"),
    "storm": ("#262e38", "#47535e", "#7a878b", "#f2f0d8", "#c8ccb8",
              ["#56635e", "#3a4744", "#202a28"], "#66736f", "#101614", "moon"),
    "dusk": ("#2a1b4a", "#8a3e73", "#f28c5c", "#ffd479", "#ffb070",
             ["#7c4a7a", "#4f2d5e", "#2a1a3c"], "#a05a78", "#1c0f24", "sun"),
    "meadow": ("#6fc0e4", "#c6ebf6", "#fff6d4", "#fffce8", "#fff1b0",
               ["#a7d36c", "#6fa84f", "#3d7a39"], "#d8efd8", "#1d2c14", "sun"),
    "rose": ("#f3a6b8", "#f8cfc8", "#fde8d0", "#fffaf0", "#ffd6d6",
             ["#e3a2b0", "#c07890", "#8c4f6c"], "#f0c4c8", "#3a1a28", "sun"),
    "candle": ("#24140c", "#5a301a", "#b8692e", "#ffe2a0", "#ffb24a",
               ["#7a4a2a", "#55321c", "#331e10"], "#8a5a36", "#1a0e06", "sun"),
    "autumn": ("#7d8fb3", "#e7b07a", "#f4d9a8", "#fff0c8", "#ffc978",
               ["#c8753a", "#9c4f24", "#5e2e16"], "#e0a878", "#2a160c", "sun"),
}

NIGHTLY = {"night", "aurora", "storm", "underwater"}


def mix(a: str, b: str, t: float) -> str:
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def defs(pal: str, uid: str) -> str:
    top, mid, bottom, light, halo, *_ = PALETTES[pal]
    return (
        f'<linearGradient id="sky{uid}" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{top}"/><stop offset=".55" stop-color="{mid}"/>'
        f'<stop offset="1" stop-color="{bottom}"/></linearGradient>'
        f'<radialGradient id="halo{uid}"><stop offset="0" stop-color="{halo}" stop-opacity=".85"/>'
        f'<stop offset=".35" stop-color="{halo}" stop-opacity=".3"/>'
        f'<stop offset="1" stop-color="{halo}" stop-opacity="0"/></radialGradient>'
        f'<radialGradient id="glow{uid}"><stop offset="0" stop-color="#fff3c0" stop-opacity=".95"/>'
        f'<stop offset="1" stop-color="#ffb347" stop-opacity="0"/></radialGradient>'
        f'<filter id="haze{uid}"><feFlood flood-color="{PALETTES[pal][6]}" flood-opacity=".28"/>'
        f'<feComposite in2="SourceGraphic" operator="in"/><feMerge><feMergeNode in="SourceGraphic"/>'
        f'<feMergeNode/></feMerge></filter>'
        f'<filter id="soft{uid}" x="-50%" y="-50%" width="200%" height="200%">'
        f'<feGaussianBlur stdDeviation="6"/></filter>'
    )


def sky(pal: str, uid: str, rng, x0=0.0, y0=0.0, w=W, h=H) -> str:
    out = [f'<rect x="{f(x0)}" y="{f(y0)}" width="{f(w)}" height="{f(h)}" fill="url(#sky{uid})"/>']
    if pal in NIGHTLY or pal == "dusk":
        for _ in range(int(w * h / 2600)):
            x, y = x0 + rng.random() * w, y0 + rng.random() * h * 0.55
            out.append(f'<circle cx="{f(x)}" cy="{f(y)}" r="{f(0.5 + rng.random() * 1.3)}" '
                       f'fill="#fffbe8" opacity="{f(0.35 + rng.random() * 0.6)}"/>')
    if pal == "aurora":
        for k in range(3):
            y = y0 + h * (0.12 + 0.08 * k)
            out.append(f'<path d="M{f(x0 - 20)} {f(y + 30)} C{f(x0 + w * .3)} {f(y - 40)} '
                       f'{f(x0 + w * .6)} {f(y + 60)} {f(x0 + w + 20)} {f(y)}" stroke="#7dffc8" '
                       f'stroke-width="{18 - 4 * k}" fill="none" opacity=".35" filter="url(#soft{uid})"/>')
    return "".join(out)


def light(pal: str, uid: str, cx: float, cy: float, r: float, rng) -> str:
    kind, color = PALETTES[pal][8], PALETTES[pal][3]
    out = [f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r * 4)}" fill="url(#halo{uid})"/>']
    if kind == "rays":
        for k in range(5):
            x = cx - 120 + k * 60 + rng.random() * 20
            out.append(f'<path d="M{f(x)} -10 L{f(x + 30)} -10 L{f(x + 120)} {H * .8:.0f} '
                       f'L{f(x + 40)} {H * .8:.0f}Z" fill="{color}" opacity=".08"/>')
        return "".join(out)
    out.append(f'<circle cx="{f(cx)}" cy="{f(cy)}" r="{f(r)}" fill="{color}"/>')
    if kind == "moon" and rng.random() < 0.6:
        sky_mid = PALETTES[pal][1]
        out.append(f'<circle cx="{f(cx + r * .45)}" cy="{f(cy - r * .2)}" r="{f(r * .9)}" '
                   f'fill="{sky_mid}"/>')
    return "".join(out)


def ridge(rng, base: float, amp: float, n: int = 7, sharp: bool = False) -> list[tuple]:
    pts = []
    for i in range(n + 1):
        x = -20 + (W + 40) * i / n
        y = base - amp * (0.3 + 0.7 * rng.random()) * (1.6 if sharp and i % 2 else 1)
        pts.append((x, y))
    return pts


def smooth(pts: list[tuple]) -> str:
    d = [f"M{f(pts[0][0])} {f(pts[0][1])}"]
    for i in range(len(pts) - 1):
        p0 = pts[max(i - 1, 0)]
        p1, p2 = pts[i], pts[i + 1]
        p3 = pts[min(i + 2, len(pts) - 1)]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d.append(f"C{f(c1[0])} {f(c1[1])} {f(c2[0])} {f(c2[1])} {f(p2[0])} {f(p2[1])}")
    return "".join(d)


def hill(rng, base: float, amp: float, color: str, opacity: float, sharp=False, n=7) -> tuple:
    pts = ridge(rng, base, amp, n, sharp)
    path = smooth(pts) if not sharp else "M" + " L".join(f"{f(x)} {f(y)}" for x, y in pts)
    d = f"{path}L{W + 20} {H + 20}L-20 {H + 20}Z"
    return f'<path d="{d}" fill="{color}" opacity="{f(opacity)}"/>', pts


def height_at(pts: list[tuple], x: float) -> float:
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        if x1 <= x <= x2:
            t = (x - x1) / (x2 - x1)
            return y1 + (y2 - y1) * (3 * t * t - 2 * t * t * t)
    return pts[-1][1]


def fog_bands(pal: str, uid: str, rng, ys: list[float]) -> str:
    haze = PALETTES[pal][6]
    return "".join(f'<ellipse cx="{f(rng.random() * W)}" cy="{f(y)}" rx="{f(W * .7)}" ry="14" '
                   f'fill="{haze}" opacity=".55" filter="url(#soft{uid})"/>' for y in ys)


def weather(pal: str, rng) -> str:
    out = []
    if pal == "snow":
        for _ in range(70):
            out.append(f'<circle cx="{f(rng.random() * W)}" cy="{f(rng.random() * H)}" '
                       f'r="{f(1 + rng.random() * 2.2)}" fill="#fff" opacity=".8"/>')
    elif pal == "storm":
        for _ in range(60):
            x, y = rng.random() * W, rng.random() * H
            out.append(f'<line x1="{f(x)}" y1="{f(y)}" x2="{f(x - 6)}" y2="{f(y + 22)}" '
                       f'stroke="#cfd8dc" stroke-width="1" opacity=".35"/>')
    elif pal == "underwater":
        for _ in range(26):
            r = 2 + rng.random() * 6
            out.append(f'<circle cx="{f(rng.random() * W)}" cy="{f(rng.random() * H * .8)}" '
                       f'r="{f(r)}" fill="none" stroke="#c8fff8" stroke-width="1.2" opacity=".5"/>')
    return "".join(out)


def water(pal: str, uid: str, horizon: float, sun_x: float, rng) -> str:
    top, mid, bottom, light_c, halo, hills, haze, ink, _ = PALETTES[pal]
    deep = mix(hills[2], "#0a1a2a", 0.3)
    out = [f'<linearGradient id="sea{uid}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" '
           f'stop-color="{mix(bottom, hills[0], .35)}"/><stop offset="1" stop-color="{deep}"/>'
           f'</linearGradient>',
           f'<rect x="0" y="{f(horizon)}" width="{W}" height="{f(H - horizon)}" fill="url(#sea{uid})"/>']
    y = horizon + 4
    while y < H:
        k = (y - horizon) / (H - horizon)
        w = 8 + 50 * k * (0.5 + rng.random())
        out.append(f'<rect x="{f(sun_x - w / 2 + (rng.random() - .5) * 20)}" y="{f(y)}" width="{f(w)}" '
                   f'height="{f(1 + 2 * k)}" rx="1" fill="{light_c}" opacity="{f(.55 - .35 * k)}"/>')
        y += 5 + 14 * k
    for _ in range(18):
        yy = horizon + (H - horizon) * rng.random() ** 1.5
        x = rng.random() * W
        out.append(f'<path d="M{f(x)} {f(yy)} q10 -3 20 0" stroke="{mix(haze, "#ffffff", .4)}" '
                   f'stroke-width="1.2" fill="none" opacity=".35"/>')
    return "".join(out)


def ladder(x1: float, y1: float, x2: float, y2: float, color: str) -> str:
    ang = math.atan2(y2 - y1, x2 - x1)
    nx, ny = -math.sin(ang) * 9, math.cos(ang) * 9
    out = [f'<g stroke="{color}" stroke-width="3" stroke-linecap="round" fill="none">',
           f'<line x1="{f(x1 - nx)}" y1="{f(y1 - ny)}" x2="{f(x2 - nx)}" y2="{f(y2 - ny)}"/>',
           f'<line x1="{f(x1 + nx)}" y1="{f(y1 + ny)}" x2="{f(x2 + nx)}" y2="{f(y2 + ny)}"/>']
    steps = int(math.hypot(x2 - x1, y2 - y1) / 16)
    for i in range(1, steps):
        t = i / steps
        x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        out.append(f'<line x1="{f(x - nx)}" y1="{f(y - ny)}" x2="{f(x + nx)}" y2="{f(y + ny)}"/>')
    out.append("</g>")
    return "".join(out)
