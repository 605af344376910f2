"""Deck uploads decoded off the event loop, in a worker process that can be stopped.

A thread cannot be killed and shares the server's memory, so the pictures are judged by
`python -m partyhub.decks.pictures`: one short-lived process per upload that limits its own
address space (`deck_worker_bytes`) and CPU time, and is killed when `deck_seconds` of wall
time have passed. The request's thread waits for it (the event loop does not). One upload at
a time per room, and at most `deck_workers` at once in this process: another is refused at
once with `upload_busy` rather than queued (a waiting request would hold a thread).
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from partyhub.decks import pictures
from partyhub.rooms.core.errors import fail

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]
_lock = threading.Lock()
_rooms: set[str] = set()     # rooms with an upload being judged in this process


def limits() -> pictures.Limits:
    return pictures.Limits(deck_pixels=settings.PARTYHUB_LIMITS["deck_pixels"])


@contextmanager
def one_at_a_time(code: str):
    """Hold this room's upload slot and one of the process's worker slots, or fail at once."""
    with _lock:
        if code in _rooms or len(_rooms) >= settings.PARTYHUB_LIMITS["deck_workers"]:
            raise fail("upload_busy")
        _rooms.add(code)
    try:
        yield
    finally:
        with _lock:
            _rooms.discard(code)


@dataclass
class Judged:
    cards: list[Path]       # the WebP cards, in upload order (inside a temporary folder)
    rejected: list[dict]    # {"file", "code", "message"}


def _inputs(files, folder: Path) -> list[tuple[str, str]]:
    """(label, path) per uploaded file: Django's own temporary file, or one written here."""
    out = []
    for n, f in enumerate(files):
        label = os.path.basename(str(f.name or "file"))[:200]
        if hasattr(f, "temporary_file_path"):
            out.append((label, f.temporary_file_path()))
            continue
        path = folder / f"in-{n:04d}"
        with open(path, "wb") as dst:
            for chunk in f.chunks():
                dst.write(chunk)
        out.append((label, str(path)))
    return out


def _run(stdin: bytes) -> dict:
    limit = settings.PARTYHUB_LIMITS
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    try:
        done = subprocess.run([sys.executable, "-m", "partyhub.decks.pictures"], input=stdin,
                              capture_output=True, timeout=limit["deck_seconds"], cwd=ROOT, env=env)
    except subprocess.TimeoutExpired:   # subprocess.run has killed it
        raise fail("upload_too_slow")
    if done.returncode < 0:             # SIGXCPU (its CPU limit) or SIGKILL
        raise fail("upload_too_slow")
    if done.returncode != 0:
        log.error("deck worker failed: %s", done.stderr.decode(errors="replace")[-2000:])
        raise fail("upload_failed")
    return json.loads(done.stdout)


@contextmanager
def judged(files, cards: int | None = None):
    """The uploaded files judged by a worker; the cards (at most `cards`, else a deck's) live
    until the block ends."""
    limit = settings.PARTYHUB_LIMITS
    with tempfile.TemporaryDirectory(prefix="partyhub-deck-") as tmp:
        folder = Path(tmp)
        (folder / "out").mkdir()
        most = limits() if cards is None else dataclasses.replace(limits(), cards=cards)
        stdin = pictures.job(most, _inputs(files, folder), folder / "out",
                             limit["deck_worker_bytes"], limit["deck_seconds"])
        answer = _run(stdin)
        refused = answer["refused"]
        if refused:
            mp = limit["deck_pixels"] // 1_000_000
            raise fail(refused["code"], f"These pictures decode to {refused['pixels'] // 1_000_000} "
                                        f"million pixels; a deck may hold {mp} million.")
        cards = [folder / "out" / f"{n:04d}.webp" for n in range(1, answer["cards"] + 1)]
        yield Judged(cards, answer["rejected"])
