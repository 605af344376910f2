"""Summaries of py-spy "raw" (collapsed stack) profiles: where the server's CPU goes."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

# First match wins: the frame nearest the leaf that belongs to one of these decides the bucket.
BUCKETS = [
    ("json encode/decode", ("json/",)),
    ("sqlite / DB driver", ("sqlite3", "psycopg")),
    ("Django ORM", ("django/db/",)),
    ("partyhub views (viewmodel)", ("partyhub/rooms/views/viewmodel.py",)),
    ("game rules", ("tests/testgame/", "games/")),
    ("partyhub services", ("partyhub/rooms/write/services.py", "partyhub/rooms/domain/roomactions.py")),
    ("channel layer", ("channels/layers.py", "channels_redis/")),
    ("channels consumer/ASGI", ("channels/", "asgiref/")),
    ("daphne/autobahn/twisted (socket I/O)", ("daphne/", "autobahn/", "twisted/", "txaio/")),
    ("asyncio loop", ("asyncio/",)),
    ("threads (sync_to_async pool)", ("concurrent/futures", "threading.py")),
]
FRAME = re.compile(r"^(?P<fn>.*) \((?P<file>[^()]*?)(?::\d+)?\)$")


def _frames(stack: str):
    for part in stack.split(";"):
        m = FRAME.match(part)
        yield (m["fn"], m["file"]) if m else (part, "")


def summarize_profile(path: Path, top: int = 12) -> dict:
    path = Path(path)
    if not path.exists():
        return {"error": "no profile (py-spy missing or could not attach)"}
    total = 0
    self_c, incl, buckets = Counter(), Counter(), Counter()
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        n = int(n)
        frames = list(_frames(stack))
        fn, file = frames[-1]
        if fn.endswith(".select") or fn in ("select", "poll", "_worker"):
            continue            # waiting, not working
        total += n
        self_c[f"{fn} ({_short(file)})"] += n
        for key in {f"{f} ({_short(p)})" for f, p in frames}:
            incl[key] += n
        buckets[_bucket(frames)] += n
    if not total:
        return {"error": "empty profile"}
    pct = lambda c: [(k, round(100 * v / total, 1)) for k, v in c.most_common(top)]  # noqa: E731
    return {"samples": total, "buckets": pct(buckets), "self": pct(self_c), "inclusive": pct(incl)}


def _short(file: str) -> str:
    for mark in ("site-packages/", "/main/", "/lib/python3.11/"):
        if mark in file:
            return file.split(mark, 1)[1]
    return file


def _bucket(frames) -> str:
    for fn, file in reversed(frames):
        for name, marks in BUCKETS:
            if any(m in file for m in marks):
                return name
    return "other"
