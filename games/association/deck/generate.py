"""Generate the default deck: `python -m games.association.deck.generate [--sheet PNG] [--svg DIR]`.

Deterministic from compose.SEED and offline: the plan (default.json) is pure Python; the
pictures are composed as SVG from the installed OpenMoji artwork and rasterised once to WebP
with headless Chromium (/usr/bin/chromium, or $CHROMIUM). `--measure` refreshes boxes.json
(the measured bounding box of every pool emoji) with the same browser.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from partyhub import decks

from . import compose

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CARDS_DIR = ROOT / "frontend" / "static" / "games" / "association" / "cards"
MANIFEST = decks.shipped_manifest_path()   # the platform owns the deck; this pipeline makes it
QUALITY = 80


def manifest(seed: int = compose.SEED) -> dict:
    cards = [{"id": c["id"], "objects": c["objects"], "family": c["family"],
              "palette": c["palette"], "slots": {k: v.lower() for k, v in c["slots"].items()}}
             for c in compose.plan(seed)]
    return {"name": "default", "seed": seed, "image": "games/association/cards/{id}.webp",
            "credit": "Objects: OpenMoji (openmoji.org), CC BY-SA 4.0", "cards": cards}


def manifest_text(seed: int = compose.SEED) -> str:
    return json.dumps(manifest(seed), ensure_ascii=False, indent=1) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sheet", help="also write a contact sheet PNG here (e.g. /tmp/sheet.png)")
    ap.add_argument("--svg", help="also write the SVG sources into this folder")
    ap.add_argument("--only", help="comma-separated card ids to draw (default all)")
    ap.add_argument("--measure", action="store_true", help="re-measure emoji boxes first")
    ap.add_argument("--no-images", action="store_true", help="write only default.json")
    args = ap.parse_args(argv)
    from . import emoji, pool, render
    if args.measure:
        boxes = render.measure_boxes({n: emoji.inner(n) for n in pool.OBJECTS})
        (HERE / "boxes.json").write_text(json.dumps(boxes, indent=0, sort_keys=True))
    MANIFEST.write_text(manifest_text(), encoding="utf-8")
    if args.no_images:
        return
    from . import draw
    plan = compose.plan()
    if args.only:
        wanted = set(args.only.split(","))
        plan = [c for c in plan if c["id"] in wanted]
    svgs = {c["id"]: draw.card_svg(c, compose.SEED) for c in plan}
    if args.svg:
        Path(args.svg).mkdir(parents=True, exist_ok=True)
        for card_id, text in svgs.items():
            Path(args.svg, f"{card_id}.svg").write_text(text, encoding="utf-8")
    images = render.rasterise(svgs, draw.CARD_W, draw.CARD_H)
    CARDS_DIR.mkdir(parents=True, exist_ok=True)
    for card_id, img in images.items():
        img.save(CARDS_DIR / f"{card_id}.webp", "WEBP", quality=QUALITY, method=4)
    if args.sheet:
        contact_sheet(images, args.sheet)
    total = sum((CARDS_DIR / f"{i}.webp").stat().st_size for i in images)
    print(f"{len(images)} cards, {total / 1e6:.1f} MB in {CARDS_DIR}")


def contact_sheet(images: dict, path: str, cols: int = 16, thumb: int = 160) -> None:
    from PIL import Image
    th = thumb * 3 // 2
    rows = -(-len(images) // cols)
    sheet = Image.new("RGB", (cols * thumb, rows * th), "#202020")
    for n, img in enumerate(images.values()):
        sheet.paste(img.convert("RGB").resize((thumb, th)), ((n % cols) * thumb, (n // cols) * th))
    sheet.save(path)


if __name__ == "__main__":
    main()
