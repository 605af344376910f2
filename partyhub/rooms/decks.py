"""Custom decks: uploaded pictures checked, re-encoded and stored (docs/protocol.md, "Decks").

Every file is judged on its own: a bad one is reported by name with a code and the rest of
the upload goes on. A picture is accepted when Pillow recognises it as JPEG, PNG or WebP
(whatever its name says), it has at most 10 MB and at most MAX_PIXELS pixels (read from the
header, before anything is decoded). It is then re-encoded as a WebP of SIZE (the default
cards' 2:3 shape, cover-cropped) built from the pixels alone: no EXIF, ICC or XMP survives.
A zip is read entry by entry with bounded reads: at most MAX_ENTRIES entries, at most
MAX_ZIP_BYTES uncompressed in all, no absolute or "../" paths, no archives inside archives.
The deck goes through Django's storage API (default_storage) under decks/<id>/: the cards
first, the manifest last, since a deck is offered only once its manifest is there. In
compose that folder is the `decks` volume every web replica mounts.
"""
from __future__ import annotations

import io
import json
import os
import secrets
import time
import warnings
import zipfile
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, ImageOps

from games.association import deck as decks
from partyhub.rooms.errors import fail

SIZE = (600, 900)                    # the default deck's cards
MAX_IMAGE_BYTES = 10 * 1024 * 1024   # per picture
MAX_CARDS = 300                      # per deck
MAX_PIXELS = 40_000_000              # e.g. 8000 x 5000; checked from the header
MAX_ENTRIES = 1000                   # entries in one zip (folders included)
MAX_ZIP_BYTES = 1024 * 1024 * 1024   # uncompressed bytes read from one zip
MAX_NAME = 40
FORMATS = {"JPEG", "PNG", "WEBP"}
QUALITY = 82

