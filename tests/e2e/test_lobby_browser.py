"""A real browser: the TV creates a room, three phones join, one reloads, the VIP starts."""
import re

import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_tv_and_three_phones_fill_the_lobby_and_the_vip_starts(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang=lang)
            await tv.locator(".code").wait_for()
            names = ["Ann", "Богдан", "<img src=x onerror=alert(1)>"]
            phones = await join_phones(browser, join_url, names, errors, tv=tv)
            assert await tv.locator(".players .pname").count() == 3
            assert await tv.locator("img[src=x]").count() == 0      # the name is text, not markup
            await shot(tv, f"lobby-tv-{lang}")
            await shot(phones[0], f"lobby-phone-vip-{lang}")
            await phones[1].reload()
            await phones[1].locator(".me-name", has_text=names[1]).wait_for()
            assert await tv.locator(".players .pname").count() == 3
            await shot(phones[1], f"lobby-phone-reloaded-{lang}")
            vip = phones[0]
            await vip.locator(".game-card", has_text=re.compile("Count|Рахуємо|Считаем", re.I)).click()   # the card label is translated
            await vip.locator("button.start").click()
            await tv.locator(".lobby-tv").wait_for(state="detached")
            await phones[2].locator(".generic").wait_for()
            await shot(tv, f"game-tv-{lang}")
            await shot(phones[2], f"game-phone-{lang}")
            assert not errors, errors
    finally:
        server.kill()
