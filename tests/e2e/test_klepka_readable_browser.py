"""Klepka read from across the room and played one-handed (issue 21), in a real browser.

The real shell (tv.html, phone.html) with its socket routed to a scripted server sending views
built by the real rules (tests/games/klepka/klepka_scenes.py):
- TV at 1920x1080 in en/uk/ru, every phase (flips, reveal, words, a word flying in, chaos, a
  prize taken, the results with the best words): no visible text of the klepka screen is
  under 16 px, its labels are at least 24 px, and "Remember the letters!" never pulses below
  60% opacity (sampled over its animation).
- Phones at 320 and 390 px: the whole table mirror fits the screen with no sideways scroll
  (issue 27: it once scrolled to its 8th column), every cell at least 24x24 (WCAG 2.5.8;
  Zoom enlarges it), and the page does not overflow; prize tiles show their whole name and their accessible name contains it;
  the polysemy picker and the exchange sheet are dialogs named by their heading that keep focus.
- axe-core finds no serious or critical problem on any of these screens, TV and phone (the
  results too: a whole klepka game is too long for tests/e2e/test_axe_sweep_browser.py).
Screenshots: tests/e2e/screenshots/klepka-readable-*.png.
"""
import asyncio
import copy
import re
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.axe import axe_check
from tests.e2e.browser import chromium, settled, shot, until
from tests.e2e.test_klepka_browser import Scripted, server  # noqa: F401 (the module's server fixture)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "klepka"))

pytestmark = [pytest.mark.browser, pytest.mark.slow]
FULL_HD = {"width": 1920, "height": 1080}
LABELS = ".k-words h3, .kp-name, .k-left, .ks-main, .ks-sub, .kp-empty, .kw-word, .kw-pts, .kp-score, .kr-head, .kr-text"

# Every visible text node under `root`: its text, computed font size and element class.
TEXTS = """(root) => {
  const out = [];
  for (const top of document.querySelectorAll(root)) {
    const walk = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      if (![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0)) continue;
      let hidden = false;
      for (let e = n.parentElement; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) { hidden = true; break; }
      }
      if (hidden) continue;
      const el = n.parentElement;
      out.push({ text: n.textContent.trim(), size: parseFloat(getComputedStyle(el).fontSize), cls: String(el.className) });
    }
  }
  return out;
}"""


async def scripted(browser, server, kind, token, viewport, errors):
    ctx = await browser.new_context(viewport=viewport, has_touch=kind != "tv", is_mobile=kind != "tv")
    p = await ctx.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: errors.append(m.text) if m.type == "error"
         and not m.text.startswith("Failed to load resource") else None)
    sock = Scripted()
    await p.route_web_socket(re.compile(r"/ws/rooms/"), sock.handler)
    key = "partyhub.host.KLEP" if kind == "tv" else "partyhub.seat.KLEP"
    await p.add_init_script(f"localStorage.setItem('{key}', '{token}');"
                            + ("localStorage.setItem('partyhub.pid.KLEP', 'p1');" if kind != "tv" else ""))
    return p, sock


async def readable(tv, phase, lang, root=".klepka-tv, .results-game", axe=True):
    texts = await tv.evaluate(TEXTS, root)
    assert texts, f"no text found on the TV in {phase}"
    small = [x for x in texts if x["size"] < 16]
    assert not small, f"text under 16 px on the TV ({phase}, {lang}): {small[:8]}"
    labels = await tv.evaluate("(sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length)"
                               ".map((e) => ({ text: e.textContent, size: parseFloat(getComputedStyle(e).fontSize) }))",
                               LABELS)
    thin = [x for x in labels if x["size"] < 24]
    assert not thin, f"labels under 24 px on the TV ({phase}, {lang}): {thin[:8]}"
    if axe:       # (not while a banner is up: it leaves before axe-core is done)
        await axe_check(tv, f"klepka tv {phase} {lang}")
    return texts


async def backs_fit(tv):
    # the back's "Клепка" fits its card, or (too small for 16 px) is not shown
    backs = await tv.locator(".kc:not(.up):not(.gone) .kc-back span").evaluate_all("""els => els.slice(0, 3)
        .filter((e) => e.getClientRects().length).map((e) => {
        const r = e.getBoundingClientRect(); const b = e.parentElement.getBoundingClientRect();
        return [r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1,
                [r.left, r.right, r.top, r.bottom], [b.left, b.right, b.top, b.bottom]]; })""")
    assert all(b[0] for b in backs), f"the back's 'Клепка' fits its card: {backs}"
    return backs


