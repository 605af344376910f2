"""Generate the default deck: `python -m games.association.deck.generate [--sheets] [--svg DIR]`.

Deterministic from story.SEED and offline: the plan (default.json) is pure Python; the
pictures are composed as SVG from the installed OpenMoji artwork, the curated Openclipart
drawings (clipart.json) and procedural drawing, and rasterised once to WebP with headless
Chromium (/usr/bin/chromium, or $CHROMIUM). `--clipart` refreshes clipart.json from Debian's
`openclipart-svg` package (clipart.POOL names each file). `--measure` refreshes boxes.json
(the measured bounding box of every drawing the deck may use) with the same browser.
`--sheets` also writes docs/deck/ (contact sheets) and docs/deck.md's tables.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from partyhub import decks

from . import cast, clipart, draw, render, sheets, story

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
CARDS_DIR = ROOT / "frontend" / "static" / "games" / "association" / "cards"
MANIFEST = decks.shipped_manifest_path()   # the platform owns the deck; this pipeline makes it
QUALITY = 74
SIZE = (480, 720)          # pixels of a shipped card (2:3): sharp on a phone, a third of a TV
CREDIT = ("Pictures: OpenMoji (openmoji.org), CC BY-SA 4.0, and Openclipart (openclipart.org), "
          "public domain, composed with procedural painting (partyhub)")
KEPT = ("id", "title", "objects", "family", "palette", "light", "hero", "mood", "carry", "slots")


def manifest(seed: int = story.SEED) -> dict:
    cards = []
    for c in story.plan(seed):
        card = {k: c[k] for k in KEPT}
        card["hero"] = cast.label(c["hero"]) if c["hero"] else None
        card["carry"] = cast.label(c["carry"]) if c["carry"] else None
        card["slots"] = {k: cast.label(v) for k, v in c["slots"].items()}
        cards.append(card)
    return {"name": "default", "seed": seed, "image": "games/association/cards/{id}.webp",
            "credit": CREDIT, "cards": cards}


def manifest_text(seed: int = story.SEED) -> str:
    return json.dumps(manifest(seed), ensure_ascii=False, indent=1) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sheets", action="store_true", help="also write docs/deck/ contact sheets")
    ap.add_argument("--svg", help="also write the SVG sources into this folder")
    ap.add_argument("--only", help="comma-separated card ids to draw (default all)")
    ap.add_argument("--out", default=str(CARDS_DIR), help="where the WebP pictures go")
    ap.add_argument("--measure", action="store_true", help="re-measure the drawings' boxes first")
    ap.add_argument("--clipart", action="store_true",
                    help="re-read the Openclipart pool from openclipart-svg first (implies --measure)")
    ap.add_argument("--no-images", action="store_true", help="write only default.json")
    args = ap.parse_args(argv)
    if args.clipart:
        clipart.STORE.write_text(json.dumps(clipart.read_pool(), indent=0, sort_keys=True) + "\n")
        clipart.stored.cache_clear()
    if args.measure or args.clipart:
        boxes = render.measure_boxes({n: draw.drawing(n) for n in sorted(cast.every_name())})
        (HERE / "boxes.json").write_text(json.dumps(boxes, indent=0, sort_keys=True))
    MANIFEST.write_text(manifest_text(), encoding="utf-8")
    if args.no_images:
        return
    plan = story.plan()
    if args.only:
        wanted = set(args.only.split(","))
        plan = [c for c in plan if c["id"] in wanted]
    svgs = {c["id"]: draw.card_svg(c, story.SEED) for c in plan}
    if args.svg:
        Path(args.svg).mkdir(parents=True, exist_ok=True)
        for card_id, text in svgs.items():
            Path(args.svg, f"{card_id}.svg").write_text(text, encoding="utf-8")
    images = render.rasterise(svgs, draw.CARD_W, draw.CARD_H)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if not args.only:
        for old in out.glob("*.webp"):
            old.unlink()
    for card_id, img in images.items():
        img.convert("RGB").resize(SIZE, 1).save(out / f"{card_id}.webp", "WEBP", quality=QUALITY, method=6)
    total = sum((out / f"{i}.webp").stat().st_size for i in images)
    print(f"{len(images)} cards, {total / 1e6:.2f} MB in {out}")
    if args.sheets:
        sheets.write(out)


if __name__ == "__main__":
    main()
