"""Headless Chromium as the rasteriser (generation time only; needs /usr/bin/chromium, no network).

Chromium draws every SVG filter the cards use (turbulence, displacement, blur, blend), so the
cards are rasterised once to WebP and phones and TVs only decode pictures.
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--default-background-color=00000000"]
SCALE = 1.5      # pixels per SVG unit: 400x600 cards become 600x900 pictures


def _run(args: list[str], cwd: str) -> str:
    command = [CHROMIUM, *FLAGS, f"--force-device-scale-factor={SCALE}", *args]
    out = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    return out.stdout


def measure_boxes(drawings: dict[str, str]) -> dict[str, list[float]]:
    """The bounding box [x, y, w, h] (72x72 units) of each emoji drawing, measured by the browser."""
    groups = "".join(f'<g id="e{i}">{body}</g>' for i, body in enumerate(drawings.values()))
    script = ("const r={};document.querySelectorAll('svg g[id^=e]').forEach(g=>{const b=g.getBBox();"
              "r[g.id]=[b.x,b.y,b.width,b.height].map(v=>Math.round(v*10)/10)});"
              "document.getElementById('out').textContent=JSON.stringify(r);")
    page = (f'<html><body><svg xmlns="http://www.w3.org/2000/svg" width="72" height="72">{groups}'
            f'</svg><pre id="out"></pre><script>{script}</script></body></html>')
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "m.html").write_text(page, encoding="utf-8")
        dom = _run(["--dump-dom", "m.html"], tmp)
    raw = dom[dom.index('<pre id="out">') + 14: dom.index("</pre>")]
    boxes = json.loads(raw.replace("&quot;", '"'))
    return {name: boxes[f"e{i}"] for i, name in enumerate(drawings)}


def rasterise(svgs: dict[str, str], width: int, height: int, cols: int = 8) -> dict:
    """Each SVG drawn to a Pillow image of width x height (RGBA), a grid page at a time."""
    from PIL import Image

    images = {}
    ids = list(svgs)
    batch = cols * 5
    for start in range(0, len(ids), batch):
        chunk = ids[start:start + batch]
        rows = -(-len(chunk) // cols)
        with tempfile.TemporaryDirectory() as tmp:
            cells = []
            for n, card_id in enumerate(chunk):
                Path(tmp, f"{n}.svg").write_text(svgs[card_id], encoding="utf-8")
                x, y = (n % cols) * width, (n // cols) * height
                cells.append(f'<img src="{n}.svg" style="position:absolute;left:{x}px;top:{y}px;'
                             f'width:{width}px;height:{height}px">')
            page = ("<html><body style='margin:0;background:transparent'>" + "".join(cells)
                    + "</body></html>")
            Path(tmp, "p.html").write_text(page, encoding="utf-8")
            shot = Path(tmp, "shot.png")
            _run([f"--screenshot={shot}", f"--window-size={cols * width},{rows * height}",
                  "--virtual-time-budget=20000", "p.html"], tmp)
            sheet = Image.open(shot).convert("RGBA")
            pw, ph = round(width * SCALE), round(height * SCALE)
            for n, card_id in enumerate(chunk):
                x, y = (n % cols) * pw, (n // cols) * ph
                images[card_id] = sheet.crop((x, y, x + pw, y + ph))
    return images
