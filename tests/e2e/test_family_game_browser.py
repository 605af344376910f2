"""Family mode in a game, in real browsers: the storyteller's rude clue is refused with a
kind message and the form stays open; the TV's crossed-eye button beside a clue hides it on
every screen."""
import asyncio

import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, shot, until
from tests.e2e.test_association_browser import storyteller

pytestmark = [pytest.mark.browser, pytest.mark.slow]


async def test_a_rude_clue_is_refused_and_the_host_hides_a_clue(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang="uk")
            phones = await join_phones(browser, join_url, ["Оля", "Taras", "Ann"], errors, tv=tv)
            await tv.locator(".game-card", has_text="Асоціації").click()
            await tv.locator("button.start").click()
            teller, others = await storyteller(phones)
            await teller.locator(".as-p-card.can").nth(1).tap()
            await teller.fill(".as-p-input", "с у к а")
            await teller.locator(".as-p-tell").tap()
            toast = teller.locator(".toast.error")
            await toast.wait_for()
            assert "сімейний режим" in (await toast.inner_text()).lower()
            await shot(teller, "family-clue-refused-phone-uk")
            assert await teller.locator(".as-p-input").input_value() == "с у к а"   # kept to edit
            await teller.fill(".as-p-input", "Weird Clue")
            await until(teller, "() => !document.querySelector('.as-p-tell').disabled")
            await teller.locator(".as-p-tell").tap()
            clue = tv.locator(".as-clue")
            await clue.locator(".as-clue-text", has_text="Weird Clue").wait_for()
            await asyncio.sleep(0.8)      # the clue's pop-in animation
            await shot(tv, "family-clue-hide-tv-uk")
            await clue.locator(".hide-btn").click()
            await clue.locator(".as-clue-text", has_text="•••").wait_for()
            for p in phones:
                await until(p, "() => document.body.innerText.includes('•••')"
                               " && !document.body.innerText.includes('Weird Clue')")
            await shot(tv, "family-clue-hidden-tv-uk")
            await shot(others[0], "family-clue-hidden-phone-uk")
            assert not errors, errors
    finally:
        server.kill()
