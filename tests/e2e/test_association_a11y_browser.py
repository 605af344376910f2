"""Association at a real table (issue 21): a 140-character clue on a 1920x1080 TV keeps the
progress avatars and the "Next turn" hint in view; owner name tags read at 4.5:1 on every
player colour; on a 320 px phone the reveal's star never covers the 🔍 button; the phone's
cards are sibling buttons (no nested interactive control); the zoom dialog is named, takes
the focus, keeps it and gives it back. In en, uk and ru, with screenshots."""
import asyncio

import pytest

from partyhub.rooms.core.seating import SEAT_LOOKS
from tests.e2e.axe import axe_check
from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, page, settled, until
from tests.e2e.browser import shot as plain_shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BIG_TV = {"width": 1920, "height": 1080}
SMALL = {"width": 320, "height": 640}
CLUES = {
    "en": "a long winding road home through the rain, past the old lighthouse, the sleeping "
          "harbour and the garden where we used to read",
    "uk": "довга звивиста дорога додому крізь дощ, повз старий маяк, сонну гавань і сад, де "
          "ми колись читали книжки разом",
    "ru": "длинная извилистая дорога домой сквозь дождь, мимо старого маяка, спящей гавани и "
          "сада, где мы когда-то читали вместе",
}

# Contrast of an element's text on its own (opaque) background, from computed styles.
CONTRAST = """(el) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  let bg = el;
  while (bg && getComputedStyle(bg).backgroundColor.match(/rgba\\(.*, 0\\)$|transparent/)) bg = bg.parentElement;
  const a = lum(rgb(getComputedStyle(el).color));
  const b = lum(rgb(getComputedStyle(bg).backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""

# Every interactive control inside another one (axe's "nested-interactive").
NESTED = """() => [...document.querySelectorAll('button, [role=button], a[href], input, [tabindex]')]
  .filter((el) => el.parentElement && el.parentElement.closest('button, [role=button], a[href]'))
  .map((el) => el.outerHTML.slice(0, 80))"""

# The smallest visible text under `root` on the TV: [px, text] (issue 21: none under 16 px).
SMALLEST = """(root) => {
  const walk = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  let best = [1e9, ''];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el.getClientRects().length) continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || el.closest('[aria-hidden=true], .jx-sr')) continue;
    const px = parseFloat(st.fontSize);
    if (px < best[0]) best = [px, n.textContent.trim()];
  }
  return best;
}"""

INSIDE = """([inner, outer]) => {
  const a = document.querySelector(inner).getBoundingClientRect();
  const b = document.querySelector(outer).getBoundingClientRect();
  return a.top >= b.top - 1 && a.bottom <= b.bottom + 1 && a.bottom <= innerHeight && a.width > 0;
}"""


async def act(p, kind, pick=0, **extra):
    """Send the phone's `pick`-th offered action of this kind (as a tap would)."""
    await until(p, f"() => (window.partyhub.view.actions || []).some(a => a.type === '{kind}')")
    await p.evaluate("([kind, pick, extra]) => { const a = window.partyhub.view.actions"
                     ".filter(a => a.type === kind)[pick]; window.partyhub.act({...a, ...extra}); }",
                     [kind, pick, extra])


async def roles(phones):
    for _ in range(100):
        for i, p in enumerate(phones):
            if await p.evaluate("() => (window.partyhub.view.actions || []).some(a => a.type === 'tell')"):
                return p, [q for j, q in enumerate(phones) if j != i]
        await asyncio.sleep(0.1)
    raise AssertionError("nobody is asked to tell")


