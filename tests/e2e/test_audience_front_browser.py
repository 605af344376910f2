"""A real browser: the audience's front door (issue 22). "Watch" with a typed name buys an
audience pass that a reload keeps (the same voter); a stale or forged pass asks again with its
name typed in; "Watch" with no name still watches anonymously; a locked room offers "Play along
in the audience" with the name typed; the TV's drawer turns the audience's votes off and on, and
the lobbies say which. Screenshots at 390 and 320 px of the join form, the audience's lobby and
game bar, and of the TV's drawer (tests/e2e/screenshots/audience-*.png)."""
import json

import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, new_room, page, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NARROW = {"width": 320, "height": 640}
PASS_KEY = "partyhub.audience.{code}"


async def both_widths(p, name):
    """Screenshots at 390 and at 320 px, and nothing wider than the screen at 320."""
    await shot(p, f"{name}-390")
    await p.set_viewport_size(NARROW)
    await p.wait_for_timeout(150)
    await shot(p, f"{name}-320")
    wide = await p.evaluate("() => document.documentElement.scrollWidth")
    await p.set_viewport_size(PHONE)
    assert wide <= NARROW["width"], f"{name}: {wide} px wide at 320"


async def stored_pass(p, code):
    return json.loads(await p.evaluate("(k) => localStorage.getItem(k) || 'null'", PASS_KEY.format(code=code)))


async def audience_lobby(p):
    await p.locator(".lobby-phone").wait_for()
    await until(p, "() => window.partyhub.view && window.partyhub.you.role === 'audience'")


async def test_watch_with_a_name_keeps_its_pass_and_a_forged_one_asks_again(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rsplit("/j/", 1)[1]

            # no name typed: the anonymous audience, as before (no pass is kept)
            anon = await page(browser, PHONE, errors, "en")
            await anon.goto(join_url)
            await anon.locator("#name").wait_for()
            await both_widths(anon, "audience-join")
            await anon.locator(".join-bottom button.watch").click()
            await audience_lobby(anon)
            assert await anon.locator(".lobby-phone .me-name").inner_text() == "You are watching"
            assert await stored_pass(anon, code) is None

            # a name typed: an audience pass, kept for the room; a reload is the same voter
            zoe = await page(browser, PHONE, errors, "en")
            await zoe.goto(join_url)
            await zoe.fill("#name", "Zoe")
            await zoe.locator(".join-bottom button.watch").click()
            await audience_lobby(zoe)
            first = await stored_pass(zoe, code)
            assert first and first["name"] == "Zoe" and first["audience_id"].startswith("a"), first
            assert await zoe.locator(".lobby-phone .me-name").inner_text() == "Zoe"
            await zoe.locator(".lobby-phone .aud-hint", has_text="vote along").wait_for()
            await both_widths(zoe, "audience-lobby")
            posts = []
            zoe.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
            await zoe.reload()
            await audience_lobby(zoe)
            assert await stored_pass(zoe, code) == first and not posts, posts
            assert await zoe.evaluate("() => window.partyhub.audienceName") == "Zoe"
            await tv.locator(".players-head .badge", has_text="2 watching").wait_for()

            # a forged pass: the socket is refused, the form asks again with the name typed in
            max_ = await page(browser, PHONE, errors, "en")
            await max_.goto(join_url)
            await max_.locator("#name").wait_for()
            await max_.evaluate("([k, v]) => localStorage.setItem(k, v)",
                                [PASS_KEY.format(code=code), json.dumps({"token": "forged.pass", "name": "Max"})])
            await max_.reload()
            await until(max_, "() => document.querySelector('#name') && document.querySelector('#name').value === 'Max'")
            assert await stored_pass(max_, code) is None
            await max_.locator(".join-bottom button.watch").click()
            await audience_lobby(max_)
            assert (await stored_pass(max_, code))["name"] == "Max"
            assert not errors, errors
    finally:
        server.kill()


async def test_a_locked_room_offers_the_audience_and_the_tv_turns_its_votes_off(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rsplit("/j/", 1)[1]
            await tv.locator(".players-head .aud-play.on", has_text="Audience plays along").wait_for()
            await tv.evaluate("() => window.partyhub.act({type: 'lock'})")
            await until(tv, "() => window.partyhub.view.room.locked")

            liz = await page(browser, PHONE, errors, "en")
            await liz.goto(join_url)
            await liz.fill("#name", "Liz")
            await liz.locator(".join-bottom button[type=submit]").click()
            along = liz.locator("button.along-offer")
            await along.wait_for()
            assert "locked" in await liz.locator(".form-error").inner_text()
            await both_widths(liz, "audience-along-offer")
            await along.click()
            await audience_lobby(liz)
            assert (await stored_pass(liz, code))["name"] == "Liz"

            # the TV's drawer: "Audience plays along" off, and the lobbies say so
            await tv.locator(".gear").click()
            switch = tv.locator(".settings-drawer [data-set=audience] input")
            await switch.wait_for()
            assert await switch.is_checked()
            await shot(tv, "audience-tv-drawer-on")
            await switch.click()
            await until(tv, "() => window.partyhub.view.room.audience_play === false")
            assert not await switch.is_checked()
            await shot(tv, "audience-tv-drawer-off")
            await tv.locator(".gear").click()
            await tv.locator(".players-head .aud-play.off", has_text="Audience only watches").wait_for()
            await shot(tv, "audience-tv-lobby-off")
            await liz.locator(".lobby-phone .aud-hint", has_text="just watch").wait_for()
            await tv.evaluate("() => window.partyhub.act({type: 'settings', audience: true})")
            await liz.locator(".lobby-phone .aud-hint", has_text="vote along").wait_for()

            # a game runs: the audience's bar (the test game has no audience actions: "Watching")
            await tv.evaluate("() => { window.partyhub.act({type: 'unlock'}); window.partyhub.act({type: 'add_bot'});"
                              " window.partyhub.act({type: 'add_bot'}); }")
            await until(tv, "() => window.partyhub.view.room.players.length === 2")
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {}})")
            bar = liz.locator(".audience-bar")
            await bar.wait_for()
            assert await bar.locator(".aud-state").inner_text() == "Watching"
            assert await liz.locator(".gamebar .gb-name").inner_text() == "Liz"
            await both_widths(liz, "audience-bar-watching")
            assert not errors, errors
    finally:
        server.kill()
