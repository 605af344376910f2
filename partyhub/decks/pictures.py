"""Deck pictures judged and re-encoded, in a worker process (docs/protocol.md, "Decks").

Runs as `python -m partyhub.decks.pictures`, started by partyhub/decks/uploads.py with a job
on stdin: {"limits": {...}, "files": [{"label", "path"}], "out": folder}. It limits its own
address space and CPU time first, writes the accepted cards as out/0001.webp.. and prints
{"cards": n, "rejected": [...], "refused": null or {"code", "pixels"}}. No Django here.

Every file is judged on its own: a bad one is reported by name with a code and the rest of
the upload goes on. A picture is accepted when Pillow recognises it as JPEG, PNG or WebP
(whatever its name says), it has at most 10 MB and at most `pixels` pixels by its header.
It is then re-encoded as a WebP of `size` (the default cards' 2:3 shape, cover-cropped) built
from the pixels alone: no EXIF, ICC or XMP survives. A zip's end-of-central-directory record
is checked (entries, directory size) before its directory is read; then it is read entry by
entry with bounded reads: at most `zip_bytes` uncompressed in all, no absolute or "../"
paths, no archives inside archives.

Two passes. The first reads each picture's header only and adds up the pixels the deck would
decode (a JPEG counts at the reduced scale it is decoded at); over `deck_pixels`, the upload is
refused whole before anything is decoded. The second decodes and re-encodes.
"""
from __future__ import annotations

import io
import json
import resource
import struct
import sys
import warnings
import zipfile
import zlib
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

from PIL import Image, ImageOps

MB = 1024 * 1024
FORMATS = {"JPEG", "PNG", "WEBP"}
QUALITY = 82
PROBE_BYTES = 64 * 1024   # a picture's header is read from this much of it (more if it needs)


@dataclass(frozen=True)
class Limits:
    deck_pixels: int                 # decoded pixels of one deck (PARTYHUB_LIMITS)
    size: tuple = (600, 900)         # the default deck's cards
    image_bytes: int = 10 * MB       # per picture
    cards: int = 300                 # per deck
    pixels: int = 40_000_000         # per picture, by its header (e.g. 8000 x 5000)
    entries: int = 1000              # entries in one zip (folders included)
    directory_bytes: int = 1 * MB    # one zip's central directory
    zip_bytes: int = 1024 * MB       # uncompressed bytes read from one zip


