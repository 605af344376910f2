"""The deck's measures on its pictures (issue 28): layout twins and colour buckets.

- Layout twin: another card whose 64-bit difference hash (a 9x8 grey thumbnail, one bit per
  pair of horizontal neighbours) differs by at most TWIN_BITS bits.
Both are taken of the picture inside the card's printed border.
- Colour bucket: the picture's mean colour as a hue sector (12 of 30 degrees, or "grey" when
  its saturation is under GREY) and a brightness third (dark, middle, light).
Only Pillow; reading 300 small WebP files takes about a second.
"""
from __future__ import annotations

import colorsys
from pathlib import Path

TWIN_BITS = 8
GREY = 0.12
FRAME = 15 / 400      # the printed cream border (draw.BORDER) is the same on every card: left out


def dhash(img) -> int:
    small = img.convert("L").resize((9, 8), 1)
    px = [small.getpixel((x, y)) for y in range(8) for x in range(9)]
    bits = 0
    for row in range(8):
        for col in range(8):
            bits = (bits << 1) | (px[row * 9 + col] > px[row * 9 + col + 1])
    return bits


def bucket(img) -> str:
    r, g, b = (v / 255 for v in img.convert("RGB").resize((1, 1), 1).getpixel((0, 0)))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    hue = "grey" if s < GREY else f"h{int(h * 12) % 12:02d}"
    return f"{hue}/{('dark', 'mid', 'light')[min(2, int(v * 3))]}"


def twins(hashes: dict[str, int], bits: int = TWIN_BITS) -> set[str]:
    """The cards that have a layout twin among the others."""
    ids = list(hashes)
    out = set()
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if bin(hashes[a] ^ hashes[b]).count("1") <= bits:
                out |= {a, b}
    return out


def read(folder: Path, ids) -> dict:
    """{card id: (dhash, bucket)} of the pictures in `folder`."""
    from PIL import Image
    out = {}
    for card_id in ids:
        with Image.open(Path(folder) / f"{card_id}.webp") as img:
            w, h = img.size
            pic = img.crop((round(w * FRAME), round(w * FRAME), w - round(w * FRAME), h - round(w * FRAME)))
            out[card_id] = (dhash(pic), bucket(pic))
    return out
