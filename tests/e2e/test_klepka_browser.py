"""Klepka in a real browser.

1. A real game on a live server: the TV creates a room, two phones join through the join URL,
   the TV starts a short klepka (6x8); the players flip cards with real taps on the table
   mirror (remembering what the TV showed) until a pair lies in a hand, then the holder taps
   two letters and sends them: the server's `not_a_word` refusal, or points when the pair
   makes a word ("її"); a dispute is settled with the dictionary. Screenshots: tests/e2e/screenshots/klepka-live-*.png.
2. The screens in en/uk/ru: the real shell (tv.html, phone.html) with its socket routed to a
   scripted server sending mid-game views built by the real rules (a word flying in, the
   reveal, the polysemy picker, the exchange sheet, "not a word"); the frames the phones
   send are checked. Screenshots: tests/e2e/screenshots/klepka-<screen>-<lang>.png.
"""
import asyncio
import json
import re
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.browser import PHONE, TV, chromium, e2e_server, join_phones, new_room, page, shot, until
from tests.liveserver import Daphne, free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "klepka"))

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV_VIEW = "() => window.partyhub.view && window.partyhub.view.game"


async def tv_game(tv):
    return await tv.evaluate(TV_VIEW)


async def flip(phone, tv, ref, seen):
    """Tap a face-down card of the mirror; remember the letter the TV then shows there."""
    await phone.locator(f'.km-cell.can[data-ref="{ref}"]').tap()
    for _ in range(100):
        g = await tv_game(tv)
        cells = {c["ref"]: c for c in g["table"] if c}
        cell = cells.get(ref)
        if cell is None or not cell["down"]:      # taken (a prize) or face up
            if cell is not None and cell["card"]["kind"] == "letter":
                seen[ref] = cell["card"]["letter"]
            return g, cell
        await asyncio.sleep(0.05)
    raise AssertionError(f"{ref} did not turn")