class Refused(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def too_large(limits: Limits) -> Refused:
    return Refused("too_large", f"larger than {limits.image_bytes // MB} MB")


class Budget:
    """The uncompressed bytes a zip may still unpack (its entries' reads share it)."""

    def __init__(self, left: int):
        self.left = left


@dataclass
class Candidate:
    """One picture to judge: a file, or an entry of a zip (its reads share the zip's budget)."""
    seq: int
    label: str
    read: object                     # read(n) -> at most n bytes, from the start each time
    budget: Budget | None = None     # a zip entry's: the zip's
    pixels: int = 0


@dataclass
class Judged:
    cards: list = field(default_factory=list)      # WebP bytes, in upload order
    rejected: list = field(default_factory=list)   # (seq, {"file", "code", "message"})

    def reject(self, seq: int, label: str, code: str, message: str) -> None:
        self.rejected.append((seq, {"file": label, "code": code, "message": message}))


def _open(data: bytes, limits: Limits) -> Image.Image:
    """The picture's header read (nothing decoded); raises Refused(code, message)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))
            fmt = im.format
            if fmt not in FORMATS:
                raise Refused("unsupported_format", f"{fmt or 'this'} is not JPEG, PNG or WebP")
            w, h = im.size
            if w < 1 or h < 1 or w * h > limits.pixels:
                raise Refused("too_many_pixels", f"{w}x{h} is more than {limits.pixels} pixels")
            if fmt == "JPEG":
                im.draft("RGB", limits.size)   # decode at a reduced scale when possible
            return im
    except Refused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Refused("too_many_pixels", f"more than {limits.pixels} pixels")
    except (Image.UnidentifiedImageError, OSError, SyntaxError, EOFError, ValueError,
            MemoryError) as e:
        code = "not_an_image" if isinstance(e, Image.UnidentifiedImageError) else "broken_image"
        raise Refused(code, "not a readable JPEG, PNG or WebP picture")


def probe(c: Candidate, limits: Limits) -> int:
    """The pixels the picture decodes to, from its header; raises Refused."""
    head = c.read(PROBE_BYTES)
    try:
        im = _open(head, limits)
    except Refused:
        if len(head) < PROBE_BYTES:
            raise
        im = _open(c.read(limits.image_bytes + 1), limits)   # a header longer than the probe
    return im.size[0] * im.size[1]


def reencode(data: bytes, limits: Limits) -> bytes:
    """The picture as a clean `size` WebP; raises Refused(code, message)."""
    if len(data) > limits.image_bytes:
        raise too_large(limits)
    im = _open(data, limits)
    try:
        im.load()
        im = ImageOps.exif_transpose(im)
        if im.mode not in ("RGB", "RGBA"):
            im = im.convert("RGBA" if "A" in im.getbands() or "transparency" in im.info else "RGB")
        if im.mode == "RGBA":
            flat = Image.new("RGB", im.size, (255, 255, 255))
            flat.paste(im, mask=im.getchannel("A"))
            im = flat
        fitted = ImageOps.fit(im, limits.size, Image.Resampling.LANCZOS)
    except (OSError, SyntaxError, EOFError, ValueError, MemoryError):
        raise Refused("broken_image", "not a readable JPEG, PNG or WebP picture")
    clean = Image.frombytes("RGB", fitted.size, fitted.tobytes())   # pixels only: no metadata
    out = io.BytesIO()
    clean.save(out, "WEBP", quality=QUALITY, method=4)
    return out.getvalue()


def directory_size(fileobj) -> tuple[int, int]:
    """(entries, bytes) of a zip's central directory, from its end record (zip64 included):
    the very record zipfile reads, before zipfile reads the directory it points to."""
    end = zipfile._EndRecData(fileobj)
    if end is None:
        raise zipfile.BadZipFile("no end of central directory")
    return end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]


def _safe_entry(name: str) -> bool:
    if not name or "\\" in name or name.startswith("/") or ":" in name:
        return False
    return ".." not in PurePosixPath(name).parts


UNPACK_ERRORS = (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, ValueError,
                 EOFError, zlib.error)


def _file_reader(path: str):
    def read(n: int) -> bytes:
        with open(path, "rb") as f:
            return f.read(n)
    return read


def _entry_reader(archive: zipfile.ZipFile, info: zipfile.ZipInfo):
    def read(n: int) -> bytes:
        try:
            with archive.open(info) as f:   # the header may lie: never read past n
                return f.read(n)
        except UNPACK_ERRORS:
            raise Refused("bad_zip", "this entry cannot be unpacked")
    return read


class Collector:
    """Pass 0: the files and zip entries to judge, in upload order, with their budgets."""

    def __init__(self, limits: Limits, judged: Judged, stack: ExitStack):
        self.limits, self.judged, self.stack = limits, judged, stack
        self.found: list[Candidate] = []
        self.seq = 0

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def file(self, label: str, path: str) -> None:
        with open(path, "rb") as f:
            head, size = f.read(4), f.seek(0, 2)
        if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
            self.zip(label, path)
        elif size > self.limits.image_bytes:
            self.judged.reject(self.next_seq(), label, "too_large", too_large(self.limits).message)
        else:
            self.found.append(Candidate(self.next_seq(), label, _file_reader(path)))

    def zip(self, label: str, path: str) -> None:
        seq, limits = self.next_seq(), self.limits
        fp = self.stack.enter_context(open(path, "rb"))
        try:
            entries, directory = directory_size(fp)
            if entries > limits.entries or directory > limits.directory_bytes:
                self.judged.reject(seq, label, "zip_too_many_entries",
                                   f"more than {limits.entries} entries")
                return
            archive = self.stack.enter_context(zipfile.ZipFile(fp))
            infos = archive.infolist()
        except UNPACK_ERRORS + (struct.error,):
            self.judged.reject(seq, label, "bad_zip", "not a readable zip archive")
            return
        if len(infos) > limits.entries:
            self.judged.reject(seq, label, "zip_too_many_entries", f"more than {limits.entries} entries")
            return
        budget = Budget(limits.zip_bytes)
        for info in infos:
            self.entry(f"{label}/{info.filename}", archive, info, budget)

    def entry(self, label: str, archive, info, budget: Budget) -> None:
        base = PurePosixPath(info.filename).name
        if info.is_dir() or base.startswith(".") or info.filename.startswith("__MACOSX/"):
            return   # folders, macOS resource forks and hidden files: not pictures, not errors
        if not _safe_entry(info.filename):
            reason = ("unsafe_path", "absolute or ../ paths are not allowed in a zip")
        elif base.lower().endswith(".zip"):
            reason = ("nested_archive", "a zip inside a zip is not read")
        elif info.file_size > self.limits.image_bytes:
            reason = ("too_large", too_large(self.limits).message)
        else:
            self.found.append(Candidate(self.next_seq(), label, _entry_reader(archive, info), budget))
            return
        self.judged.reject(self.next_seq(), label, *reason)


def _data(c: Candidate, limits: Limits) -> bytes:
    """The picture's bytes, charged to its zip's budget; raises Refused."""
    budget = c.budget
    if budget is None:
        data = c.read(limits.image_bytes + 1)
    else:
        if budget.left <= 0:
            raise Refused("zip_too_large", "the archive unpacks to too much data")
        data = c.read(min(limits.image_bytes, budget.left) + 1)
        budget.left -= len(data)
    if len(data) > limits.image_bytes:
        raise too_large(limits)
    if budget is not None and budget.left < 0:
        raise Refused("zip_too_large", "the archive unpacks to too much data")
    return data


def judge(files: list[tuple[str, str]], limits: Limits, out: Path) -> dict:
    """Every (label, path) judged; the cards written to out/0001.webp..; the worker's answer."""
    judged = Judged()
    with ExitStack() as stack:
        found = Collector(limits, judged, stack)
        for label, path in files:
            found.file(label, path)
        planned = []
        for c in found.found:                             # pass 1: headers only
            try:
                c.pixels = probe(c, limits)
                planned.append(c)
            except Refused as e:
                judged.reject(c.seq, c.label, e.code, e.message)
        total = sum(c.pixels for c in planned[:limits.cards])
        if total > limits.deck_pixels:
            return {"cards": 0, "rejected": [], "refused": {"code": "deck_too_many_pixels",
                                                            "pixels": total}}
        spent = 0
        for c in planned:                                 # pass 2: decode
            try:
                if len(judged.cards) >= limits.cards:
                    raise Refused("deck_full", f"a deck holds at most {limits.cards} pictures")
                if spent + c.pixels > limits.deck_pixels:
                    raise Refused("deck_too_many_pixels", "the deck's pixels are spent")
                data = _data(c, limits)
                spent += c.pixels
                webp = reencode(data, limits)
            except Refused as e:
                judged.reject(c.seq, c.label, e.code, e.message)
                continue
            judged.cards.append(c.seq)
            (out / f"{len(judged.cards):04d}.webp").write_bytes(webp)
    rejected = [r for _, r in sorted(judged.rejected, key=lambda x: x[0])]
    return {"cards": len(judged.cards), "rejected": rejected, "refused": None}


def _confine(memory_bytes: int, cpu_seconds: float) -> None:
    """This process's own ceiling: address space and CPU seconds (SIGXCPU ends it)."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    cpu = max(1, int(cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))


def main() -> None:
    job = json.load(sys.stdin)
    _confine(job["memory_bytes"], job["cpu_seconds"])
    limits = Limits(**{k: tuple(v) if isinstance(v, list) else v for k, v in job["limits"].items()})
    files = [(f["label"], f["path"]) for f in job["files"]]
    json.dump(judge(files, limits, Path(job["out"])), sys.stdout)


def job(limits: Limits, files: list[tuple[str, str]], out: Path, memory_bytes: int,
        cpu_seconds: float) -> bytes:
    """The worker's stdin for these files (partyhub/decks/uploads.py)."""
    return json.dumps({"limits": asdict(limits), "out": str(out), "memory_bytes": memory_bytes,
                       "cpu_seconds": cpu_seconds,
                       "files": [{"label": label, "path": path} for label, path in files]}).encode()


if __name__ == "__main__":
    main()
