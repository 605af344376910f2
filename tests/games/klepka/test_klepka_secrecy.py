"""A face-down card's letter never leaves the server: not in the first frame, not after it is
turned back, not to the TV; card ids say nothing about letters."""
import json

from klepka_helpers import game, lay, new_state, ok

from partyhub.gamekit import AUDIENCE, TABLE

G = game()
VIEWERS = ("ann", "bob", "cat", TABLE, AUDIENCE)


def frames(s):
    return {v: json.dumps(G.view(s, v), ensure_ascii=False) for v in VIEWERS}


def test_the_first_frame_shows_only_table_positions():
    s = new_state(G)
    for text in frames(s).values():
        assert not any(f'"{cid}"' in text for cid in s["cards"])
        assert '"letter"' not in text
    cells = G.view(s, TABLE)["table"]
    assert cells[5] == {"ref": "t5", "down": True} and len(cells) == 100


def test_letters_turned_back_vanish_from_every_later_frame():
    s = new_state(G)
    refs = lay(s, ["ф", "щ"])
    ids = s["table"][:2]
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[0]}, 0))
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[1]}, 0))
    shown = frames(s)
    assert all('"ф"' in text and '"щ"' in text for text in shown.values())
    s = ok(G.on_deadline(s, 5_000))
    for text in frames(s).values():
        assert '"ф"' not in text and '"щ"' not in text
        assert ids[0] not in text and ids[1] not in text
    assert G.view(s, TABLE)["last"]["type"] == "cards_turned_down"


def test_card_ids_do_not_follow_the_printed_deck_order_or_the_deal():
    a, b = new_state(G, seed=1), new_state(G, seed=2)
    order = lambda s: [s["cards"][c].get("letter") for c in sorted(s["cards"])]  # noqa: E731
    assert order(a) != order(b)
    assert sorted(a["cards"]) != sorted(b["cards"]) or a["table"] != b["table"]


def test_after_chaos_a_known_card_cannot_be_followed():
    s = new_state(G)
    (chaos,) = [c for c in s["table"] if s["cards"][c]["kind"] == "chaos"][:1]
    s["table"][s["table"].index(chaos)] = None
    s["hands"]["bob"].append(chaos)
    refs = lay(s, ["ф", "щ"])
    s = ok(G.apply(s, "ann", {"type": "flip", "card": refs[0]}, 0))
    s = ok(G.apply(s, "bob", {"type": "chaos", "card": chaos}, 0))
    view = G.view(s, TABLE)
    assert all(cell == {"ref": cell["ref"], "down": True} for cell in view["table"] if cell)
    assert '"ф"' not in json.dumps(view, ensure_ascii=False)
