"""Jinx at a real table (issue 21): finger names and the "out" tag read at 4.5:1, a phone
cell's accessible name contains its visible text, and jinx counts cards, not points (the
shell's score line and the results podium, with plurals in en, uk and ru)."""
import re

import pytest
from playwright.async_api import expect

from tests.e2e.axe import axe_check
from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, page, until
from tests.e2e.browser import shot as plain_shot
from tests.e2e.test_association_a11y_browser import BIG_TV, CONTRAST, NESTED, SMALLEST, act

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WORD = {"en": "cards", "uk": "карт", "ru": "карт"}


async def active_and_guessers(phones):
    for _ in range(100):
        for i, p in enumerate(phones):
            if await p.evaluate("() => (window.partyhub.view.actions || []).some(a => a.type === 'clue')"):
                return p, [q for j, q in enumerate(phones) if j != i]
        await until(phones[0], "() => true")
    raise AssertionError("nobody gives the clue")


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_fingers_out_tags_and_cells_read(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, BIG_TV, errors)
            _, join_url = await new_room(browser, server.base, errors, lang=lang, tv=tv)
            # Ann is yellow-orange, Богдан sky blue, Zoë green: white text failed on all three
            phones = await join_phones(browser, join_url, ["Ann", "Богдан", "Zoë"], errors, tv=tv)
            await tv.evaluate("window.partyhub.act({type: 'start', game: 'jinx', options: {}})")
            await tv.locator(".jx-tv").wait_for()
            active, guessers = await active_and_guessers(phones)
            target = await active.evaluate("() => window.partyhub.view.game.target")
            wrong = next(s for s in range(9) if s != target)
            await act(active, "clue", 0, text="maze")
            await until(guessers[0], "() => window.partyhub.view.game.phase === 'race'")
            await guessers[0].evaluate(f"window.partyhub.act({{type: 'pick', slot: {wrong}}})")
            await tv.locator(".jx-tag").wait_for()
            await tv.locator(".jx-finger").first.wait_for()
            await plain_shot(tv, f"jinx-a11y-tv-out-{lang}")
            size, text = await tv.evaluate(SMALLEST, ".jx-tv")
            assert size >= 16, (size, text)
            for el in await tv.locator(".jx-finger-name, .jx-tag, .jx-score.out .jx-score-name").element_handles():
                assert await el.evaluate(CONTRAST) >= 4.5, await el.inner_text()
            for p in phones:
                cell = p.locator(f'.jx-p-cell[data-slot="{wrong}"]')
                await cell.locator(".jx-finger").wait_for()
                name = (await cell.locator(".jx-finger-name").inner_text()).strip()
                assert name
                await expect(cell).to_have_accessible_name(re.compile(re.escape(name)))
                await expect(cell).to_have_accessible_name(re.compile(r"\d"))
                assert await cell.get_attribute("aria-label") is None
                for el in await p.locator(".jx-finger-name").element_handles():
                    assert await el.evaluate(CONTRAST) >= 4.5
                assert await p.evaluate(NESTED) == []
            await plain_shot(guessers[0], f"jinx-a11y-phone-out-{lang}")
            # the shell's score line counts cards
            line = await guessers[0].locator(".gb-score").inner_text()
            assert WORD[lang] in line and "point" not in line and "оч" not in line, line
            assert not errors, errors
    finally:
        server.kill()


