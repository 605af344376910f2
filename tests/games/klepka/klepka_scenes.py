"""Crafted klepka mid-game views built from the real rules (for the browser screens test)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from klepka_helpers import deal, lay, to_words_phase  # noqa: E402

from games.klepka.rules import GAME  # noqa: E402
from partyhub.gamekit import TABLE  # noqa: E402

PLAYERS = [("p1", "Оля", "#ff5d8f", "●"), ("p2", "Max", "#4cc9f0", "▲"), ("p3", "Анна-Марія", "#3ddc97", "■")]


def apply(s, seat, action):
    r = GAME.apply(s, seat, action, 1000)
    assert hasattr(r, "state"), r
    return r.state


def ids(s, seat, letters):
    hand = list(s["hands"][seat])
    out = []
    for ch in letters:
        c = next(c for c in hand if s["cards"][c].get("letter") == ch or s["cards"][c]["kind"] == ch)
        hand.remove(c)
        out.append(c)
    return out


def scenes():
    s = GAME.setup([p[0] for p in PLAYERS], {**{k: o.default for k, o in GAME.options.items()}}, 11)
    deal(s, "p1", ["к", "і", "т", "о", "polysemy", "н", "а", "р", "exchange"])
    deal(s, "p2", ["с", "а", "л", "о", "в", "exchange", "е"])
    deal(s, "p3", ["р", "е", "chaos", "д", "и"])
    to_words_phase(s, "p2")
    s = apply(s, "p2", {"type": "word", "cards": ids(s, "p2", "сало"), "wild": None})
    s = apply(s, "p2", {"type": "words_done"})
    refs = lay(s, ["ф", "щ", "ж"])
    s = apply(s, "p2", {"type": "flip", "card": refs[0]})
    s = apply(s, "p2", {"type": "flip", "card": refs[1]})
    s = apply(s, "p2", {"type": "flip", "card": refs[2]})
    out = {"flips": s}
    s = apply(s, "p2", {"type": "flip", "card": "t57"})
    if s["phase"] != "reveal":
        s = apply(s, "p2", {"type": "flip", "card": "t58"})
    out["reveal"] = s
    s = GAME.on_deadline(s, s["reveal_until"] or 10_000).state
    to_words_phase(s, "p1")
    out["words"] = s
    s = apply(s, "p1", {"type": "word", "cards": ids(s, "p1", "кіт"), "wild": None})
    out["word_made"] = s
    return out


def envelope(s, viewer, lang, deadline=None):
    scores = GAME.scores(s)
    role = "tv" if viewer == TABLE else "player"
    return {"room": {"code": "KLEP", "phase": "playing", "game": "klepka", "game_no": 1, "vip": "p1",
                     "paused": False, "language": lang, "locked": False, "streamer": False,
                     "extended": False, "takeover": False, "join_url": "http://partyhub.test/j/KLEP",
                     "players": [{"id": i, "name": n, "color": c, "symbol": y, "connected": True,
                                  "score": scores[i], "bot": False} for i, n, c, y in PLAYERS],
                     "audience": 0, "options": s["options"], "results": None, "scoreboard": {"played": 0, "wins": {}, "recent": []}},
            "you": {"role": role, "id": None if role == "tv" else viewer},
            "game": GAME.view(s, viewer), "deadline": deadline,
            "actions": ([{"type": "pause"}, {"type": "end"}] if role == "tv" else [])
            + GAME.actions(s, viewer)}
