"""Contact sheets of the shipped deck for docs/deck.md (`generate --sheets`), and its measures.

Sheets are JPEG, 8 cards a row, 100x150 a card (a phone's thumbnail); docs/deck.md quotes the
tables `report()` prints.
"""
from __future__ import annotations

import collections
from pathlib import Path

from . import measure, story

DOCS = Path(__file__).resolve().parents[3] / "docs" / "deck"
COLS, ROWS, THUMB = 8, 7, (100, 150)


def write(folder: Path, out: Path = DOCS) -> list[Path]:
    from PIL import Image
    cards = story.plan()
    out.mkdir(parents=True, exist_ok=True)
    made = []
    per = COLS * ROWS
    for n in range(0, len(cards), per):
        chunk = cards[n:n + per]
        rows = -(-len(chunk) // COLS)
        sheet = Image.new("RGB", (COLS * THUMB[0], rows * THUMB[1]), "#202020")
        for k, card in enumerate(chunk):
            with Image.open(Path(folder) / f"{card['id']}.webp") as img:
                sheet.paste(img.convert("RGB").resize(THUMB, 1), ((k % COLS) * THUMB[0], (k // COLS) * THUMB[1]))
        path = out / f"sheet-{n // per + 1}.jpg"
        sheet.save(path, "JPEG", quality=72, optimize=True)
        made.append(path)
    print(report(folder))
    return made


def report(folder: Path) -> str:
    """The measures as markdown: family shares, palettes, light, actors, twins, buckets."""
    cards = story.plan()
    n = len(cards)
    seen = measure.read(folder, [c["id"] for c in cards])
    twins = measure.twins({k: v[0] for k, v in seen.items()})
    buckets = collections.Counter(v[1] for v in seen.values())
    lines = ["| family | cards | share | first cards |", "|---|---|---|---|"]
    for fam, count in collections.Counter(c["family"] for c in cards).most_common():
        ids = ", ".join(c["id"] for c in cards if c["family"] == fam)[:40]
        lines.append(f"| {fam} | {count} | {100 * count / n:.1f}% | {ids}… |")
    pals = collections.Counter(c["palette"] for c in cards)
    lines += ["", "Palettes: " + ", ".join(f"{p} {k}" for p, k in pals.most_common()), "",
              f"- cards: {n}",
              f"- with an actor and a mood: {sum(bool(c['hero']) for c in cards)} "
              f"({100 * sum(bool(c['hero']) for c in cards) / n:.0f}%)",
              f"- sun or moon disc: {sum(c['light'] == 'disc' for c in cards)} "
              f"({100 * sum(c['light'] == 'disc' for c in cards) / n:.0f}%)",
              f"- layout twins (dHash <= {measure.TWIN_BITS} bits): {len(twins)} ({100 * len(twins) / n:.1f}%)",
              f"- largest colour bucket: {buckets.most_common(1)[0][0]} with {buckets.most_common(1)[0][1]} "
              f"({100 * buckets.most_common(1)[0][1] / n:.1f}%), {len(buckets)} buckets used"]
    return "\n".join(lines)
