"""Recorded frames of whole klepka games through the real consumers: no connection (TV, every
player, the audience, reconnects) ever sees a face-down card: not its id, not its letter at its
place, not in `last` after it was turned back. Collected cards lie open, so the only secrets
are the cards face down on the table."""
import pytest

from games.klepka.rules import GAME, views
from tests.harness.recorded import play_recorded

pytestmark = pytest.mark.django_db(transaction=True)


def secrets(state, viewer):
    """What no viewer may see in this state: every face-down card, by id and at its place."""
    up = set(state["up"])
    out = []
    for slot, cid in enumerate(state["table"]):
        if cid is None or slot in up:
            continue
        out += [f'"{cid}"', f'"ref":"t{slot}","down":false', f'"ref":"t{slot}","card"']
    return out


def chooser():
    """A player with a memory: flips remembered pairs, makes real words, plays prizes."""
    seen = {}
    chaos_no = [0]

    def choose(view, acts, rnd):
        g = view["game"]
        if g["chaos_no"] != chaos_no[0]:
            seen.clear()
            chaos_no[0] = g["chaos_no"]
        for cell in g["table"]:
            if cell and not cell["down"] and cell["card"]["kind"] == "letter":
                seen[cell["ref"]] = cell["card"]["letter"]
        for ref in [r for r in seen if g["table"][int(r[1:])] is None]:
            del seen[ref]
        anytime = [a for a in acts if a["type"] in ("chaos", "exchange")]
        turn = [a for a in acts if a["type"] not in ("chaos", "exchange")]
        if anytime and (not turn or rnd.random() < 0.08):
            return rnd.choice(anytime)
        flips = {a["card"]: a for a in turn if a["type"] == "flip"}
        if flips:
            return flips[pick_flip(g, flips, seen, rnd)]
        tpl = next((a for a in turn if a["type"] == "word"), None)
        if tpl and rnd.random() < 0.15:
            letters = [c for c in g["mine"] if c["kind"] == "letter"][:2]
            if letters:        # a guess that is most likely not a word: an error frame
                return {**tpl, "cards": [c["id"] for c in letters]}
        if tpl and rnd.random() < 0.8:
            word = build_word(g["mine"], g["options"])
            if word:
                return {**tpl, **word}
        return next(a for a in turn if a["type"] == "words_done")

    return choose


def pick_flip(g, flips, seen, rnd):
    down = {r: letter for r, letter in seen.items() if r in flips}
    pending = [r for r in (g["flips"] or {}).get("pending", []) if r]
    if pending and pending[0] in seen:
        match = next((r for r, letter in down.items() if letter == seen[pending[0]]), None)
        if match:
            return match
    if not pending:
        by_letter = {}
        for r, letter in down.items():
            by_letter.setdefault(letter, []).append(r)
        pair = next((rs for rs in by_letter.values() if len(rs) > 1), None)
        if pair:
            return pair[0]
    unknown = [r for r in flips if r not in seen]
    return rnd.choice(unknown or list(flips))


def build_word(mine, options):
    letters = [c["letter"] for c in mine if c["kind"] == "letter"]
    wild = next((c["id"] for c in mine if c["kind"] == "polysemy"), None)
    found = GAME.words.find(letters, bool(wild), nouns_only=options["nouns_only"],
                            min_letters=options["min_letters"])
    if not found:
        return None
    word, wild_letter = found[0]
    free = {}
    for c in mine:
        if c["kind"] == "letter":
            free.setdefault(c["letter"], []).append(c["id"])
    cards = []
    for ch in word:
        if free.get(ch):
            cards.append(free[ch].pop())
        elif wild and ch == wild_letter:
            cards.append(wild)
        else:
            return None
    return {"cards": cards, "wild": {"card": wild, "letter": wild_letter} if wild in cards else None}


@pytest.mark.parametrize("players,seed,reveal", [(2, 1, 1), (3, 2, 0)])
async def test_whole_games_leak_no_face_down_card_to_any_connection(players, seed, reveal):
    rec = await play_recorded("klepka", players, {"table": "6x8", "reveal_seconds": reveal},
                              seed=seed, reconnect_every=15, choose=chooser(), max_steps=1500)
    final = rec.states[max(rec.states)]
    assert final["phase"] == "over", "the game reached its end"
    checked = rec.check(secrets)
    kinds = {e["type"] for e in rec.log["events"]}
    assert {"card_flipped", "pair_taken", "cards_turned_down", "word_made", "game_ended"} <= kinds
    assert rec.reconnects >= 2
    print(f"klepka {players}p: {checked} frames checked, {rec.actions} actions, "
          f"{len(final['words'])} words, end={final['end']}")
    assert checked > 200


async def test_the_check_catches_a_planted_leak(monkeypatch):
    real = views._table

    def leaky(state):   # a face-down cell that carries its card id
        cells = real(state)
        for slot, cell in enumerate(cells):
            if cell and cell["down"]:
                cells[slot] = {**cell, "id": state["table"][slot]}
                break
        return cells

    monkeypatch.setattr(views, "_table", leaky)
    rec = await play_recorded("klepka", 2, {"table": "6x8", "reveal_seconds": 0}, seed=3,
                              reconnect_every=0, choose=chooser(), max_steps=12)
    with pytest.raises(AssertionError, match="saw"):
        rec.check(secrets)
