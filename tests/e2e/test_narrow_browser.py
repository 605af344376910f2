"""Nothing is wider than a 320 px screen: every page, at 320 px, in play.

Home (in each language), the join form, the TV's and the phone's lobby, each game's phone and
TV screens while it runs, the results, the admin's login. The page's scrollWidth must not be
more than the viewport's width (a sideways scroll clips the page on a small phone). Screenshots
of the home, join and a game screen at 320 px go to tests/e2e/screenshots/narrow-*.png.
"""
import re

import pytest

from tests.e2e.browser import chromium, e2e_server, page, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NARROW = {"width": 320, "height": 640}
GAMES = {"association": 3, "klepka": 2, "jinx": 3, "sketch": 3}

# the widest elements, to say what overflows when the page does
OVERFLOW = """() => {
  const w = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > w + 0.5 && getComputedStyle(e).position !== 'fixed')
    .slice(0, 6).map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
  return {scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, width: w, wide};
}"""


FAILS: list = []


async def fits(p, where):
    """Note the page `where` when it is wider than the screen (the test lists them all)."""
    o = await p.evaluate(OVERFLOW)
    if not (o["scroll"] <= o["width"] and o["body"] <= o["width"]):
        FAILS.append((where, o))


async def narrow_page(browser, errors, phone=True):
    p = await page(browser, NARROW, errors)
    if phone:       # a phone: touch and a mobile viewport, like browser.PHONE
        await p.close()
        ctx = await browser.new_context(viewport=NARROW, has_touch=True, is_mobile=True)
        p = await ctx.new_page()
    return p


async def playing(p, game):
    await until(p, f"() => {{ const v = window.partyhub && window.partyhub.view;"
                   f" return v && v.room.phase === 'playing' && v.room.game === '{game}'"
                   f" && !document.querySelector('.game-root > .loading'); }}")


async def test_no_page_is_wider_than_320_px(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await narrow_page(browser, errors, phone=False)
            for lang in ("en", "uk", "ru"):
                await tv.goto(f"{server.base}/?lang={lang}")
                await tv.locator("#new-room").wait_for()
                await fits(tv, f"home {lang}")
            await shot(tv, "narrow-home-ru")
            await tv.goto(f"{server.base}/admin/login/")
            await fits(tv, "admin login")
            await tv.goto(f"{server.base}/?lang=uk")
            await tv.locator("#new-room").click()
            await tv.wait_for_url(re.compile(r"/tv/[A-Z]{4}"))
            await tv.locator(".lobby-tv").wait_for()
            await fits(tv, "tv lobby")
            code = tv.url.rsplit("/", 1)[1]

            phone = await narrow_page(browser, errors)
            await phone.goto(f"{server.base}/j/{code}")
            await phone.locator("#name").wait_for()
            await fits(phone, "join")
            # the room's code in the form's head is on the screen, not clipped off its edge
            right = await phone.evaluate("() => document.querySelector('.join-room b').getBoundingClientRect().right")
            assert right <= NARROW["width"], right
            await shot(phone, "narrow-join-uk")
            await phone.fill("#name", "Олександра")
            await phone.locator(".join-bottom button[type=submit]").click()
            await phone.locator(".lobby-phone").wait_for()
            await fits(phone, "phone lobby")
            await tv.evaluate("() => { window.partyhub.act({type: 'add_bot'}); window.partyhub.act({type: 'add_bot'}); }")
            await until(tv, "() => window.partyhub.view.room.players.length === 3")
            await fits(tv, "tv lobby with players")
            await fits(phone, "phone lobby with players")

            for game in GAMES:
                await tv.evaluate("g => window.partyhub.act({type: 'start', game: g, options: {}})", game)
                await playing(tv, game)
                await playing(phone, game)
                await fits(tv, f"{game} tv")
                await fits(phone, f"{game} phone")
                await shot(phone, f"narrow-{game}-phone")
                await shot(tv, f"narrow-{game}-tv")
                await tv.evaluate("() => window.partyhub.act({type: 'end'})")
                await until(tv, "() => window.partyhub.view.room.phase === 'lobby'")

            # the results: a short game of count played to its end
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {target: 5}})")
            await playing(phone, "count")
            await until(phone, """() => { const app = window.partyhub;
                const add = app.gameActions().find((a) => a.type === 'add' && a.n === 3);
                if (add) app.act(add);
                return app.view.room.phase === 'over'; }""", timeout=60_000, every=0.3)
            await until(tv, "() => window.partyhub.view.room.phase === 'over'")
            await phone.locator(".results").wait_for()
            await fits(phone, "phone results")
            await fits(tv, "tv results")
            assert not FAILS, FAILS
            assert not errors, errors
    finally:
        FAILS.clear()
        server.kill()
