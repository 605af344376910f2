"""Sketch: what rendering a guessing round's views costs, with and without `GAME.blobs`.

    python -m bench.sketch_views

In-process (not a protocol client): a room of 8 players with 16 drawn boards of 1000 points
in its first guessing round (SQLite in a scratch folder), then `viewmodel.viewer_frames` for
all 10 viewers (TV, audience, 8 seats), as after every change: the mean of the best of three
runs of 200, and a cProfile of 50. "without" renders as main did before issue 17 (every view
holds every drawing); "with" names the drawings and encodes each once per change.
"""
from __future__ import annotations

import cProfile
import io
import math
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def guessing_room():
    from partyhub.rooms.access import selectors
    from partyhub.rooms.write import services
    from partyhub.rooms.models import StreamItem
    from partyhub.rooms.access.selectors import Actor
    from games.sketch.rules import GAME
    from tests.rooms.helpers import make_room

    code, _, seats = make_room(8)
    services.room_apply(code, Actor("tv"), None, {"type": "start", "game": "sketch",
                                                  "options": {"round_seconds": 600}})
    for n, seat in enumerate(seats):
        for b in range(2):
            state = selectors.room_read(code).room.state
            word = next(a["word"] for a in GAME.actions(state, seat.player_id)
                        if a["type"] == "draw" and a["board"] == b)
            services.room_apply(code, Actor("player", seat), None, {"type": "draw", "board": b, "word": word})
            room = selectors.room_get(code)
            for k in range(5):      # stream items as the consumer stores them; absorbed at the tick
                pts = [[round(0.5 + 0.45 * math.cos((i + n * 97 + b) / 23), 3),
                        round(0.5 + 0.4 * math.sin(i / 17 + k), 3)] for i in range(200)]
                StreamItem.objects.create(room_id=room.pk, game_no=room.game_no, seat=seat.player_id,
                                          data={"type": "stroke", "board": b, "points": pts,
                                                "color": "#000", "width": 4, "join": k > 0})
    services.room_tick(code, selectors.room_get(code).deadline_at)
    change = selectors.room_read(code)
    assert change.room.state["phase"] == "guessing"
    return code, change


def main():
    import tempfile
    os.environ["PARTYHUB_DATA"] = tempfile.mkdtemp(prefix="partyhub-bench-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "partyhub.settings")
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from games.sketch.rules import GAME
    from partyhub.rooms.views import viewmodel

    code, change = guessing_room()

    def render(n):
        t = time.perf_counter()
        for _ in range(n):
            viewmodel.viewer_frames(change.room, change.seats, "http://x/j/" + code)
        return (time.perf_counter() - t) / n * 1000

    kept = type(GAME).blobs
    try:
        for label, keys in (("without blobs", frozenset()), ("with blobs", kept)):
            type(GAME).blobs = keys
            render(20)
            ms = min(render(200) for _ in range(3))
            frames = viewmodel.viewer_frames(change.room, change.seats, "http://x/j/" + code)
            texts = sum(len(t.encode()) for t in frames.values()) / 1024
            values = sum(len(t.encode()) for t in frames.blobs.values()) / 1024
            print(f"{label}: {ms:.2f} ms for 10 viewers; view texts {texts:.1f} KiB, drawings "
                  f"encoded once {values:.1f} KiB")
            prof = cProfile.Profile()
            prof.enable()
            render(50)
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(5)
            print("\n".join(line for line in out.getvalue().splitlines()[4:14] if line.strip()))
    finally:
        type(GAME).blobs = kept


if __name__ == "__main__":
    main()