async def all_inside(tv, items, box):
    n = await tv.locator(items).count()
    assert n >= 2, items
    for i in range(n):
        ok = await tv.evaluate("""([sel, i, box]) => {
          const a = document.querySelectorAll(sel)[i].getBoundingClientRect();
          const b = document.querySelector(box).getBoundingClientRect();
          return a.top >= b.top - 1 && a.bottom <= b.bottom + 1 && a.bottom <= innerHeight && a.height > 0;
        }""", [items, i, box])
        assert ok, f"{items}[{i}] is cut by {box} or the screen"


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_reveal_reads_at_a_real_table(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, BIG_TV, errors)
            _, join_url = await new_room(browser, server.base, errors, lang=lang, tv=tv)
            phones = await join_phones(browser, join_url, ["Ann", "Богдан", "Zoë"], errors, tv=tv)
            await phones[0].set_viewport_size(SMALL)
            await tv.evaluate("window.partyhub.act({type: 'start', game: 'association', options: {}})")
            await tv.locator(".as-tv").wait_for()
            teller, others = await roles(phones)
            await act(teller, "tell", 0, clue=CLUES[lang])
            await tv.locator(".as-clue-text").wait_for()
            for p in others:
                await act(p, "submit", 0)
            await until(tv, "() => window.partyhub.view.game.phase === 'vote'")
            # the table on a voter's phone: its own card says "Yours", and each card's name
            # holds its visible text ("Card 3, Yours": WCAG 2.5.3, an experimental axe rule)
            voter = others[1]
            await voter.locator(".as-p-card.own .as-p-badge").wait_for()
            await settled(voter)
            await axe_check(voter, f"association phone vote {lang}", experimental=True)
            await act(others[0], "vote", 0)
            await tv.locator(".as-prog-p.done").first.wait_for()
            await asyncio.sleep(0.8)      # the tick's pop (a scale animation) is over
            # the long clue leaves every progress avatar in view
            await plain_shot(tv, f"association-a11y-tv-vote-long-{lang}")
            await all_inside(tv, ".as-prog-p", ".as-progress")
            await act(others[1], "vote", 0)
            await tv.locator(".as-table.revealing .owned").wait_for(timeout=10_000)
            await tv.locator(".as-case.pop").wait_for(timeout=10_000)
            await asyncio.sleep(0.6)
            await plain_shot(tv, f"association-a11y-tv-reveal-long-{lang}")
            assert await tv.evaluate(INSIDE, [".as-next-hint", ".as-progress"]), "the Next turn hint is cut"
            size, text = await tv.evaluate(SMALLEST, ".as-tv")
            assert size >= 16, (size, text)
            assert await tv.evaluate(INSIDE, [".as-case", ".as-progress"]), "the scoring case is cut"
            assert await tv.evaluate("() => { const c = document.querySelector('.as-clue'); "
                                     "return c.scrollHeight <= c.clientHeight + 1; }"), "the clue is cut"
            for el in await tv.locator(".as-owner-name").element_handles():
                assert await el.evaluate(CONTRAST) >= 4.5
            for p in phones:
                await p.locator(".as-p-card .as-owner").first.wait_for()
                for el in await p.locator(".as-owner-name").element_handles():
                    assert await el.evaluate(CONTRAST) >= 4.5
                assert await p.evaluate(NESTED) == []
                # the star rides on the owner tag: it never touches a 🔍 button
                clash = await p.evaluate("""() => {
                  const stars = [...document.querySelectorAll('.as-p-card .as-star')].map(s => s.getBoundingClientRect());
                  const zooms = [...document.querySelectorAll('.as-p-zoom')].map(z => z.getBoundingClientRect());
                  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
                  return {stars: stars.length, small: zooms.filter(z => z.width < 44 || z.height < 44).length,
                          clash: stars.some(s => zooms.some(z => hit(s, z)))};
                }""")
                assert clash == {"stars": 1, "small": 0, "clash": False}, clash
            small = phones[0]
            await plain_shot(small, f"association-a11y-phone320-reveal-{lang}")
            # every card is a named button of its own; the zoom is a named modal dialog
            names = await small.evaluate(
                "() => [...document.querySelectorAll('.as-p-pick')].map(b => b.getAttribute('aria-label'))")
            assert names and all(names), names
            opener = small.locator(".as-p-zoom").first
            await opener.focus()
            await opener.press("Enter")
            dialog = small.locator(".as-zoom:not([hidden])")
            await dialog.wait_for()
            title = await small.evaluate(
                "() => document.getElementById(document.querySelector('.as-zoom').getAttribute('aria-labelledby')).textContent")
            assert title.strip()
            assert await dialog.get_attribute("aria-modal") == "true"
            for _ in range(3):
                assert await small.evaluate("() => document.querySelector('.as-zoom').contains(document.activeElement)")
                await small.keyboard.press("Tab")
            await plain_shot(small, f"association-a11y-phone320-zoom-{lang}")
            await small.keyboard.press("Escape")
            await until(small, "() => document.querySelector('.as-zoom').hidden")
            assert await small.evaluate("() => document.activeElement.classList.contains('as-p-zoom')")
            assert not errors, errors
    finally:
        server.kill()


