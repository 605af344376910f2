"""Controls at a real table (issue 21), element by element:
- the TV's settings and options drawers stay on a 1280x720 screen (they scroll instead), also
  when the window shrinks under an open drawer;
- pressing a stepper's + or − (or choosing an option) keeps the keyboard focus on it, and
  the buttons are named with their option ("Points to win (0: no limit) +"), and the drawer
  does not slide in again at each press;
- the phone's pause overlay "End game" button is a full 44x44 target, at 320 and 390 px;
- the jinx phone's zoom is a named modal dialog that takes the focus and gives it back.
In en and uk, with screenshots."""
import re

import pytest
from playwright.async_api import expect

from tests.e2e.axe import axe_check
from tests.e2e.browser import TV, chromium, e2e_server, join_phones, new_room, page, settled, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RECT = "(sel) => { const r = document.querySelector(sel).getBoundingClientRect(); " \
       "return {top: r.top, bottom: r.bottom, width: r.width, height: r.height}; }"
FOCUSED = "() => document.activeElement && (document.activeElement.dataset.focus || document.activeElement.tagName)"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = e2e_server(tmp_path_factory.mktemp("a11y-controls"))
    yield srv
    srv.kill()


@pytest.mark.parametrize("lang", ["en", "uk"])
async def test_drawers_steppers_pause_and_zoom(server, chromium_path, lang):
    errors = []
    async with chromium(chromium_path) as browser:
        tv = await page(browser, TV, errors)            # 1280x720: the smallest TV
        _, join_url = await new_room(browser, server.base, errors, lang=lang, tv=tv)
        phones = await join_phones(browser, join_url, ["Ann", "Богдан", "Zoë"], errors, tv=tv)
        # the settings drawer (the tallest: language, timers, switches, decks) stays on screen,
        # also when the screen shrinks under it (opened at 1920x1080, then 1280x720)
        await tv.set_viewport_size({"width": 1920, "height": 1080})
        await tv.locator(".gear").click()
        await tv.locator(".settings-drawer:not([hidden])").wait_for()
        await tv.set_viewport_size(TV)
        await settled(tv)
        box = await tv.evaluate(RECT, ".settings-drawer")
        assert box["top"] >= 0 and box["bottom"] <= 720, box
        assert await tv.evaluate("() => document.querySelector('.settings-drawer').scrollHeight") >= box["height"]
        await shot(tv, f"a11y-controls-tv720-settings-{lang}")
        await tv.locator(".gear").click()
        # the options drawer too; a stepper's + keeps the focus, by keyboard and by click
        await tv.locator(".game-card[data-game=association]").click()
        await tv.locator(".opts-toggle").click()
        await tv.locator(".opts-drawer").wait_for()
        await settled(tv)
        box = await tv.evaluate(RECT, ".opts-drawer")
        assert box["top"] >= 0 and box["bottom"] <= 720, box
        plus = tv.locator('.stepbtn[data-focus="target_score+"]')
        words = {"en": "Points to win", "uk": "Очок для перемоги"}[lang]
        await expect(plus).to_have_accessible_name(re.compile(re.escape(words) + r".*\+$"))
        await plus.focus()
        # from the default 30 points (issue 27), in steps of 5
        for n in (35, 40):
            await tv.keyboard.press("Enter")
            await until(tv, "(n) => { const c = window.partyhub.view.room.chosen; "
                            "return c && c.options.target_score === n; }", n)
            await until(tv, "() => document.querySelector('[data-opt=target_score]').textContent === '40'"
                        if n == 40 else "() => true")
            assert await tv.evaluate(FOCUSED) == "target_score+"
            # the drawer drawn anew does not slide in again (it would flash at each press)
            assert await tv.evaluate("() => document.querySelector('.opts-drawer').getAnimations().length") == 0
        await tv.keyboard.press("Space")            # a second press without moving: still there
        await until(tv, "() => window.partyhub.view.room.chosen.options.target_score === 45")
        assert await tv.evaluate(FOCUSED) == "target_score+"
        await tv.locator('.stepbtn[data-focus="target_score-"]').click()
        await until(tv, "() => window.partyhub.view.room.chosen.options.target_score === 40")
        assert await tv.evaluate(FOCUSED) == "target_score-"
        await shot(tv, f"a11y-controls-tv720-options-{lang}")
        await tv.keyboard.press("Escape")
        # jinx: the phones' pause overlay and the zoom
        await tv.evaluate("window.partyhub.act({type: 'start', game: 'jinx', options: {first_player: 'first_seat'}})")
        await phones[1].locator(".jx-p-cell .jx-card").first.wait_for()
        await phones[1].set_viewport_size({"width": 320, "height": 640})
        await tv.evaluate("window.partyhub.act({type: 'pause'})")
        p = phones[0]                                  # Ann, the VIP, may end the game
        for width in (390, 320):
            await p.set_viewport_size({"width": width, "height": 640 if width == 320 else 844})
            end = p.locator(".overlay:not([hidden]) .btn.danger")
            await end.wait_for()
            await settled(p)
            r = await end.bounding_box()
            assert r["width"] >= 44 and r["height"] >= 44, (width, r)
            await shot(p, f"a11y-controls-phone{width}-paused-{lang}")
        await tv.evaluate("window.partyhub.act({type: 'resume'})")
        await until(phones[1], "() => !window.partyhub.view.room.paused")
        # Богдан is not the clue giver (Ann, the first seat, is): a tap on a card zooms it
        cell = phones[1].locator('.jx-p-cell[data-slot="4"]')
        await until(phones[1], "() => window.partyhub.view.game.phase === 'clue'")
        await cell.focus()
        await phones[1].keyboard.press("Enter")
        dialog = phones[1].locator(".jx-zoom:not([hidden])")
        await dialog.wait_for()
        assert await dialog.get_attribute("role") == "dialog"
        assert await dialog.get_attribute("aria-modal") == "true"
        name = {"en": "Card 5", "uk": "Картка 5"}[lang]
        assert await dialog.get_attribute("aria-label") == name
        for _ in range(2):   # the focus is on Close and stays in the dialog
            assert await phones[1].evaluate("() => document.querySelector('.jx-zoom').contains(document.activeElement)")
            await phones[1].keyboard.press("Tab")
        await axe_check(phones[1], f"jinx phone zoom {lang}")
        await shot(phones[1], f"a11y-controls-phone320-jinx-zoom-{lang}")
        await phones[1].keyboard.press("Escape")
        await until(phones[1], "() => document.querySelector('.jx-zoom').hidden")
        assert await phones[1].evaluate("() => document.activeElement.dataset.slot") == "4"
        assert not errors, errors