def big_table(envelope, viewer):
    """Six players holding many cards on a 12x10 table, two cards face up."""
    from klepka_helpers import deal, lay

    from games.klepka.rules import GAME
    import klepka_scenes
    seats = [f"p{i}" for i in range(1, 7)]
    s = GAME.setup(seats, {"table": "12x10"}, 5)
    for seat, letters in zip(seats, (["а", "а", "б", "в", "г", "ґ", "д", "е", "polysemy", "exchange", "chaos"],
                                     ["о", "о", "н", "н", "і", "і"], ["ф", "щ", "ш"], [], ["ю", "я"], ["к", "л"])):
        deal(s, seat, letters)
    refs = lay(s, ["ж", "ї"])
    s["phase"], s["turn"], s["pairs_left"] = "flips", 1, 1
    s["up"] = [int(refs[0][1:]), int(refs[1][1:])]
    players = klepka_scenes.PLAYERS
    extra = [("p4", "Олександра-Вікторія", "#ffd23f", "◆"), ("p5", "Ярослав", "#b388ff", "★"), ("p6", "Zoë", "#ff8c42", "✚")]
    klepka_scenes.PLAYERS = players + extra
    try:
        return envelope(s, viewer, "uk")
    finally:
        klepka_scenes.PLAYERS = players


def over_view(sc, envelope, lang, game):
    from games.klepka.rules import GAME
    s = copy.deepcopy(sc["word_made"])
    s["words"] += [{"seat": "p3", "word": "дерево", "points": 11, "double": True, "wild": None, "turn": 3},
                   {"seat": "p2", "word": "багатозначність", "points": 30, "double": False, "wild": None, "turn": 4}]
    s["phase"], s["end"] = "over", "all_done"
    v = envelope(s, game, lang)
    v["room"]["phase"], v["room"]["results"] = "over", GAME.outcome(s)
    v["actions"] = [a for a in v["actions"] if a["type"] in ("again", "end")]
    return v


async def test_the_tv_reads_from_across_the_room(chromium_path, server):  # noqa: F811
    import django
    django.setup()
    from klepka_scenes import envelope, scenes
    from partyhub.gamekit import TABLE
    sc = scenes()
    errors = []
    async with chromium(chromium_path) as browser:
        for lang in ("en", "uk", "ru"):
            tv, sock = await scripted(browser, server, "tv", "host", FULL_HD, errors)
            sock.view = envelope(sc["flips"], TABLE, lang)
            await tv.goto(f"{server.base}/tv/KLEP?lang={lang}")
            await tv.locator(".kc.up").nth(2).wait_for()
            await asyncio.sleep(0.8)
            await readable(tv, "flips", lang)
            assert len(await backs_fit(tv)) == 3, "a 10x10 card shows its 'Клепка'"
            await shot(tv, f"klepka-readable-tv-flips-{lang}")
            # the reveal: the headline pulses, never below 60% opacity
            await sock.push(envelope(sc["reveal"], TABLE, lang, int(time.time() * 1000) + 3000))
            await tv.locator(".k-status.reveal .ks-main").wait_for()
            # every running animation of the headline, stepped through its whole cycle
            samples = await tv.evaluate("""() => {
                const el = document.querySelector('.k-status.reveal .ks-main');
                const out = [];
                for (const a of el.getAnimations()) {
                  const d = a.effect.getComputedTiming().duration;
                  a.pause();
                  for (let i = 0; i <= 40; i += 1) { a.currentTime = (d * i) / 40; out.push(parseFloat(getComputedStyle(el).opacity)); }
                  a.play();
                }
                return out; }""")
            assert len(samples) >= 41, "the headline pulses (an animation to step through)"
            assert min(samples) >= 0.6, f"the headline blinks down to {min(samples)}"
            assert min(samples) < 0.95, "the headline does not pulse at all (sampling broken?)"
            await readable(tv, "reveal", lang)
            await shot(tv, f"klepka-readable-tv-reveal-{lang}")
            await sock.push(envelope(sc["words"], TABLE, lang))
            await asyncio.sleep(0.3)
            await readable(tv, "words", lang)
            await sock.push(envelope(sc["word_made"], TABLE, lang))
            await tv.locator(".k-fly").wait_for()
            await asyncio.sleep(0.7)
            await readable(tv, "word made", lang, axe=False)
            await shot(tv, f"klepka-readable-tv-word-{lang}")
            await tv.locator(".k-fly").wait_for(state="detached", timeout=5000)
            prize = next(c for c in sc["word_made"]["cards"].values() if c["kind"] == "chaos")
            await sock.push(envelope({**sc["word_made"], "last": {
                "type": "prize_taken", "seat": "p3", "ref": "t3", "seq": 98,
                "card": {"id": "c1", **{k: prize[k] for k in ("kind",)}}}}, TABLE, lang))
            await tv.locator(".k-banner.prize-b").wait_for()
            await asyncio.sleep(0.5)
            await readable(tv, "prize taken", lang, axe=False)
            assert "хаос" in await tv.locator(".k-banner.prize-b").inner_text()
            await axe_check(tv, f"klepka tv prize taken {lang}")
            await shot(tv, f"klepka-readable-tv-prize-{lang}")
            await sock.push(envelope({**sc["word_made"], "chaos_no": 1, "last": {
                "type": "table_shuffled", "seat": "p3", "seq": 99}}, TABLE, lang))
            await tv.locator(".kt-grid.chaos").wait_for()
            await readable(tv, "chaos", lang)
            # the results: the best words, with who made them
            await sock.push(over_view(sc, envelope, lang, TABLE))
            await tv.locator(".k-recap .kr-word").first.wait_for()
            words = await tv.locator(".kr-word").all_inner_texts()
            assert "БАГАТОЗНАЧНІСТЬ" in words[0] and "+30" in words[0] and "Max" in words[0], words
            assert "ДЕРЕВО" in words[1] and "Анна-Марія" in words[1], words
            await readable(tv, "results", lang, ".k-recap")
            await shot(tv, f"klepka-readable-tv-results-{lang}")
            await tv.context.close()
        # the long table (12x10, the smallest cards) with six players holding many cards
        tv, sock = await scripted(browser, server, "tv", "host", FULL_HD, errors)
        sock.view = big_table(envelope, TABLE)
        await tv.goto(f"{server.base}/tv/KLEP?lang=uk")
        await tv.locator(".kc.up").nth(1).wait_for()
        await asyncio.sleep(0.8)
        assert await tv.locator(".kc").count() == 120
        await readable(tv, "flips 12x10", "uk")
        await backs_fit(tv)
        await shot(tv, "klepka-readable-tv-12x10-uk")
        await tv.context.close()
    assert not errors, errors


