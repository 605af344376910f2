"""Table photos in real browsers (issue 28, part 4): the host turns them on in the TV's settings,
each phone adds its own pictures through the lobby's file input, sees its thumbnails, and the TV
counts them (in family mode it shows them, and hides one); dealt in association, the photos are
cards in the phones' hands, opened by the room's photo pass. Screenshots: photos-*.png."""
import pytest

from tests.e2e.axe import axe_check
from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, settled, shot, until
from tests.e2e.test_deck_pictures_browser import pictures, upload_deck

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NO_OVERFLOW = "() => document.documentElement.scrollWidth <= window.innerWidth"
# a hand's pictures that are table photos, loaded (cards.js: room.photos.deck, room.photos.pass)
PHOTO_CARDS = """() => { const ph = window.partyhub.view.room.photos;
  return [...document.querySelectorAll('.as-face img')].filter((i) => i.complete && i.naturalWidth > 0
    && new URL(i.src).pathname.includes(`/cards/${ph.deck}-`) && new URL(i.src).searchParams.get('p') === ph.pass).length; }"""


async def test_phones_add_photos_and_they_are_dealt_as_cards(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            await tv.set_viewport_size({"width": 1920, "height": 1080})
            await tv.locator(".gear").click()
            # a 6-card deck: with 15 photos, association's 21 cards for three, every one dealt
            deck = await upload_deck(tv, "Ours", 6)
            await tv.locator(".settings-drawer [data-set=photos] input").check()
            await tv.locator(".settings-drawer .drawer-head button").click()
            await tv.locator(".tv-photos .photo-count").wait_for()
            phones = await join_phones(browser, join_url, ["Ann", "Bob", "Cid"], errors, tv=tv)
            for n, p in enumerate(phones):
                await p.locator(".photo-add").wait_for()
                await p.locator(".photo-input").set_input_files(pictures(5)[n:] + pictures(n))
                await until(p, "() => document.querySelectorAll('.photo-thumb img').length === 5"
                               " && [...document.querySelectorAll('.photo-thumb img')].every((i) => i.naturalWidth > 0)")
            ann = phones[0]
            assert await ann.locator(".photo-add").is_disabled()
            await tv.locator(".tv-photos .photo-count", has_text="15").wait_for()
            for width in (390, 320):
                await ann.set_viewport_size({"width": width, "height": 844})
                await settled(ann)
                assert await ann.evaluate(NO_OVERFLOW)
                await shot(ann, f"photos-lobby-phone{width}-en")
            await axe_check(ann, "phone lobby with table photos")
            # Ann takes one away; in family mode the TV sees every photo and hides one of Bob's
            await ann.locator(".photo-remove").first.click()
            await until(ann, "() => document.querySelectorAll('.photo-thumb').length === 4")
            await tv.evaluate("() => window.partyhub.act({type: 'settings', family: true})")
            await until(tv, "() => document.querySelectorAll('.tv-photos .photo-thumb img').length === 14")
            await settled(tv)
            await shot(tv, "photos-lobby-tv1920-en")
            await tv.locator(".tv-photos .photo-remove").last.click()
            await tv.locator(".tv-photos .photo-count", has_text="13").wait_for()
            await until(phones[2], "() => document.querySelectorAll('.photo-thumb').length === 4")
            await tv.evaluate("() => window.partyhub.act({type: 'settings', family: false})")
            # 13 photos and 6 cards are too few for three (21 cards): Ann and Cid add one more each
            await ann.locator(".photo-input").set_input_files(pictures(1))
            await until(ann, "() => document.querySelectorAll('.photo-thumb').length === 5")
            await phones[2].locator(".photo-input").set_input_files(pictures(1))
            await until(phones[2], "() => document.querySelectorAll('.photo-thumb').length === 5")
            await tv.evaluate(f"window.partyhub.act({{type: 'start', game: 'association', options: {{deck: '{deck}'}}}})")
            got = 0
            for p in phones:
                await until(p, "() => document.querySelectorAll('.as-face img').length >= 6")
                await until(p, "() => [...document.querySelectorAll('.as-face img')].every((i) => i.complete)")
                got += await p.evaluate(PHOTO_CARDS)
            assert got >= 12          # 15 photos among 21 cards, 18 of them in the hands
            for p in phones:
                if await p.evaluate(PHOTO_CARDS):
                    await p.set_viewport_size({"width": 390, "height": 844})
                    await settled(p)
                    await shot(p, "photos-hand-phone390-en")
                    break
            assert not errors, errors
    finally:
        server.kill()


@pytest.mark.parametrize("lang", ["uk", "ru"])
async def test_the_photo_screens_speak_the_rooms_language_and_a_phone_keeps_its_photos_when_turned_off(
        tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang=lang)
            await tv.evaluate("() => window.partyhub.act({type: 'settings', photos: true})")
            ann, bob, cy = await join_phones(browser, join_url, ["Ann", "Bob", "Cy"], errors, tv=tv)
            await ann.locator(".photo-input").set_input_files(pictures(2))
            await until(ann, "() => document.querySelectorAll('.photo-thumb img').length === 2")
            await tv.locator(".tv-photos .photo-count", has_text="2").wait_for()
            await ann.set_viewport_size({"width": 320, "height": 844})
            await settled(ann)
            assert await ann.evaluate(NO_OVERFLOW)
            await shot(ann, f"photos-lobby-phone320-{lang}")
            await settled(tv)
            await shot(tv, f"photos-lobby-tv-{lang}")
            # off: nothing more is added, and Ann can still take hers away
            await tv.evaluate("() => window.partyhub.act({type: 'settings', photos: false})")
            await until(ann, "() => !document.querySelector('.photo-add')")
            # Bob's phone hears the change on its own socket: it may come after Ann's
            await bob.locator(".photos").wait_for(state="hidden", timeout=10_000)
            await settled(ann)
            await shot(ann, f"photos-off-phone320-{lang}")
            await ann.locator(".photo-remove").first.click()
            await until(ann, "() => document.querySelectorAll('.photo-thumb').length === 1")
            assert not errors, errors
    finally:
        server.kill()