class Refused(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


@dataclass
class Upload:
    cards: list = field(default_factory=list)      # WebP bytes, in upload order
    rejected: list = field(default_factory=list)   # {"file", "code", "message"}

    def reject(self, name: str, code: str, message: str) -> None:
        self.rejected.append({"file": name, "code": code, "message": message})


def clean_name(name) -> str:
    name = " ".join(str(name or "").split())
    if not 1 <= len(name) <= MAX_NAME:
        raise fail("bad_deck_name")
    return name


def reencode(data: bytes) -> bytes:
    """The picture as a clean SIZE WebP; raises Refused(code, message)."""
    if len(data) > MAX_IMAGE_BYTES:
        raise Refused("too_large", f"larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))   # reads the header only
            fmt = im.format
            if fmt not in FORMATS:
                raise Refused("unsupported_format", f"{fmt or 'this'} is not JPEG, PNG or WebP")
            w, h = im.size
            if w < 1 or h < 1 or w * h > MAX_PIXELS:
                raise Refused("too_many_pixels", f"{w}x{h} is more than {MAX_PIXELS} pixels")
            if fmt == "JPEG":
                im.draft("RGB", (SIZE[0], SIZE[1]))   # decode at a reduced scale when possible
            im.load()
            im = ImageOps.exif_transpose(im)
            if im.mode not in ("RGB", "RGBA"):
                im = im.convert("RGBA" if "A" in im.getbands() or "transparency" in im.info else "RGB")
            if im.mode == "RGBA":
                flat = Image.new("RGB", im.size, (255, 255, 255))
                flat.paste(im, mask=im.getchannel("A"))
                im = flat
            fitted = ImageOps.fit(im, SIZE, Image.Resampling.LANCZOS)
    except Refused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Refused("too_many_pixels", f"more than {MAX_PIXELS} pixels")
    except (Image.UnidentifiedImageError, OSError, SyntaxError, EOFError, ValueError,
            MemoryError) as e:
        code = "not_an_image" if isinstance(e, Image.UnidentifiedImageError) else "broken_image"
        raise Refused(code, "not a readable JPEG, PNG or WebP picture")
    clean = Image.frombytes("RGB", fitted.size, fitted.tobytes())   # pixels only: no metadata
    out = io.BytesIO()
    clean.save(out, "WEBP", quality=QUALITY, method=4)
    return out.getvalue()


def _safe_entry(name: str) -> bool:
    if not name or "\\" in name or name.startswith("/") or ":" in name:
        return False
    return ".." not in PurePosixPath(name).parts


def _add(up: Upload, label: str, data: bytes) -> None:
    if len(up.cards) >= MAX_CARDS:
        up.reject(label, "deck_full", f"a deck holds at most {MAX_CARDS} pictures")
        return
    try:
        up.cards.append(reencode(data))
    except Refused as e:
        up.reject(label, e.code, e.message)


def _read_zip(up: Upload, label: str, fileobj) -> None:
    try:
        archive = zipfile.ZipFile(fileobj)
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        up.reject(label, "bad_zip", "not a readable zip archive")
        return
    if len(infos) > MAX_ENTRIES:
        up.reject(label, "zip_too_many_entries", f"more than {MAX_ENTRIES} entries")
        return
    budget = MAX_ZIP_BYTES
    with archive:
        for info in infos:
            entry = f"{label}/{info.filename}"
            if info.is_dir():
                continue
            base = PurePosixPath(info.filename).name
            if base.startswith(".") or info.filename.startswith("__MACOSX/"):
                continue   # macOS resource forks and hidden files: not pictures, not errors
            if not _safe_entry(info.filename):
                up.reject(entry, "unsafe_path", "absolute or ../ paths are not allowed in a zip")
                continue
            if base.lower().endswith(".zip"):
                up.reject(entry, "nested_archive", "a zip inside a zip is not read")
                continue
            if info.file_size > MAX_IMAGE_BYTES:
                up.reject(entry, "too_large",
                          f"larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB")
                continue
            if budget <= 0:
                up.reject(entry, "zip_too_large", "the archive unpacks to too much data")
                continue
            try:
                with archive.open(info) as f:   # the header may lie: never read past the limit
                    data = f.read(min(MAX_IMAGE_BYTES, budget) + 1)
            except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, ValueError):
                up.reject(entry, "bad_zip", "this entry cannot be unpacked")
                continue
            budget -= len(data)
            if len(data) > MAX_IMAGE_BYTES:
                up.reject(entry, "too_large", f"larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB")
                continue
            if budget < 0:
                up.reject(entry, "zip_too_large", "the archive unpacks to too much data")
                continue
            _add(up, entry, data)


def read_files(files) -> Upload:
    """Each uploaded file (Django UploadedFile-like: .name, .size, .read(), .seek()) judged."""
    up = Upload()
    for f in files:
        label = os.path.basename(str(f.name or "file"))[:200]
        head = f.read(4)
        f.seek(0)
        if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
            _read_zip(up, label, f)
            continue
        if f.size is not None and f.size > MAX_IMAGE_BYTES:
            up.reject(label, "too_large", f"larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB")
            continue
        _add(up, label, f.read(MAX_IMAGE_BYTES + 1))
    return up


def card_key(deck_id: str, card_id: str) -> str:
    """Where a card lives in default_storage."""
    return f"decks/{deck_id}/{card_id}.webp"


def store(name: str, cards: list[bytes]) -> dict:
    """Write the deck under decks/<id>/ in default_storage: cards, then the manifest that makes
    it a deck. A failure part-way removes what was written."""
    deck_id = "u" + secrets.token_hex(5)
    while default_storage.exists(f"decks/{deck_id}/{decks.MANIFEST}"):
        deck_id = "u" + secrets.token_hex(5)
    written = []
    try:
        ids = []
        for n, webp in enumerate(cards, start=1):
            card_id = f"{deck_id}-{n:03d}"
            written.append(default_storage.save(card_key(deck_id, card_id), ContentFile(webp)))
            ids.append(card_id)
        manifest = {"name": name, "image": f"/decks/{deck_id}/{{id}}.webp", "created": time.time(),
                    "credit": "", "cards": [{"id": i, "objects": []} for i in ids]}
        text = json.dumps(manifest, ensure_ascii=False, indent=1).encode("utf-8")
        written.append(default_storage.save(f"decks/{deck_id}/{decks.MANIFEST}", ContentFile(text)))
    except BaseException:
        for key in written:
            default_storage.delete(key)
        raise
    return {"deck": deck_id, "name": name, "cards": len(ids)}


def listing() -> list[dict]:
    labels = decks.labels()
    return [{"id": d, "name": labels.get(d, d), "cards": len(decks.card_ids(d))}
            for d in decks.custom_ids()]
