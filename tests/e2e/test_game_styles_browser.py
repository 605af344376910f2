"""A game's first screen is drawn with its stylesheet applied, on the TV and on a phone, for
each of the four games (common/sheet.js, gamescreen.js). Drawn before, the TV showed the game
unstyled for a moment at its start: jinx's square, piles and scores stacked down the screen
(CI caught it at 1280x720). Each game's stylesheet is held back 1.5 s here, as on a slow
network, so that a screen drawn before it applies is seen."""
import asyncio

import pytest

from tests.e2e.browser import PHONE, TV, chromium, e2e_server, new_room, page, seat_page, until
from tests.liveserver import http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEATS = {"association": 3, "jinx": 3, "klepka": 2, "sketch": 3}

# On each change of the game root: whether a game's screen (anything but the shell's
# "Loading…") is drawn, and if so whether every game stylesheet in the page has applied then.
WATCH = """() => {
  window.firstDraw = null;
  const root = document.querySelector('.game-root') || document.body;
  const seen = () => {
    if (window.firstDraw) return;
    const r = document.querySelector('.game-root');
    if (!r || !r.firstElementChild || r.querySelector(':scope > .loading')) return;
    const sheets = [...document.querySelectorAll('link[rel=stylesheet]')].filter((l) => l.href.includes('/static/games/'));
    window.firstDraw = { sheets: sheets.map((l) => [l.href.split('/static/')[1], !!l.sheet]) };
  };
  new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
}"""


async def slow_styles(p):
    async def hold(route):
        await asyncio.sleep(1.5)
        await route.continue_()
    await p.route("**/static/games/**/*.css", hold)


@pytest.mark.parametrize("game", sorted(SEATS))
async def test_the_first_screen_of_a_game_has_its_styles(tmp_path, chromium_path, game):
    server = e2e_server(tmp_path)
    errors = []
    async with chromium(chromium_path) as browser:
        tv = await page(browser, TV, errors)
        await slow_styles(tv)
        _, join_url = await new_room(browser, server.base, errors, tv=tv)
        code = join_url.rsplit("/", 1)[1]
        seats = []
        for i in range(SEATS[game]):
            status, seat = http("POST", f"{server.base}/api/rooms/{code}/join", {"name": f"P{i}"})
            assert status == 201, seat
            seats.append(seat)
        phone = await seat_page(browser, server.base, code, seats[0], PHONE)
        await slow_styles(phone)
        for p in (tv, phone):
            await p.evaluate(WATCH)
        await tv.evaluate("(g) => window.partyhub.act({type: 'start', game: g, options: {}})", game)
        for p in (tv, phone):
            drawn = await until(p, "() => window.firstDraw", timeout=20_000)
            assert drawn["sheets"], drawn                              # the game links its styles
            assert all(ok for _, ok in drawn["sheets"]), drawn          # and they applied first
            assert any(href == f"games/{game}/{game}.css" for href, _ in drawn["sheets"]), drawn
        assert not errors, errors
