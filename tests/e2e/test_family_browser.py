"""Family mode in real browsers: a phone's refused name is told in the room's language and the
form stays; the TV's settings have the toggle; the TV's 🙈 hides a name on every screen."""
import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, join_phones, new_room, page, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SAYS = {"en": "family mode", "uk": "сімейний режим", "ru": "семейный режим"}


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_a_rude_name_is_refused_kindly_and_the_host_hides_a_name(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang=lang)
            phone = await page(browser, PHONE, errors, lang)
            await phone.goto(join_url)
            await phone.fill("#name", "f.u.c.k")
            await phone.locator(".join-bottom button[type=submit]").click()
            error = phone.locator(".form-error")
            await error.wait_for()
            assert SAYS[lang] in (await error.inner_text()).lower()
            assert await phone.locator("#name").is_visible()        # the form stays to try again
            assert await tv.locator(".players .player:not(.empty)").count() == 0
            await shot(phone, f"family-refused-phone-{lang}")
            phones = await join_phones(browser, join_url, ["Ann", "Rudy McRude"], errors, tv=tv)
            await tv.locator(".gear").click()
            toggle = tv.locator(".settings-drawer label.toggle input").first
            assert await toggle.is_checked()                        # on in a new room
            await shot(tv, f"family-settings-tv-{lang}")
            await tv.locator(".settings-drawer .btn.primary").click()
            rude = tv.locator(".players .player", has_text="Rudy McRude")
            await rude.locator(".hide-btn").wait_for()
            await shot(tv, f"family-hide-tv-{lang}")
            await rude.locator(".hide-btn").click()
            await tv.locator(".players .pname", has_text="Rudy McRude").wait_for(state="detached")
            await until(phones[1], "() => !document.body.innerText.includes('Rudy McRude')")
            await until(phones[0], "() => !document.body.innerText.includes('Rudy McRude')")
            await shot(tv, f"family-hidden-tv-{lang}")
            assert await phones[0].locator(".hide-btn").count() == 0    # the TV's, not the VIP's
            assert not errors, errors
    finally:
        server.kill()