async def test_results_count_cards_with_plurals(tmp_path, chromium_path):
    """The podium of a jinx game says cards with each language's plural forms."""
    server = e2e_server(tmp_path)
    try:
        async with chromium(chromium_path) as browser:
            p = await page(browser, BIG_TV)
            await p.goto(server.base + "/")
            got = await p.evaluate("""async () => {
              const i18n = await import('/static/common/i18n.js');
              const { renderResults } = await import('/static/common/results.js');
              await i18n.addPack(i18n.gamePack('/static/', 'jinx'));
              const players = [['a', 'Ann', 1], ['b', 'Bob', 3], ['c', 'Cy', 5], ['d', 'Di', 21], ['e', 'Ed', 0]]
                .map(([id, name, score]) => ({ id, name, score, color: '#E69F00', symbol: '●' }));
              const out = {};
              for (const lang of ['en', 'uk', 'ru']) {
                await i18n.useLang(lang);
                for (const game of ['jinx', 'association']) {
                  const box = document.createElement('div');
                  document.body.append(box);
                  const room = { game, players, results: { scores: Object.fromEntries(players.map(x => [x.id, x.score])), winners: ['d'] } };
                  renderResults(box, { room, you: { id: null }, actions: [] }, { page: 'tv', act() {}, vibrate() {} });
                  out[`${lang}-${game}`] = [...box.querySelectorAll('.pts')].map(e => e.textContent);
                  box.remove();
                }
              }
              return out;
            }""")
            assert got["en-jinx"] == ["5 cards", "21 cards", "3 cards", "1 card", "0 cards"], got
            assert got["uk-jinx"] == ["5 карток", "21 картка", "3 картки", "1 картка", "0 карток"], got
            assert got["ru-jinx"] == ["5 карт", "21 карта", "3 карты", "1 карта", "0 карт"], got
            assert got["en-association"][:2] == ["5 points", "21 points"], got   # other games: points
    finally:
        server.kill()


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_results_show_the_cards_each_player_won(tmp_path, chromium_path, lang):
    """The results hook draws the outcome's `cards`: a row per player, best first, with the
    pictures they won; a scrollable row is a tab stop."""
    server = e2e_server(tmp_path)
    try:
        async with chromium(chromium_path) as browser:
            p = await page(browser, BIG_TV)
            await p.goto(f"{server.base}/?lang={lang}")
            got = await p.evaluate("""async (lang) => {
              const dom = await import('/static/common/dom.js');
              const i18n = await import('/static/common/i18n.js');
              const { cardUrl } = await import('/static/common/cards.js');
              const { results } = await import('/static/games/jinx/tv.js');
              await i18n.addPack(i18n.gamePack('/static/', 'jinx'));
              await i18n.useLang(lang);
              const players = new Map([['a', { id: 'a', name: 'Ann', color: '#F0E442', symbol: '◆' }],
                                       ['b', { id: 'b', name: 'Богдан', color: '#0072B2', symbol: '★' }]]);
              const app = { h: dom.h, t: i18n.t, static: '/static/', players, lang,
                            card: (id) => cardUrl(null, 'ROOM', '/static/', id) };
              const box = document.createElement('div');
              document.body.replaceChildren(box);
              const cards = { a: ['a001', 'a002'], b: ['a010', 'a011', 'a012', 'a013', 'a014'] };
              results(box, { room: { game: 'jinx', results: { scores: { a: 2, b: 5 }, winners: ['b'], cards } } }, app);
              return [...box.querySelectorAll('.jx-recap-row')].map((row) => ({
                who: row.querySelector('.jx-recap-who').textContent,
                faces: [...row.querySelectorAll('.jx-face')].map((f) => f.dataset.face),
                tab: row.querySelector('.jx-recap-faces').tabIndex,
              }));
            }""", lang)
            five = {"en": "5 cards", "uk": "5 карток", "ru": "5 карт"}[lang]
            two = {"en": "2 cards", "uk": "2 картки", "ru": "2 карты"}[lang]
            assert got == [{"who": "★Богдан" + five, "faces": ["a010", "a011", "a012", "a013", "a014"], "tab": 0},
                           {"who": "◆Ann" + two, "faces": ["a001", "a002"], "tab": 0}], got
            await p.locator(".jx-recap-faces img").last.wait_for()
            # a whole jinx game is too long for tests/e2e/test_axe_sweep_browser.py: its recap here
            await axe_check(p, f"jinx results recap {lang}", selector=".jx-recap")
            await plain_shot(p, f"jinx-a11y-results-recap-{lang}")
    finally:
        server.kill()
