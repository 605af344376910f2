"""The shell for screen readers and the sofa: the phone's live region across a short game, the
pause overlay as a named dialog holding focus, a tie's title in en/uk/ru, and no TV text under
16 px at 1920x1080 in the lobby and on the results."""
import re

import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, join_phones, new_room, page, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HD = {"width": 1920, "height": 1080}
SAID = "() => (document.querySelector('.announce') || {}).textContent || ''"

# the smallest computed font size among visible text nodes: [px, the element, its text]
SMALLEST = """() => {
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let best = null;
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || !e || e.closest('.sr-only, [hidden], [aria-hidden=true]')) continue;
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    if (!r.width || !r.height || cs.visibility === 'hidden' || cs.display === 'none') continue;
    const px = parseFloat(cs.fontSize);
    if (!best || px < best[0]) best = [px, `${e.tagName.toLowerCase()}.${e.className}`, n.textContent.trim().slice(0, 40)];
  }
  return best;
}"""


async def said(p, text):
    return await until(p, f"() => ({SAID})().includes({text!r})", timeout=10_000)


async def test_the_phone_announces_phase_turn_and_moves_and_pause_is_a_dialog(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, HD, errors)
            tv, join_url = await new_room(browser, server.base, errors, tv=tv)
            ann, bo = await join_phones(browser, join_url, ["Ann", "Bo"], errors, tv=tv)
            assert await ann.locator(".announce[aria-live=polite][role=status]").count() == 1
            assert await tv.locator(".announce").count() == 0           # the TV has no live region
            assert (await tv.locator(".lobby-tv").count()) == 1
            small = await tv.evaluate(SMALLEST)
            assert small[0] >= 16, f"TV lobby: {small}"
            assert await tv.locator("h1").count() == 1 and await ann.locator("h1").count() == 1

            await ann.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {target: 3}})")
            await said(bo, "The game has started: Count to N.")
            await said(ann, "Done.")                         # Ann's start was accepted
            # a refused move says the error's message
            await until(ann, "() => window.partyhub.view.actions.some((a) => a.type === 'add')")
            await ann.evaluate("() => window.partyhub.act({type: 'add', n: 99})")
            err = await until(ann, f"() => {{ const s = ({SAID})(); return s && !s.includes('Done.') && s; }}", timeout=10_000)
            assert err.strip(), err

            # pause: a named modal dialog, focus inside it on the phone that can resume
            await ann.locator(".gamebar button.pause").click()
            await said(bo, "Paused")
            box = ann.locator(".overlay[role=dialog][aria-modal=true]")
            await box.wait_for()
            name = await ann.evaluate("() => { const o = document.querySelector('.overlay');"
                                      " return document.getElementById(o.getAttribute('aria-labelledby')).textContent; }")
            assert name == "Paused", name
            assert await ann.evaluate("() => document.querySelector('.overlay').contains(document.activeElement)")
            await ann.keyboard.press("Tab")
            await ann.keyboard.press("Tab")
            assert await ann.evaluate("() => document.querySelector('.overlay').contains(document.activeElement)")
            await shot(ann, "a11y-shell-pause-phone")
            await ann.keyboard.press("Enter")                # the focused Resume (or End) button
            await until(ann, "() => !window.partyhub.view.room.paused")
            # focus is back on the pause button (redrawn since: its twin)
            await until(ann, "() => document.activeElement && document.activeElement.classList.contains('pause')", timeout=5000)
            await said(bo, "The game goes on.")
            await until(ann, "() => window.partyhub.view.actions.some((a) => a.type === 'add')")
            await ann.evaluate("() => window.partyhub.act({type: 'add', n: 3})")
            await until(ann, "() => window.partyhub.view.room.phase === 'over'")
            await said(bo, "Game over.")
            await tv.locator(".podium").wait_for()
            small = await tv.evaluate(SMALLEST)
            assert small[0] >= 16, f"TV results: {small}"
            # the podium is centred on the screen, the scoreboard beside it
            mid = await tv.evaluate("() => { const r = document.querySelector('.podium').getBoundingClientRect();"
                                    " return (r.left + r.right) / 2; }")
            assert abs(mid - HD["width"] / 2) < 24, mid
            await shot(tv, "a11y-shell-results-tv")
            assert not errors, errors
    finally:
        server.kill()


TIES = {
    "en": ["Ann wins!", "Ann and Bob win!", "Ann, Bob, and Cy win!"],
    "uk": ["Перемога: Анна!", "Перемогли Анна і Богдан!", "Перемогли Анна, Богдан і Cy!"],
    "ru": ["Победа: Анна!", "Победили Анна и Богдан!", "Победили Анна, Богдан и Cy!"],
}


async def test_a_tie_reads_naturally_in_each_language(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    try:
        async with chromium(chromium_path) as browser:
            p = await page(browser, PHONE)
            await p.goto(f"{server.base}/?lang=en")
            got = await p.evaluate("""async () => {
              const i18n = await import('/static/common/i18n.js');
              const { winnerTitle } = await import('/static/common/announce.js');
              const { ranks } = await import('/static/common/results.js');
              const names = { en: ['Ann', 'Bob', 'Cy', 'Di'], uk: ['Анна', 'Богдан', 'Cy', 'Di'] };
              const out = {};
              for (const lang of ['en', 'uk', 'ru']) {
                await i18n.useLang(lang);
                const room = { players: (names[lang] || names.uk).map((name, i) => ({ id: 'p' + i, name })) };
                out[lang] = [1, 2, 3, 4].map((n) => winnerTitle(room, { winners: ['p0', 'p1', 'p2', 'p3'].slice(0, n) }));
                out[lang].push(winnerTitle(room, { winners: [] }));
              }
              // a broken tie (sketch) or an outright win (klepka): the winners stand apart on top
              const ps = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
              const pick = (r) => r.map((g) => [g.score, g.players.map((q) => q.id).join('')]);
              out.ranks = [pick(ranks(ps, { a: -5, b: -5, c: -6, d: -5 }, ['b'])),
                           pick(ranks(ps, { a: 3, b: 1, c: 3, d: 0 }, ['b'])),
                           pick(ranks(ps, { a: 2, b: 2, c: 1, d: 2 }, ['a', 'b', 'd'])),
                           pick(ranks(ps, { a: 2, b: 2, c: 1, d: 2 }))];
              return out;
            }""")
            for lang, want in TIES.items():
                assert got[lang][:3] == want, got[lang]
                assert "&" not in "".join(got[lang])
            assert got["en"][3:] == ["It's a tie!", "Results"]
            assert got["uk"][3:] == ["Нічия!", "Результати"]
            assert got["ru"][3:] == ["Ничья!", "Результаты"]
            assert got["ranks"] == [
                [[-5, "b"], [-5, "ad"], [-6, "c"]],
                [[1, "b"], [3, "ac"], [0, "d"]],
                [[2, "abd"], [1, "c"]],
                [[2, "abd"], [1, "c"]],
            ], got["ranks"]
    finally:
        server.kill()
