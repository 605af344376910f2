"""A real browser: the TV uploads a deck, renames and shares it; another TV (a fresh browser,
its own host key) adds it by its code, a third by its link; the owner deletes it and it is
gone everywhere. Refusals (quota, a bad code) are shown in words."""
import io
import re

import pytest
from PIL import Image

from tests.e2e.browser import PHONE, TV, chromium, e2e_server, new_room, page, shot, until
from tests.liveserver import Daphne, free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def png(color) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 48), color).save(buf, "PNG")
    return buf.getvalue()


def pictures(n):
    return [{"name": f"card{i}.png", "mimeType": "image/png", "buffer": png((40 * i, 120, 200))}
            for i in range(n)]


async def open_decks(tv):
    await tv.locator(".gear").click()
    await tv.locator(".deck-mine h4").wait_for()


async def close_drawer(tv):
    await tv.locator(".settings-drawer .drawer-head button").click()
    await tv.locator(".settings-drawer").wait_for(state="hidden")


def row(tv, name):
    return tv.locator(".deck-row", has=tv.locator(".deck-name", has_text=name))


async def upload(tv, name, n):
    await tv.locator(".deck-new input[type=text]").fill(name)
    await tv.locator(".deck-new input[type=file]").set_input_files(pictures(n))
    await tv.locator(".deck-new button").click()


async def test_a_deck_is_renamed_shared_redeemed_and_deleted_from_the_tv(tmp_path, chromium_path):
    port = free_port()
    server = Daphne(tmp_path, {"PUBLIC_URL": f"http://127.0.0.1:{port}", "PARTYHUB_DECKS_PER_HOST": "1"},
                    port=port).migrate().start()
    base, errors = server.base, []
    try:
        async with chromium(chromium_path) as browser:
            alice, _ = await new_room(browser, base, errors)
            await open_decks(alice)
            await alice.locator(".deck-mine", has_text="No decks yet").wait_for()
            await upload(alice, "Beach", 3)
            await alice.locator(".deck-new", has_text="“Beach” is ready (cards: 3)").wait_for()
            await row(alice, "Beach").wait_for()
            assert "3 cards" in await row(alice, "Beach").inner_text()
            await upload(alice, "Second", 1)           # the quota here is one deck a host
            await alice.locator(".deck-new [role=alert]", has_text="as many decks as it may keep").wait_for()

            await row(alice, "Beach").get_by_role("button", name="Rename").click()
            await alice.locator(".deck-rename").fill("Holiday 2026")
            await alice.get_by_role("button", name="Save").click()
            await row(alice, "Holiday 2026").wait_for()
            await alice.locator(".deck-mine", has_text="Renamed to “Holiday 2026”").wait_for()
            labels = await alice.evaluate("""() => window.partyhub.view.room.games
                .find((g) => g.id === 'association').options.deck.labels""")
            assert "Holiday 2026" in labels.values(), labels   # the picker offers it by its new name
            await alice.locator(".deck-mine").scroll_into_view_if_needed()
            await shot(alice, "decks-tv-list")

            await row(alice, "Holiday 2026").get_by_role("button", name="Share").click()
            card = alice.locator(".share-card")
            await card.wait_for()
            code = await card.locator(".share-code").get_attribute("aria-label")
            assert re.fullmatch(r"[A-HJ-NP-Z2-9]{8}", code), code
            link = (await card.locator(".share-url").inner_text()).strip()
            assert link == f"{base}/?deck={code}"
            await shot(alice, "decks-tv-share")
            box = await card.locator(".share-code").bounding_box()
            assert box["height"] >= 0.1 * TV["height"], box    # read from across the room
            # a named modal dialog (common/dialog.js); closing gives focus back to Share
            named = await alice.evaluate("() => { const d = document.querySelector('.share-card-wrap');"
                                         " const l = document.getElementById(d.getAttribute('aria-labelledby'));"
                                         " return d.getAttribute('role') + ' ' + d.getAttribute('aria-modal') + ' ' + (l && l.textContent); }")
            assert named.startswith("dialog true ") and "Holiday 2026" in named, named
            await alice.keyboard.press("Escape")
            await card.wait_for(state="detached")
            assert await alice.evaluate("() => document.activeElement && document.activeElement.textContent") == "Share"

            # another host's TV: a fresh browser, its own host key
            bob, _ = await new_room(browser, base, errors)
            assert await bob.evaluate("localStorage.getItem('partyhub.hostKey')") != \
                await alice.evaluate("localStorage.getItem('partyhub.hostKey')")
            await open_decks(bob)
            await bob.locator(".deck-mine", has_text="No decks yet").wait_for()
            await bob.get_by_role("button", name="Add", exact=True).click()
            await bob.locator(".deck-redeem [role=alert]", has_text="Type a share code first").wait_for()
            await bob.locator(".deck-code").fill("ZZZZ2345")
            await bob.get_by_role("button", name="Add", exact=True).click()
            await bob.locator(".deck-redeem [role=alert]", has_text="No deck has that share code").wait_for()
            await bob.locator(".deck-code").fill(f"{code[:4].lower()} {code[4:].lower()}")
            await bob.locator(".deck-code").press("Enter")
            await bob.locator(".deck-redeem", has_text="“Holiday 2026” (3 cards) is in your decks now").wait_for()
            shared = row(bob, "Holiday 2026")
            assert "shared with you" in await shared.inner_text()
            assert await shared.get_by_role("button").count() == 0   # a friend's deck: picked, not changed
            await bob.locator(".deck-redeem").scroll_into_view_if_needed()
            await shot(bob, "decks-tv-redeemed")

            # a third TV opens the share link
            carol = await page(browser, TV, errors)
            await carol.goto(f"{base}/")
            await carol.evaluate("localStorage.setItem('partyhub.lang', 'uk')")   # its language, kept
            await carol.goto(link)
            await carol.wait_for_url(re.compile(rf"\?deck={code}&lang=uk$"))     # the code too
            await carol.get_by_role("button", name=f"Додати колоду {code}").click()
            await carol.locator(".home-deck", has_text="тепер серед ваших колод").wait_for()
            await shot(carol, "decks-home-link")
            listed = await carol.evaluate("""() => fetch('/api/decks', {headers: {'X-Host-Key':
                localStorage.getItem('partyhub.hostKey')}}).then((r) => r.json())""")
            assert [(d["name"], d["mine"]) for d in listed["decks"]] == [("Holiday 2026", False)]

            await row(alice, "Holiday 2026").get_by_role("button", name="Delete").click()
            await alice.locator(".deck-ask", has_text="Delete “Holiday 2026”?").wait_for()
            await shot(alice, "decks-tv-delete-confirm")
            await alice.get_by_role("button", name="Delete for good").click()
            await alice.locator(".deck-mine", has_text="“Holiday 2026” is deleted.").wait_for()
            assert await alice.locator(".deck-row").count() == 0
            await until(alice, """() => !Object.values(window.partyhub.view.room.games
                .find((g) => g.id === 'association').options.deck.labels || {}).includes('Holiday 2026')""")

            await close_drawer(bob)                    # the friend's list is asked for again
            await open_decks(bob)
            await bob.locator(".deck-mine", has_text="No decks yet").wait_for()
            assert not errors, errors
    finally:
        server.kill()