async def test_ink_reads_on_every_player_colour(tmp_path, chromium_path):
    """The ink chosen for a name tag reaches 4.5:1 on each colour of the seat palette."""
    server = e2e_server(tmp_path)
    try:
        async with chromium(chromium_path) as browser:
            p = await page(browser, BIG_TV)
            await p.goto(server.base + "/")
            colours = [c for c, _ in SEAT_LOOKS] + ["#888", "#ffffff", "#000000", "#767676"]
            got = await p.evaluate("""async (colours) => {
              const m = await import('/static/games/ink.js');
              return colours.map(c => [c, m.ink(c), m.contrast(c, m.ink(c))]);
            }""", colours)
            for colour, ink, ratio in got:
                assert ratio >= 4.5, (colour, ink, ratio)
            # yellow takes black, deep blue takes white: the choice is really made per colour
            assert dict((c, i) for c, i, _ in got)["#F0E442"] == "#000"
            assert dict((c, i) for c, i, _ in got)["#882255"] == "#fff"
    finally:
        server.kill()


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_results_recap_the_stories(tmp_path, chromium_path, lang):
    """Played to 1 point, the game ends after its first scored turn: the results show that
    turn's clue beside the storyteller's card, who found it and who was fooled."""
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, BIG_TV, errors)
            _, join_url = await new_room(browser, server.base, errors, lang=lang, tv=tv)
            phones = await join_phones(browser, join_url, ["Ann", "Богдан", "Zoë"], errors, tv=tv)
            await phones[0].set_viewport_size(SMALL)
            # no timers (association's default has them since issue 27): a reveal waits for "next"
            await tv.evaluate("window.partyhub.act({type: 'start', game: 'association', options: {target_score: 1,"
                              " tell_seconds: 0, submit_seconds: 0, vote_seconds: 0, reveal_seconds: 0}})")
            await tv.locator(".as-tv").wait_for()
            for turn in range(6):
                teller, others = await roles(phones)
                clue = f"{CLUES[lang][:24]} {turn}"
                await act(teller, "tell", 0, clue=clue)
                for p in others:
                    await act(p, "submit", 0)
                for p in others:
                    await act(p, "vote", 0)
                await until(tv, "() => window.partyhub.view.game.phase === 'reveal'")
                assert await tv.locator(".as-recap").count() == 0     # nothing before the end
                await act(others[0], "next", 0)
                await until(tv, "() => ['over', 'tell'].includes(window.partyhub.view.game.phase) "
                                "|| window.partyhub.view.room.phase !== 'playing'")
                if await tv.evaluate("() => window.partyhub.view.room.phase !== 'playing'"):
                    break
            res = await tv.evaluate("() => window.partyhub.view.room.results")
            recap = res["recap"]
            assert recap and recap[-1]["clue"] == clue
            await tv.locator(".as-recap-turn").nth(len(recap) - 1).wait_for()
            for p in [tv] + phones:
                await p.locator(".as-recap-clue", has_text=clue).wait_for()
                assert await p.locator(".as-recap-turn").count() == len(recap)
                card = p.locator(f'.as-recap-turn >> nth={len(recap) - 1} >> .as-face[data-card="{recap[-1]["story_card"]}"]')
                assert await card.count() == 1
                fooled = sum(len(r["fooled"]) for r in recap)
                assert await p.locator(".as-recap-line.fooled").count() >= (1 if fooled else 0)
                assert await p.evaluate(NESTED) == []
                # the recap never covers the results' buttons
                hit = await p.evaluate("""() => [...document.querySelectorAll('.result-actions .btn')].some((b) => {
                  const r = b.getBoundingClientRect();
                  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return top && !b.contains(top);
                })""")
                assert not hit
            await asyncio.sleep(0.5)
            await plain_shot(tv, f"association-a11y-tv-results-{lang}")
            await phones[0].locator(".as-recap").scroll_into_view_if_needed()
            await plain_shot(phones[0], f"association-a11y-phone320-results-{lang}")
            assert not errors, errors
    finally:
        server.kill()