async def test_the_phone_mirror_tiles_and_dialogs_at_320_and_390(chromium_path, server):  # noqa: F811
    import django
    django.setup()
    from klepka_scenes import envelope, scenes
    sc = scenes()
    errors = []
    async with chromium(chromium_path) as browser:
        for width, height, lang in ((320, 640, "uk"), (390, 844, "en"), (320, 640, "ru")):
            vp = {"width": width, "height": height}
            # the flipper: a 10x10 table inside the screen, every mirror cell a 24px target at
            # least, nothing overflows
            ph, sock = await scripted(browser, server, "phone", "tok2", vp, errors)
            sock.view = envelope(sc["flips"], "p2", lang)
            await ph.goto(f"{server.base}/j/KLEP?lang={lang}")
            await ph.locator(".k-mirror.active").wait_for()
            await settled(ph)       # the cells are dealt with an animation
            sizes = await ph.locator(".km-cell").evaluate_all(
                "els => els.map((e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
            assert len(sizes) == 100
            assert min(w for w, _ in sizes) >= 24 and min(h for _, h in sizes) >= 24, (width, min(sizes))
            inside = await ph.locator(".km-grid").evaluate(
                "g => g.getBoundingClientRect().right <= document.documentElement.clientWidth && g.scrollWidth <= g.clientWidth")
            assert inside, f"the mirror scrolls sideways at {width} px"
            await fits(ph)
            await axe_check(ph, f"klepka phone {width} flips {lang}")
            await shot(ph, f"klepka-readable-phone-flip-{width}-{lang}")
            # the last column is on screen, and its cell can be tapped
            cell = ph.locator(".km-cell.can").last
            await cell.scroll_into_view_if_needed()
            ref = await cell.get_attribute("data-ref")
            await cell.tap()
            await until(ph, "() => document.querySelector('.km-cell.tapped') !== null")
            assert sock.sent[-1]["d"] == {"type": "flip", "card": ref}
            await ph.context.close()
            # the word builder: prize tiles whole and named by what they show
            ph, sock = await scripted(browser, server, "phone", "tok1", vp, errors)
            sock.view = envelope(sc["words"], "p1", lang)
            await ph.goto(f"{server.base}/j/KLEP?lang={lang}")
            await ph.locator(".k-builder").wait_for()
            await settled(ph)
            prizes = await ph.locator(".k-hand .k-tile.k-prize").evaluate_all("""els => els.map((b) => {
                const n = b.querySelector('.kn'); const r = n.getBoundingClientRect(); const t = b.getBoundingClientRect();
                return { label: b.getAttribute('aria-label'), text: b.innerText, clipped: n.scrollWidth > n.clientWidth + 1
                  || r.right > t.right + 1 || r.left < t.left - 1 || r.bottom > t.bottom + 1, size: parseFloat(getComputedStyle(n).fontSize) }; })""")
            assert len(prizes) == 2, prizes
            for p in prizes:
                letters = re.sub(r"[^\w]+", " ", p["text"]).strip().lower()
                assert letters and letters in p["label"].lower(), p
                assert not p["clipped"] and p["size"] >= 14, p
            tiles = await ph.locator(".k-hand .k-tile:not(.k-prize)").evaluate_all(
                "els => els.map((b) => [b.getAttribute('aria-label'), b.innerText.replace(/\\s+/g, ' ').trim()])")
            for label, text in tiles:
                assert all(part in label for part in text.split()), (label, text)
            await ph.locator(".k-hand .k-tile:not(.k-prize)").first.tap()
            slot = await ph.locator(".k-tray .k-slot").first.evaluate(
                "(b) => [b.getAttribute('aria-label'), b.innerText.replace(/\\s+/g, ' ').trim()]")
            assert all(part in slot[0] for part in slot[1].split()), slot
            await fits(ph)
            await axe_check(ph, f"klepka phone {width} word builder {lang}", experimental=True)
            await shot(ph, f"klepka-readable-phone-hand-{width}-{lang}")
            # the polysemy picker: a named modal dialog that takes and keeps focus
            await ph.locator(".k-hand .k-tile", has=ph.locator(".prize-polysemy")).tap()
            dialog = ph.locator(".k-sheet[role=dialog]")
            await dialog.wait_for()
            await check_dialog(ph, dialog)
            await asyncio.sleep(0.4)     # the sheet slides in
            await shot(ph, f"klepka-readable-phone-picker-{width}-{lang}")
            await ph.keyboard.press("Escape")
            await dialog.wait_for(state="detached")
            assert await ph.evaluate("() => document.activeElement.closest('.k-tile') !== null"), "focus came back"
            # the exchange sheet, both steps
            await ph.locator(".k-exchange").tap()
            await dialog.wait_for()
            await check_dialog(ph, dialog)
            await ph.locator(".k-sheet .k-tile").first.tap()
            await ph.locator(".k-ex-seat").first.wait_for()
            await check_dialog(ph, dialog)
            await fits(ph)
            await asyncio.sleep(0.4)
            await shot(ph, f"klepka-readable-phone-exchange-{width}-{lang}")
            await ph.keyboard.press("Escape")
            await dialog.wait_for(state="detached")
            # the results: the best words with who made them, whole at this width
            await sock.push(over_view(sc, envelope, lang, "p1"))
            await ph.locator(".k-recap .kr-word").first.wait_for()
            assert await ph.locator(".kr-word").count() == 4
            await fits(ph)
            clipped = await ph.locator(".kr-text, .kr-name, .kr-pts").evaluate_all("""els => {
                const box = document.querySelector('.k-recap').getBoundingClientRect();
                const w = document.documentElement.clientWidth;
                return els.filter((e) => { const r = e.getBoundingClientRect();
                  return r.right > box.right + 1 || r.left < box.left - 1 || box.right > w + 1 || box.left < -1; })
                  .map((e) => e.textContent); }""")
            assert not clipped, clipped
            await axe_check(ph, f"klepka phone {width} results {lang}")
            await ph.locator(".k-recap").scroll_into_view_if_needed()
            await shot(ph, f"klepka-readable-phone-results-{width}-{lang}")
            await ph.context.close()
    assert not errors, errors


async def fits(ph):
    """No horizontal overflow once the entry animations have settled."""
    await until(ph, "() => document.scrollingElement.scrollWidth <= innerWidth", timeout=3000)


async def check_dialog(ph, dialog):
    name = await dialog.evaluate("(d) => d.getAttribute('aria-modal') === 'true'"
                                 " && (document.getElementById(d.getAttribute('aria-labelledby')) || {}).textContent")
    assert name and name.strip(), "the dialog has a name"
    await until(ph, "() => document.activeElement && document.activeElement.closest('[role=dialog]') !== null")
    count = await dialog.locator("button").count()
    for _ in range(count + 2):
        await ph.keyboard.press("Tab")
    assert await ph.evaluate("() => document.activeElement.closest('[role=dialog]') !== null"), "Tab left the dialog"
    await ph.keyboard.press("Shift+Tab")
    assert await ph.evaluate("() => document.activeElement.closest('[role=dialog]') !== null")
    await axe_check(ph, "klepka phone dialog " + await dialog.evaluate("(d) => d.className"), experimental=True)
