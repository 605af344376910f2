"""The host voids the audience passes (issue 31) in a real browser: the TV's settings drawer
offers "New audience passes" (two taps, as a kick); Zoe, who watches with a pass, votes in the
running game: the vote is refused ("The host renewed the audience passes..."), her page
forgets the pass and shows the join form with her name typed, and "Watch" buys her a new
pass that votes again. Screenshots: tests/e2e/screenshots/audience-passes-*.png."""
import pytest

from tests.e2e.browser import chromium, e2e_server, settled, shot
from tests.e2e.test_audience_games_browser import table

pytestmark = [pytest.mark.browser, pytest.mark.slow]


async def test_the_host_voids_the_passes_and_a_pass_holder_watches_again(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            code, ctl, _, _, _, tv, zoe = await table(browser, server.base, errors)
            first = await zoe.evaluate(f"() => JSON.parse(localStorage.getItem('partyhub.audience.{code}')).token")

            await ctl.act({"type": "start", "game": "count", "options": {"target": 100}})
            await zoe.locator(".gen-actions button", has_text="Predict: 2").click()
            await zoe.locator(".gen-actions button.mine[aria-pressed=true]", has_text="Predict: 2").wait_for()

            # the host's drawer: two taps void every pass
            await ctl.act({"type": "end"})
            await tv.locator(".gear").click()
            button = tv.locator(".settings-drawer button.revoke-passes")
            await button.wait_for()
            assert await button.inner_text() == "New audience passes"
            await settled(tv)
            await shot(tv, "audience-passes-tv-drawer")
            await button.click()
            assert await button.inner_text() == "Void them all?"
            before = ctl.version
            await button.click()
            await ctl.wait(lambda v: ctl.version > before)       # the room's pass generation moved on
            await ctl.act({"type": "start", "game": "count", "options": {"target": 100}})

            # Zoe's next vote is refused; her page forgets the pass and asks again, name typed
            await zoe.locator(".gen-actions button", has_text="Predict: 3").click()
            await zoe.locator(".join-form").wait_for(timeout=10_000)
            assert await zoe.locator("#name").input_value() == "Zoe"
            assert await zoe.evaluate(f"() => localStorage.getItem('partyhub.audience.{code}')") is None
            await settled(zoe)
            await shot(zoe, "audience-passes-phone-asked-again")
            await zoe.locator(".join-bottom button.watch").click()
            await zoe.locator(".gen-actions button", has_text="Predict: 3").click()
            await zoe.locator(".gen-actions button.mine[aria-pressed=true]", has_text="Predict: 3").wait_for()
            second = await zoe.evaluate(f"() => JSON.parse(localStorage.getItem('partyhub.audience.{code}')).token")
            assert second != first
    finally:
        server.kill()
    assert not errors, errors