async def test_an_open_drawer_follows_the_lobby_above_it_as_it_changes(server, chromium_path):
    """The settings drawer opens upwards from the host panel, as tall as the room above it. The
    room was measured on open and on each view only: a change of the lobby's layout between
    views (a late font, a deck's label, a photo) left the drawer running off the top of a
    1280x720 screen, and its Done button could not be pressed (CI, after a deck upload)."""
    errors = []
    async with chromium(chromium_path) as browser:
        tv = await page(browser, TV, errors)
        await new_room(browser, server.base, errors, tv=tv)
        # the lobby above the host panel grows, the drawer opens into the room it leaves ...
        await tv.evaluate("() => { document.querySelector('.players').style.minHeight = '420px'; }")
        await tv.locator(".gear").click()
        await tv.locator(".settings-drawer:not([hidden])").wait_for()
        await settled(tv)
        tall = await tv.evaluate(RECT, ".host-panel")
        # ... then shrinks again with no view from the server: the host panel moves up
        await tv.evaluate("() => { document.querySelector('.players').style.minHeight = ''; }")
        await settled(tv)
        host = await tv.evaluate(RECT, ".host-panel")
        assert host["top"] < tall["top"] - 20, (tall, host)        # it did move
        box = await tv.evaluate(RECT, ".settings-drawer")
        assert box["top"] >= 0 and box["bottom"] <= host["top"], box
        await tv.locator(".settings-drawer .drawer-head button").click()
        await tv.locator(".settings-drawer").wait_for(state="hidden")
        assert not errors, errors
