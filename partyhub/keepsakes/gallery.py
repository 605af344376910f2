"""The gallery page's content: a room's stored keepsakes (partyhub/rooms/models.Keepsake, written
at each game's end) turned into what the template shows, with the players' names and the
addresses of the pictures. Reads only."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from urllib.parse import quote

from django.templatetags.static import static
from django.utils.translation import gettext_lazy as _

from partyhub.rooms.models import Keepsake, Seat

GAME_NAMES = {"association": _("Association"), "jinx": _("Jinx"), "klepka": _("Klepka"),
              "sketch": _("Sketch")}
DEFAULT_CARDS = "games/association/cards/{id}.webp"   # the shipped deck's pictures
UPLOADED = re.compile(r"^(u[0-9a-f]{10})-\d{3}$")     # a face of an uploaded deck
SYNTHETIC = re.compile(r"^f\d+$")                     # a stand-in face: no picture


def keepsakes(room) -> list:
    return list(Keepsake.objects.filter(room=room).order_by("-game_no"))


def drawing(room, game_no: int, n: int) -> dict | None:
    """The strokes of drawing n of game game_no, and its word (None when there is none)."""
    kept = Keepsake.objects.filter(room=room, game_no=game_no, game="sketch").first()
    drawings = (kept.data.get("drawings") or []) if kept else []
    return drawings[n] if 0 <= n < len(drawings) else None


def shown(room, key: str) -> list[dict]:
    """Every keepsake of the room, newest first, as the page shows it."""
    names = {s.player_id: s.name for s in Seat.objects.filter(room=room)}
    return [_game(room, k, names, key) for k in keepsakes(room)]


def _game(room, kept, names: dict, key: str) -> dict:
    data = kept.data or {}
    name = lambda pid: names.get(pid, "?")   # noqa: E731
    scores = data.get("scores") or {}
    winners = set(data.get("winners") or [])
    seats = data.get("seats") or list(scores)
    out = {
        "game_no": kept.game_no, "game": kept.game, "title": GAME_NAMES.get(kept.game, kept.game),
        "at": datetime.fromtimestamp(kept.at / 1000, tz=timezone.utc),
        "players": sorted(({"name": name(p), "score": scores.get(p, 0), "winner": p in winners}
                           for p in seats), key=lambda p: -p["score"]),
    }
    base = f"/r/{room.code}/keepsakes/{kept.game_no}/drawing"
    out["drawings"] = [{
        "word": d.get("word") or "", "by": name(d.get("player")),
        "guessers": [name(p) for p in d.get("won_by") or []],
        "png": f"{base}/{n}.png?k={key}", "gif": f"{base}/{n}.gif?k={key}",
        "file": _file_name(kept.game_no, n, d.get("word")),
    } for n, d in enumerate(data.get("drawings") or [])]
    out["turns"] = [{
        "teller": name(t.get("storyteller")), "clue": t.get("clue") or "",
        "card": str(t.get("story_card")), "picture": picture(t.get("story_card"), data.get("image")),
        "found": [name(p) for p in t.get("found") or []],
    } for t in data.get("turns") or []]
    cards = data.get("cards") or {}
    out["cards"] = sorted(({"name": name(p), "count": len(faces),
                            "faces": [{"id": str(f), "picture": picture(f)} for f in faces]}
                           for p, faces in cards.items()), key=lambda c: -c["count"])
    out["words"] = [{"word": w.get("word", ""), "points": w.get("points", 0), "by": name(w.get("seat")),
                     "double": bool(w.get("double"))} for w in data.get("words") or []]
    return out


def picture(card_id, template: str | None = None) -> str | None:
    """A card's picture address, as the games' boards make it (association's deck template,
    an uploaded deck's face, the shipped deck), or None for a stand-in face."""
    card = str(card_id)
    if template:
        url = template.replace("{id}", quote(card))
        return url if url.startswith("/") else static(url)
    uploaded = UPLOADED.match(card)
    if uploaded:
        return f"/decks/{uploaded[1]}/{quote(card)}.webp"
    if SYNTHETIC.match(card):
        return None
    return static(DEFAULT_CARDS.replace("{id}", quote(card)))


def _file_name(game_no: int, n: int, word) -> str:
    safe = re.sub(r"[^\w-]+", "-", str(word or ""), flags=re.UNICODE).strip("-")[:40]
    return f"sketch-{game_no}-{n + 1}{'-' + safe if safe else ''}"
