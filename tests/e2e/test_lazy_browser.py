"""Parts of the phone loaded on demand (lazy.js, docs/performance.md: the phone's budget).

- Only the VIP's phone fetches the game picker; a phone that is not the VIP never does.
- A picker that fails to load says so where it would be, with Try again, which loads it.
- A phone fetches the results screen while the game runs, before the game ends.
"""
import json
import re
from pathlib import Path

import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, join_phones, new_room, page, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]
STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static"


def common(lang):
    text = (STATIC / "common" / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"export default (\{.*\});", text, re.S).group(1))


async def join_without(browser, join_url, name, errors, blocked):
    """A phone whose fetches of common/<blocked> fail joins as `name` (the route stays)."""
    p = await page(browser, PHONE, errors, "en")
    await p.route(f"**/static/common/{blocked}", lambda route: route.abort())
    await p.goto(join_url)
    await p.fill("#name", name)
    await p.locator(".join-bottom button[type=submit]").click()
    return p


async def test_the_picker_loads_on_the_vips_phone_alone_and_a_failed_load_offers_try_again(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    en = common("en")
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            fetched = []
            vip = await join_without(browser, join_url, "Ann", errors, "picker.js")
            failed = vip.locator(".picker-box .load-failed")
            await failed.wait_for()
            assert (await failed.locator("p").inner_text()).strip() == en["load.failed"]
            assert await vip.locator(".game-card").count() == 0
            await shot(vip, "lazy-picker-failed")
            await vip.unroute("**/static/common/picker.js")
            await failed.locator("button", has_text=en["load.retry"]).click()
            await vip.locator(".picker-box .game-card").first.wait_for()
            assert await vip.locator(".picker-box .load-failed").count() == 0

            other = (await join_phones(browser, join_url, ["Bob"], errors, tv=tv))[0]
            other.on("request", lambda r: fetched.append(r.url))
            await join_phones(browser, join_url, ["Cleo"], errors, tv=tv)
            await other.reload()
            await other.locator(".lobby-phone .wait .hint").wait_for()
            assert not [u for u in fetched if u.endswith("/picker.js")], fetched
            assert not [u for u in fetched if u.endswith("/results.js")]

            await vip.locator(".game-card", has_text=re.compile("Count", re.I)).click()
            await vip.locator("button.start").click()
            await other.locator(".generic").wait_for()
            # the results screen comes while the game runs, at the browser's first idle moment
            await until(other, "() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/common/results.js'))",
                        timeout=10_000)
            assert not errors, errors
    finally:
        server.kill()


async def test_a_results_screen_that_fails_to_load_says_so_and_try_again_shows_it(tmp_path, chromium_path):
    from tests.liveserver import Conn, http
    server = e2e_server(tmp_path)
    errors = []
    en = common("en")
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rstrip("/").rsplit("/", 1)[1]
            status, seat = http("POST", f"{server.base}/api/rooms/{code}/join", {"name": "Ann"})
            assert status == 201, seat
            ann = await Conn(server.base, code, seat["token"]).open()
            bo = await join_without(browser, join_url, "Bo", errors, "results.js")
            await bo.locator(".lobby-phone").wait_for()
            await ann.act({"type": "start", "game": "count", "options": {"target": 3}})
            await bo.locator(".generic").wait_for()
            await ann.act({"type": "add", "n": 3})
            failed = bo.locator(".screen-over .load-failed")
            await failed.wait_for()          # the prefetch failed, and so did the load at the end
            assert (await failed.locator("p").inner_text()).strip() == en["load.failed"]
            await bo.unroute("**/static/common/results.js")
            await failed.locator("button", has_text=en["load.retry"]).click()
            await bo.locator(".screen-over .results h1").wait_for()
            assert "Ann" in await bo.locator(".screen-over .results h1").inner_text()
            assert not errors, errors
    finally:
        server.kill()