@pytest.mark.parametrize("lang", ["uk", "ru"])
async def test_the_deck_drawer_speaks_the_rooms_language(tmp_path, chromium_path, lang):
    port = free_port()
    server = Daphne(tmp_path, {"PUBLIC_URL": f"http://127.0.0.1:{port}"}, port=port).migrate().start()
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, _ = await new_room(browser, server.base, errors, lang=lang)
            await open_decks(tv)
            await upload(tv, "Літо", 2)
            await row(tv, "Літо").wait_for()
            await tv.locator(".deck-code").fill("ZZZZ2345")
            await tv.locator(".deck-code").press("Enter")
            alert = await tv.locator(".deck-redeem [role=alert]").inner_text()
            assert re.search("[а-яіїє]", alert) and "share code" not in alert, alert
            text = await tv.locator(".settings-drawer").inner_text()
            assert "Rename" not in text and "Share" not in text and "cards" not in text and "МБ" in text
            await tv.locator(".deck-redeem").scroll_into_view_if_needed()
            await shot(tv, f"decks-tv-list-{lang}")
            await row(tv, "Літо").locator("button").nth(1).click()       # share
            await tv.locator(".share-card").wait_for()
            await shot(tv, f"decks-tv-share-{lang}")
            assert not errors, errors
    finally:
        server.kill()


