"""The TV's "n watching" counts everyone who watches without a seat (issue 27): it counted
only spectator seats. Here two phones watch by name (one audience pass, open in two tabs:
one person) and one anonymously; the TV at 1920x1080 says "2 watching", then "3 watching".
Screenshot: tests/e2e/screenshots/watching-tv-1920.png."""
import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, new_room, page, settled, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BIG_TV = {"width": 1920, "height": 1080}
BADGE = "() => { const b = document.querySelector('.players-head .badge.watching'); return b ? b.textContent : ''; }"


async def test_the_tv_counts_passes_once_and_anonymous_watchers(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, BIG_TV, errors)
            _, join_url = await new_room(browser, server.base, errors, tv=tv)
            assert await tv.evaluate(BADGE) == ""                 # nobody watches yet
            zoe = await page(browser, PHONE, errors)
            await zoe.goto(join_url)
            await zoe.fill("#name", "Zoe")
            await zoe.locator(".join-bottom button.watch").click()
            await zoe.locator(".lobby-phone").wait_for()
            second_tab = await zoe.context.new_page()              # the same pass in another tab
            await second_tab.goto(join_url)
            await second_tab.locator(".lobby-phone").wait_for()
            anonymous = await page(browser, PHONE, errors)
            await anonymous.goto(join_url + "?watch")
            await anonymous.locator(".lobby-phone").wait_for()
            await until(tv, f"() => ({BADGE})() === '2 watching'", timeout=10_000)
            await settled(tv)
            await shot(tv, "watching-tv-1920")
            other = await page(browser, PHONE, errors)
            await other.goto(join_url + "?watch")
            await other.locator(".lobby-phone").wait_for()
            await until(tv, f"() => ({BADGE})() === '3 watching'", timeout=10_000)
            await other.context.close()
            await second_tab.close()                               # Zoe still watches in her first tab
            await until(tv, f"() => ({BADGE})() === '2 watching'", timeout=10_000)
            assert not errors, errors
    finally:
        server.kill()
