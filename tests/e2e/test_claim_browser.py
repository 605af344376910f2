"""A real browser: a player who lost their browser gets the seat back from another one, in the
lobby and during a game, once it is approved on the TV (the VIP's phone is only told); the TV
announces the hand-over; the phone whose seat was handed says so and asks for it back."""
import re

import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, join_phones, new_room, page, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV_HD = {"width": 1920, "height": 1080}


async def disconnected(tv, name):
    await until(tv, "(name) => window.partyhub.view && window.partyhub.view.room.players.some("
                    "(p) => p.name === name && !p.connected)", name)


async def ask_back(browser, join_url, tv, name, errors, lang, stage):
    """A fresh browser (no storage) joins by the name, is offered the claim and waits."""
    await disconnected(tv, name)
    p = await page(browser, PHONE, errors, lang)
    await p.goto(join_url)
    await p.fill("#name", name)
    await p.locator(".join-bottom button[type=submit]").click()
    offer = p.locator("button.claim-offer")
    await offer.wait_for()
    await shot(p, f"claim-offer-{lang}")
    await offer.click()
    await p.locator(".claim-wait").wait_for()
    await shot(p, f"claim-wait-{stage}-{lang}")
    return p


async def forget(p):
    """The phone's browser is gone (its socket closes with it)."""
    await p.context.close()


async def hd_table(browser, base, errors, lang, tv=None):
    """A TV at 1920x1080 (or the page `tv`) and the phones of Ann (the VIP) and Bob:
    (tv, join_url, ann, bob)."""
    tv = tv or await page(browser, TV_HD, errors)
    tv, join_url = await new_room(browser, base, errors, lang=lang, tv=tv)
    ann, bob = await join_phones(browser, join_url, ["Ann", "Bob"], errors, tv=tv)
    return tv, join_url, ann, bob