async def test_the_owner_renews_the_code_and_stops_sharing_from_the_tv(tmp_path, chromium_path):
    port = free_port()
    server = Daphne(tmp_path, {"PUBLIC_URL": f"http://127.0.0.1:{port}"}, port=port).migrate().start()
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            alice, _ = await new_room(browser, server.base, errors)
            await open_decks(alice)
            await upload(alice, "Beach", 2)
            await row(alice, "Beach").get_by_role("button", name="Share").click()
            card = alice.locator(".share-card")
            first = await card.locator(".share-code").get_attribute("aria-label")
            await row(alice, "Beach").locator(".hint", has_text=f"code {first}").wait_for()
            bob, _ = await new_room(browser, server.base, errors)          # a friend adds it
            redeem = """(code) => fetch('/api/decks/redeem', {method: 'POST', body: JSON.stringify({code}),
                headers: {'Content-Type': 'application/json', 'X-Host-Key': localStorage.getItem('partyhub.hostKey')}})
                .then((r) => r.status)"""
            assert await bob.evaluate(redeem, first) == 200

            await card.get_by_role("button", name="New code").click()
            await card.locator(".share-renewed").wait_for()
            second = await card.locator(".share-code").get_attribute("aria-label")
            assert second != first and (await card.locator(".share-url").inner_text()).endswith(second)
            await shot(alice, "decks-tv-share-renewed")
            await alice.set_viewport_size(PHONE)          # a laptop's narrow window, a phone as TV
            await alice.wait_for_timeout(200)
            await shot(alice, "decks-390-share-renewed")
            assert await alice.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
            await alice.set_viewport_size(TV)
            assert await bob.evaluate(redeem, first) == 404                # the old code is dead

            await card.get_by_role("button", name="Stop sharing").click()
            await card.locator(".share-ask", has_text="Stop sharing “Beach”?").wait_for()
            await shot(alice, "decks-tv-share-stop-ask")
            await card.get_by_role("button", name="Cancel").click()        # asked, not done
            await card.locator(".share-code").wait_for()
            await card.get_by_role("button", name="Stop sharing").click()
            await card.locator(".share-ask").wait_for()
            await card.get_by_role("button", name="Stop sharing").click()      # yes, stop
            await card.wait_for(state="detached")
            await alice.locator(".deck-mine", has_text="“Beach” is no longer shared.").wait_for()
            assert "code" not in await row(alice, "Beach").inner_text()
            await shot(alice, "decks-tv-unshared")
            assert await bob.evaluate(redeem, second) == 404
            listed = await bob.evaluate("""() => fetch('/api/decks', {headers: {'X-Host-Key':
                localStorage.getItem('partyhub.hostKey')}}).then((r) => r.json())""")
            assert listed["decks"] == []                                   # the friend lost it
            assert not errors, errors
    finally:
        server.kill()


async def redrawn(tv):
    """The deck list asked for again, as when the drawer opens, and the drawer drawn anew."""
    await tv.evaluate("() => { document.querySelector('.deck-mine').dataset.old = '1'; }")
    await tv.evaluate("() => import('/static/common/decks.js').then((m) => m.reloadDecks())")
    await until(tv, "() => !document.querySelector('.deck-mine').dataset.old")


async def test_a_deck_name_typed_while_the_list_comes_in_keeps_its_keys(tmp_path, chromium_path):
    """The drawer draws its decks again when the list comes in (it is asked for each time the
    drawer opens), or an upload moves on. A host typing the deck's name, or a friend's share
    code, goes on typing in it: the field keeps its focus and caret (decks.js: renderDecks).
    Before, the keys typed after the redraw went nowhere, and the upload said "Give the deck a
    name." though a name had been typed (a test retried in a clean-clone run, 2026-12-02)."""
    server = e2e_server(tmp_path)
    errors = []
    async with chromium(chromium_path) as browser:
        tv, _ = await new_room(browser, server.base, errors)
        await open_decks(tv)
        field = tv.locator(".deck-new input[type=text]")
        await field.click()
        await tv.keyboard.type("Ou")
        await tv.keyboard.press("ArrowLeft")          # the caret between the two letters
        await redrawn(tv)
        await tv.keyboard.type("x")
        assert await field.input_value() == "Oxu"
        await tv.keyboard.press("End")
        await tv.keyboard.type("rs")
        assert await field.input_value() == "Oxurs"
        await tv.locator(".deck-new input[type=file]").set_input_files(pictures(2))
        await tv.locator(".deck-new button").click()
        await row(tv, "Oxurs").wait_for()
        # the share code field, the same
        code = tv.locator(".deck-code")
        await code.click()
        await tv.keyboard.type("ZZZZ")
        await redrawn(tv)
        await tv.keyboard.type("2345")
        assert await code.input_value() == "ZZZZ2345"
        await tv.keyboard.press("Enter")
        alert = await tv.locator(".deck-redeem [role=alert]").inner_text()
        assert alert and "ZZZZ" not in alert, alert       # a refusal in words (no such code)
        assert not errors, errors
