"""The gallery page's content: a room's stored keepsakes (partyhub/rooms/models.Keepsake, written
at each game's end) turned into what the template shows, with the players' names and the
addresses of the pictures. Reads only. The texts the host hid (`hide`) are hidden here too:
every clue, word and name that matches one is PLACEHOLDER, as in the room's views."""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone

from django.utils.translation import gettext_lazy as _

from partyhub.decks import deckpass
from partyhub.rooms.access import familymode, portraits
from partyhub.rooms.store import store

GAME_NAMES = {"association": _("Association"), "jinx": _("Jinx"), "klepka": _("Klepka"),
              "sketch": _("Sketch")}
SYNTHETIC = re.compile(r"^f\d+$")                     # a stand-in face: no picture


def keepsakes(room) -> list:
    return store.find("keepsakes", room)


def shown(room, key: str, faces: bool = False) -> list[dict]:
    """Every keepsake of the room, newest first, as the page shows it; hidden texts hidden.
    `faces`: the players' faces too (portraits.py), for the room's own people only, never for
    the share link: each as {"color", "portrait"|"character"} JSON for keepfaces.js to draw."""
    hidden = familymode.hidden(room)
    seats = store.seats(room, kicked=True)
    names = {s.player_id: familymode.redact(s.name, hidden, "name") for s in seats}
    looks = {s.player_id: json.dumps({"color": s.color, "symbol": s.symbol, **portraits.shown(s)},
                                     separators=(",", ":")) for s in seats} if faces else {}
    games = keepsakes(room)
    for kept in games:          # read, never saved: the texts as the views show them
        kept.data = familymode.redact(kept.data or {}, hidden)
    return [_game(room, k, names, key, looks) for k in games]


def _game(room, kept, names: dict, key: str, looks: dict | None = None) -> dict:
    data = kept.data or {}
    name = lambda pid: names.get(pid, "?")   # noqa: E731
    scores = data.get("scores") or {}
    winners = set(data.get("winners") or [])
    seats = data.get("seats") or list(scores)
    out = {
        "game_no": kept.game_no, "game": kept.game, "title": GAME_NAMES.get(kept.game, kept.game),
        "at": datetime.fromtimestamp(kept.at / 1000, tz=timezone.utc),
        "players": sorted(({"name": name(p), "score": scores.get(p, 0), "winner": p in winners,
                            "face": (looks or {}).get(p, "")}
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
        "card": str(t.get("story_card")), "picture": picture(room, t.get("story_card"), data.get("image")),
        "found": [name(p) for p in t.get("found") or []],
    } for t in data.get("turns") or []]
    cards = data.get("cards") or {}
    out["cards"] = sorted(({"name": name(p), "count": len(faces),
                            "faces": [{"id": str(f), "picture": picture(room, f)} for f in faces]}
                           for p, faces in cards.items()), key=lambda c: -c["count"])
    out["words"] = [{"word": w.get("word", ""), "points": w.get("points", 0), "by": name(w.get("seat")),
                     "double": bool(w.get("double"))} for w in data.get("words") or []]
    return out


def picture(room, card_id, template: str | None = None) -> str | None:
    """A card's picture address (an uploaded deck's through the room's pass, the shipped deck's
    static file: partyhub/decks/deckpass.py), or None for a stand-in face."""
    return None if SYNTHETIC.match(str(card_id)) else deckpass.url(room, card_id, template)


def _file_name(game_no: int, n: int, word) -> str:
    safe = re.sub(r"[^\w-]+", "-", str(word or ""), flags=re.UNICODE).strip("-")[:40]
    return f"sketch-{game_no}-{n + 1}{'-' + safe if safe else ''}"