async def play_flips(phone, tv, seen, turn_no):
    """The flips of turn `turn_no`, like a player with a good memory. The turn can pass with no
    reveal and the phase still "flips" (a pair of a prize card and a letter: the letter goes
    back face down at once), so it ends when the phase or the turn changes."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        await asyncio.sleep(0.1)
        g = await tv_game(tv)
        if g["phase"] != "flips" or g["turn_no"] != turn_no:
            return g
        can = [c.split('"')[1] for c in await phone.locator(".km-cell.can").evaluate_all(
            "els => els.map(e => `\"${e.dataset.ref}\"`)")]
        if not can:
            continue
        pending = [r for r in g["flips"]["pending"] if r]
        down = set(can)
        known = {r: l for r, l in seen.items() if r in down}
        if pending:
            letter = seen.get(pending[0])
            match = next((r for r, l in known.items() if l == letter and r != pending[0]), None)
            ref = match or next((r for r in can if r not in seen), can[0])
        else:
            pairs = {}
            for r, l in known.items():
                pairs.setdefault(l, []).append(r)
            pair = next((rs for rs in pairs.values() if len(rs) >= 2), None)
            ref = pair[0] if pair else next((r for r in can if r not in seen), can[0])
        await flip(phone, tv, ref, seen)
    raise AssertionError(f"turn {turn_no} still in its flips after 60 s: {g}")


async def test_a_real_game_turns_with_the_tv_and_two_phones(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang="uk")
            phones = await join_phones(browser, join_url, ["Оля", "Max"], errors, tv=tv)
            await tv.locator(".game-card", has_text="Клепка").click()
            await tv.locator(".opts-toggle").click()
            await tv.locator(".opt select").first.select_option(value="6x8")   # the label is translated
            await tv.locator(".opts-drawer .drawer-head button").click()
            await tv.locator("button.start").click()
            await tv.locator(".klepka-tv").wait_for()
            for p in phones:
                await p.locator(".klepka-phone").wait_for()
            g = await tv_game(tv)
            assert (g["rows"], g["cols"], g["options"]["reveal_seconds"]) == (6, 8, 3)
            assert await tv.locator(".kc").count() == 48
            assert await tv.locator(".kc-back", has_text="Клепка").count() == 48
            await shot(tv, "klepka-live-tv-start")
            ids = [p["id"] for p in g and (await tv.evaluate("window.partyhub.view.room.players"))]
            seen = {}
            holder, revealed = None, False
            for turn in range(14):
                g = await tv_game(tv)
                phone = phones[ids.index(g["turn"])]
                if g["phase"] == "words":
                    holder = phone
                    break
                await phone.locator(".k-mirror.active").wait_for()
                if turn == 0:
                    await shot(phone, "klepka-live-phone-flip")
                n = g["turn_no"]
                g = await play_flips(phone, tv, seen, n)
                if g["phase"] == "reveal" and not revealed:    # the first reveal (a turn that
                    revealed = True                            # ends on a prize card has none)
                    await tv.locator(".kc.up").first.wait_for()
                    await asyncio.sleep(0.7)
                    await shot(tv, "klepka-live-tv-reveal")
                # the turn ends: the next seat plays once the letters are turned back
                await until(tv,
                    "(n) => { const g = window.partyhub.view.game; return g.turn_no > n || g.phase === 'words'; }",
                    arg=n, timeout=10000)
            assert holder is not None, "nobody collected a pair in 14 turns"
            # the holder builds a non-word from two letters and gets the server's refusal
            await holder.locator(".k-builder").wait_for()
            tiles = holder.locator(".k-hand .k-tile:not(.inert)")
            await tiles.nth(0).tap()
            await tiles.nth(1).tap()
            assert await holder.locator(".k-tray .k-slot").count() == 2
            word = await holder.locator(".k-send-word").inner_text()
            known = await holder.evaluate("(w) => fetch('/api/dictionary/uk/' + w).then(r => r.json())", word.lower())
            await holder.locator(".k-send").tap()
            if not known["known"]:
                await holder.locator(".toast.error").wait_for()
                assert "слова немає" in (await holder.locator(".toast.error").first.inner_text())
                await holder.locator(".k-tray.shake").wait_for()
                await shot(holder, "klepka-live-phone-not-a-word")
            else:
                await holder.locator(".k-scored").wait_for()
                await shot(holder, "klepka-live-phone-scored")
            await shot(tv, "klepka-live-tv-words")
            # a dispute settled from the phone
            other = phones[1 - phones.index(holder)]
            await other.locator(".k-dispute summary").tap()
            await other.fill(".k-dispute-in", "україні")
            await other.locator(".k-dispute-form button").tap()
            await other.locator(".k-dispute-out.known").wait_for()
            await other.fill(".k-dispute-in", "кітх")
            await other.locator(".k-dispute-form button").tap()
            await other.locator(".k-dispute-out.unknown").wait_for()
            await shot(other, "klepka-live-phone-dispute")
            # done with words: the holder goes on to the flips. A pair of і or ї makes a word
            # ("її"), and a word that uses every letter ends the words at once.
            if await holder.evaluate("() => window.partyhub.view.game.phase") == "words":
                await holder.locator(".k-done").tap()
            await holder.locator(".k-mirror.active").wait_for()
            assert not errors, errors
    finally:
        server.kill()


# ---- the screens in three languages, with scripted views ------------------------------------

class Scripted:
    """A fake room socket for one page: sends views, answers pings, records what is sent."""

    def __init__(self):
        self.ws, self.sent, self.v = None, [], 0
        self.view = None

    async def handler(self, ws):
        self.ws = ws
        ws.on_message(self.on_message)
        if self.view is not None:
            await self.push(self.view)

    def on_message(self, msg):
        f = json.loads(msg)
        if f.get("t") == "ping":
            self.ws.send(json.dumps({"t": "pong", "d": {"c": f["d"]["c"], "s": int(time.time() * 1000)}}))
        elif f.get("t") == "act":
            self.sent.append(f)

    async def push(self, view):
        self.view = view
        if self.ws is not None:
            self.v += 1
            self.ws.send(json.dumps({"t": "view", "v": self.v, "d": view}, ensure_ascii=False))

    async def error(self, code, ref):
        self.ws.send(json.dumps({"t": "error", "d": {"code": code, "message": code, "ref": ref}}))


async def scripted_page(browser, server, kind, token, errors):
    p = await page(browser, TV if kind == "tv" else PHONE, errors)
    sock = Scripted()
    await p.route_web_socket(re.compile(r"/ws/rooms/"), sock.handler)
    key = "partyhub.host.KLEP" if kind == "tv" else "partyhub.seat.KLEP"
    await p.add_init_script(f"localStorage.setItem('{key}', '{token}');"
                            + ("localStorage.setItem('partyhub.pid.KLEP', 'p1');" if kind != "tv" else ""))
    return p, sock


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    srv = Daphne(tmp_path_factory.mktemp("klepka-e2e"), {"PUBLIC_URL": f"http://127.0.0.1:{port}"},
                 port=port).migrate().start()
    yield srv
    srv.kill()


async def test_the_screens_in_three_languages(chromium_path, server):
    import django
    django.setup()
    from klepka_scenes import scenes
    sc = scenes()
    errors = []
    async with chromium(chromium_path) as browser:
        for lang in ("en", "uk", "ru"):
            await screens(browser, server, sc, lang, errors)
    assert not errors, errors


async def screens(browser, server, sc, lang, errors):
    from klepka_scenes import envelope
    from partyhub.gamekit import TABLE
    if True:
        # ---- TV
        tv, tsock = await scripted_page(browser, server, "tv", "host", errors)
        tsock.view = envelope(sc["flips"], TABLE, lang)
        await tv.goto(f"{server.base}/tv/KLEP?lang={lang}")
        await tv.locator(".kc.up").nth(2).wait_for()
        await asyncio.sleep(0.8)
        await shot(tv, f"klepka-tv-flips-{lang}")
        await tsock.push(envelope(sc["reveal"], TABLE, lang, int(time.time() * 1000) + 3000))
        await tv.locator(".k-status.reveal").wait_for()
        await asyncio.sleep(0.8)
        await shot(tv, f"klepka-tv-reveal-{lang}")
        await tsock.push(envelope(sc["words"], TABLE, lang))
        await asyncio.sleep(0.3)
        await tsock.push(envelope(sc["word_made"], TABLE, lang))
        await tv.locator(".k-fly").wait_for()
        await asyncio.sleep(0.7)
        await shot(tv, f"klepka-tv-word-{lang}")
        await tv.locator(".k-fly").wait_for(state="detached", timeout=5000)
        await tsock.push(envelope({**sc["word_made"], "chaos_no": 1,
                                   "last": {"type": "table_shuffled", "seat": "p3", "seq": 99}}, TABLE, lang))
        await tv.locator(".kt-grid.chaos").wait_for()
        await asyncio.sleep(0.5)
        await shot(tv, f"klepka-tv-chaos-{lang}")
        # ---- phone of p1: building a word, the polysemy picker, not a word, points
        ph, psock = await scripted_page(browser, server, "phone", "tok1", errors)
        psock.view = envelope(sc["words"], "p1", lang)
        await ph.goto(f"{server.base}/j/KLEP?lang={lang}")
        await ph.locator(".k-builder").wait_for()
        for letter in ("к", "і", "т"):
            await ph.locator(".k-hand .k-tile", has=ph.locator(".kl", has_text=letter.upper())).first.tap()
        await shot(ph, f"klepka-phone-word-{lang}")
        await ph.locator(".k-hand .k-tile", has=ph.locator(".prize-polysemy")).tap()
        await ph.locator(".k-abc").wait_for()
        await shot(ph, f"klepka-phone-polysemy-{lang}")
        await ph.locator(".k-abc-btn", has_text="И").tap()
        await ph.locator(".k-send").tap()
        for _ in range(50):
            if psock.sent:
                break
            await asyncio.sleep(0.05)
        act = psock.sent[-1]
        hand = {c["id"]: c for c in psock.view["game"]["mine"]}
        wild = next(c for c in hand if hand[c]["kind"] == "polysemy")
        assert act["d"]["type"] == "word" and act["d"]["wild"] == {"card": wild, "letter": "и"}
        assert [hand[c].get("letter", "и") for c in act["d"]["cards"]] == list("кіти")
        await psock.error("not_a_word", act["id"])
        await ph.locator(".toast.error").wait_for()
        await ph.locator(".k-tray.shake").wait_for()
        await shot(ph, f"klepka-phone-not-a-word-{lang}")
        await psock.push(envelope(sc["word_made"], "p1", lang))
        await ph.locator(".k-scored").wait_for()
        await asyncio.sleep(0.4)
        await shot(ph, f"klepka-phone-scored-{lang}")
        # exchange at any moment: give one of mine, take one of another player's
        await ph.locator(".k-exchange").tap()
        await ph.locator(".k-sheet .k-tile").first.tap()
        await ph.locator(".k-ex-seat").first.wait_for()
        await shot(ph, f"klepka-phone-exchange-{lang}")
        await ph.locator(".k-ex-seat .k-tile").first.tap()
        await asyncio.sleep(0.2)
        assert psock.sent[-1]["d"]["type"] == "exchange"
        assert psock.sent[-1]["d"] in psock.view["actions"]
        # ---- phone of p2 flipping; p3 waiting with a chaos card
        ph2, s2 = await scripted_page(browser, server, "phone", "tok2", errors)
        s2.view = envelope(sc["flips"], "p2", lang)
        await ph2.goto(f"{server.base}/j/KLEP?lang={lang}")
        await ph2.locator(".k-mirror.active").wait_for()
        await ph2.locator(".k-zoom").tap()
        await shot(ph2, f"klepka-phone-flip-zoom-{lang}")
        await ph2.locator(".k-zoom").tap()
        await shot(ph2, f"klepka-phone-flip-{lang}")
        cell = ph2.locator(".km-cell.can").nth(5)
        ref = await cell.get_attribute("data-ref")
        await cell.tap()
        await asyncio.sleep(0.2)
        assert s2.sent[-1]["d"] == {"type": "flip", "card": ref}
        ph3, s3 = await scripted_page(browser, server, "phone", "tok3", errors)
        s3.view = envelope(sc["flips"], "p3", lang)
        await ph3.goto(f"{server.base}/j/KLEP?lang={lang}")
        await ph3.locator(".k-chaos").wait_for()
        await shot(ph3, f"klepka-phone-waiting-{lang}")
        await ph3.locator(".k-chaos").tap()
        await asyncio.sleep(0.2)
        assert s3.sent[-1]["d"]["type"] == "chaos"
        for p in (tv, ph, ph2, ph3):
            await p.context.close()
