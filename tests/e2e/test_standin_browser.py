"""A real browser: a phone drops mid-turn, the TV marks its seat "bot playing for Ann" while the
stand-in plays it, and the mark goes as soon as the phone is back on its seat."""
import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, settled, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MARKED = """(name) => [...document.querySelectorAll('.standin-tag')].map((e) => e.textContent)
  .some((s) => s.includes(name))"""


async def test_the_tv_marks_the_seat_a_stand_in_plays_until_the_phone_is_back(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            ann, bob, cat = await join_phones(browser, join_url, ["Ann", "Bob", "Cat"], errors, tv=tv)
            assert await tv.evaluate("() => window.partyhub.view.room.standin") == 20
            await tv.locator(".gear").click()            # the host's choice, in the settings
            await tv.locator('select[data-set="standin"]').select_option("0")
            await until(tv, "() => window.partyhub.view.room.standin === 0")
            await tv.locator('select[data-set="standin"]').select_option("30")
            await until(tv, "() => window.partyhub.view.room.standin === 30")
            await settled(tv)
            await shot(tv, "standin-setting-en")
            await tv.keyboard.press("Escape")
            # a short delay for the test (the TV's menu offers 10 s and up; the protocol any second)
            await tv.evaluate("() => window.partyhub.act({type: 'settings', standin: 1})")
            await until(tv, "() => window.partyhub.view.room.standin === 1")
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'jinx', "
                              "options: {first_player: 'first_seat'}})")
            await until(ann, "() => window.partyhub.gameActions().some((a) => a.type === 'clue')")
            phone_url = ann.url
            await ann.goto("about:blank")              # Ann's phone drops on her turn
            await until(tv, MARKED, "Ann")
            assert await tv.evaluate("() => window.partyhub.view.game.clue") is not None
            assert not await tv.evaluate(MARKED, "Bob")
            await settled(tv)
            await shot(tv, "standin-tv-en")
            await ann.goto(phone_url)                  # and comes back to her seat
            await until(ann, "() => window.partyhub.view && window.partyhub.you.role === 'player'")
            await until(tv, "(name) => !document.querySelector('.standin-tag') && "
                        "window.partyhub.view.room.players.every((p) => p.connected)", "Ann")
            await settled(ann)
            await shot(ann, "standin-back-phone-en")
            assert not errors, errors
    finally:
        server.kill()