async def no_overflow(p):
    """Nothing on the screen is wider than it (a long line would scroll sideways)."""
    assert await p.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_a_new_browser_reclaims_its_seat_in_the_lobby_and_in_a_game(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url, vip, bob = await hd_table(browser, server.base, errors, lang)
            bob_id = await bob.evaluate("() => window.partyhub.you.id")
            # the lobby: Bob's browser is gone, a new one asks, it is approved on the TV
            await forget(bob)
            bob2 = await ask_back(browser, join_url, tv, "Bob", errors, lang, "lobby")
            await tv.locator(".request button.approve").wait_for()
            await vip.locator(".request.request-told").wait_for()      # told, never asked
            assert await vip.locator(".request button").count() == 0
            await shot(tv, f"claim-request-tv-{lang}")
            await shot(vip, f"claim-request-vip-{lang}")
            await no_overflow(vip)
            await tv.locator(".request button.approve").click()
            await bob2.locator(".lobby-phone .me-name", has_text="Bob").wait_for()
            assert await bob2.evaluate("() => window.partyhub.you.id") == bob_id
            await tv.locator(".request").wait_for(state="hidden")
            await tv.locator(".handovers .handover", has_text="Bob").wait_for()     # announced on the TV
            await shot(tv, f"claim-handover-tv-{lang}")
            await shot(bob2, f"claim-back-lobby-{lang}")
            # a game: the same once more, while it runs
            await vip.locator(".game-card", has_text=re.compile("Count|Рахуємо|Считаем", re.I)).click()
            await vip.locator("button.start").click()
            await bob2.locator(".generic").wait_for()
            await forget(bob2)
            bob3 = await ask_back(browser, join_url, tv, "Bob", errors, lang, "game")
            await vip.locator(".request.request-told").wait_for()
            await shot(vip, f"claim-request-vip-game-{lang}")
            await tv.locator(".request button.approve").click()
            await bob3.locator(".generic").wait_for()
            you = await bob3.evaluate("() => window.partyhub.you")
            assert {k: you[k] for k in ("role", "id")} == {"role": "player", "id": bob_id}
            assert you["language"] in ("en", "uk", "ru")       # the seat's own language (issue 22)
            await until(tv, "() => window.partyhub.view.room.players.every((p) => p.connected)")
            await shot(bob3, f"claim-back-game-{lang}")
            assert not errors, errors
    finally:
        server.kill()


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_the_phone_whose_seat_was_handed_is_told_and_gets_it_back_on_the_tv(tmp_path, chromium_path, lang):
    """Bob's phone sleeps; someone asks for "Bob" from another browser and it is approved on the
    TV. Bob's phone wakes to "your seat was handed to another phone, approved on the TV", asks
    for it back, and the TV approves again: the other browser is told the same."""
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url, _, bob = await hd_table(browser, server.base, errors, lang)
            await bob.goto("about:blank")           # asleep: the socket goes, the storage stays
            other = await ask_back(browser, join_url, tv, "Bob", errors, lang, "handed")
            await tv.locator(".request button.approve").click()
            await other.locator(".lobby-phone .me-name", has_text="Bob").wait_for()
            await bob.goto(join_url)                # Bob's phone wakes
            await bob.locator(".handed-screen").wait_for()
            await shot(bob, f"claim-handed-phone-{lang}")
            await no_overflow(bob)
            await bob.locator(".handed-screen button.ask-back").click()
            await bob.locator(".claim-wait").wait_for()
            await tv.locator(".request button.approve").wait_for()
            await shot(tv, f"claim-request-back-tv-{lang}")
            await tv.locator(".request button.approve").click()
            await bob.locator(".lobby-phone .me-name", has_text="Bob").wait_for()
            await other.locator(".handed-screen").wait_for()     # the phone that held it is told
            await until(tv, "() => window.partyhub.view.room.handovers.map((h) => h.kind).join() === 'new_phone,old_phone'")
            await tv.locator(".handovers .handover").last.wait_for()
            await shot(tv, f"claim-handover-back-tv-{lang}")
            await other.locator(".handed-screen button.join-other").click()
            await other.locator(".join-form").wait_for()
            assert not errors, errors
    finally:
        server.kill()


async def test_a_denied_request_says_so_and_a_kicked_name_stays_out_until_let_back_in(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            vip, bob, cat = await join_phones(browser, join_url, ["Ann", "Bob", "Cat"], errors, tv=tv)
            await forget(bob)
            bob2 = await ask_back(browser, join_url, tv, "Bob", errors, "en", "deny")
            await tv.locator(".request button.deny").click()
            await bob2.locator(".join-form .form-error", has_text="refused on the TV").wait_for()
            # asks again, reloads while waiting, and is away when the TV approves: the next
            # page of that browser finds its seat
            await bob2.fill("#name", "Bob")
            await bob2.locator(".join-bottom button[type=submit]").click()
            await bob2.locator("button.claim-offer").click()
            await bob2.locator(".claim-wait").wait_for()
            await bob2.reload()
            await bob2.locator(".claim-wait").wait_for()
            context = bob2.context
            await bob2.close()
            await tv.locator(".request button.approve").click()
            await tv.locator(".request").wait_for(state="hidden")
            bob3 = await context.new_page()
            await bob3.goto(join_url)
            await bob3.locator(".lobby-phone .me-name", has_text="Bob").wait_for()
            # the VIP removes Cat; Cat's name is refused until the VIP lets it back in
            await vip.locator(".player", has_text="Cat").locator("button.kick").click()
            await vip.locator(".player", has_text="Cat").locator("button.kick").click()
            await cat.locator(".join-form").wait_for()
            await cat.fill("#name", "Cat")
            await cat.locator(".join-bottom button[type=submit]").click()
            # the refusal of the name, not the "you were removed" the kick left on the form
            await cat.locator(".form-error", has_text="let it back in").wait_for()
            await vip.locator(".barred button.unban").wait_for()
            await shot(vip, "claim-barred-vip-en")
            await vip.locator(".barred button.unban").click()
            await vip.locator(".barred").wait_for(state="hidden")
            await cat.locator(".join-bottom button[type=submit]").click()
            await cat.locator(".lobby-phone").wait_for()
            assert not errors, errors
    finally:
        server.kill()


async def test_a_tv_whose_handover_module_failed_to_load_loads_it_again_and_announces(tmp_path, chromium_path):
    """The TV's loads of handover/handover.js fail (a network blip, a reload mid-way): no error
    on the page, and once the file can be fetched again the next view loads it and the TV
    announces the hand-over (a failed load used to be kept, and rejected on every view)."""
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, TV_HD, errors)
            await tv.route("**/static/common/handover/handover.js", lambda route: route.abort())
            tv, join_url, _, bob = await hd_table(browser, server.base, errors, "en", tv=tv)
            assert await tv.evaluate("() => performance.getEntriesByType('resource').filter("
                                     "(e) => e.name.endsWith('/handover/handover.js')).length") >= 1
            await tv.unroute("**/static/common/handover/handover.js")
            await forget(bob)
            bob2 = await ask_back(browser, join_url, tv, "Bob", errors, "en", "reload")
            await tv.locator(".request button.approve").click()
            await bob2.locator(".lobby-phone .me-name", has_text="Bob").wait_for()
            await tv.locator(".handovers .handover", has_text="Bob").wait_for()
            assert not errors, errors
    finally:
        server.kill()
