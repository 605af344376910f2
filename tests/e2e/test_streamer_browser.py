"""Streamer mode does what the README says: the TV hides the room's code and QR code (in the
lobby, locked or not, and in the game's top bar), so a stream shows neither; the host may show
them for 15 seconds to let the people in the room join; turning it off shows them again."""
import re

import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HIDDEN = "() => !document.querySelector('.join-url, .qr, .code') && !!document.querySelector('.join-hidden')"


async def shows_code(tv, code):
    return await tv.evaluate("""c => document.body.innerText.includes(c)
        || [...document.querySelectorAll('[aria-label]')].some((e) => e.getAttribute('aria-label').includes(c))""", code)


async def test_streamer_mode_hides_the_code_and_qr_and_the_host_may_show_them(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rsplit("/", 1)[1]
            await tv.evaluate("() => window.partyhub.act({type: 'settings', streamer: true})")
            await until(tv, HIDDEN)                                   # an open room: hidden too
            assert not await shows_code(tv, code)
            assert not await tv.evaluate("c => document.body.innerText.includes(c)", join_url)
            await shot(tv, "streamer-lobby-tv")
            await tv.locator("button.show-code").click()              # the host lets people in
            await tv.locator(".code").wait_for()
            assert await tv.locator(".qr").count() == 1
            phones = await join_phones(browser, join_url, ["Ann"], errors, tv=tv)
            await tv.evaluate("() => window.partyhub.act({type: 'lock'})")
            await until(tv, "() => window.partyhub.view.room.locked")
            await tv.evaluate("() => window.partyhub.act({type: 'settings', streamer: false})")
            await until(tv, "() => !window.partyhub.view.room.streamer")
            await tv.locator(".code").wait_for()                      # off: shown again
            await tv.evaluate("() => window.partyhub.act({type: 'settings', streamer: true})")
            await until(tv, HIDDEN)
            assert await tv.locator("button.show-code").count() == 0  # locked: no one to let in
            # in the game the top bar has no code either
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {}})")
            await until(tv, "() => window.partyhub.view.room.phase === 'playing'")
            await tv.locator(".gamebar .gb-game").wait_for()
            assert await tv.locator(".gb-code").count() == 0
            assert not await shows_code(tv, code)
            assert phones and not errors, errors
    finally:
        server.kill()
