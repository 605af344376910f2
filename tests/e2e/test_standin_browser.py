"""A real browser: a phone drops mid-turn, the TV marks its seat "bot playing for Ann" while the
stand-in plays it (in each game's own TV), and the mark goes as soon as the phone is back."""
import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, seat_page, settled, shot, until
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MARKED = """(name) => [...document.querySelectorAll('.standin-tag')].map((e) => e.textContent)
  .some((s) => s.includes(name))"""
WAITED_ON = "() => window.partyhub.view && window.partyhub.gameActions().length > 0"
OPTIONS = {"jinx": {"first_player": "first_seat"}, "association": {}, "klepka": {},
           "sketch": {"round_seconds": 120}}


async def test_the_host_chooses_the_delay_in_the_room_settings(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, _ = await new_room(browser, server.base, errors)
            assert await tv.evaluate("() => window.partyhub.view.room.standin") == 20
            await tv.locator(".gear").click()
            await tv.locator('select[data-set="standin"]').select_option("0")
            await until(tv, "() => window.partyhub.view.room.standin === 0")
            await tv.locator('select[data-set="standin"]').select_option("30")
            await until(tv, "() => window.partyhub.view.room.standin === 30")
            await settled(tv)
            await shot(tv, "standin-setting-en")
            assert not errors, errors
    finally:
        server.kill()


@pytest.mark.parametrize("game, lang", [("jinx", "en"), ("association", "en"), ("klepka", "en"),
                                        ("sketch", "en"), ("jinx", "uk"), ("klepka", "ru")])
async def test_the_tv_marks_the_seat_a_stand_in_plays_until_the_phone_is_back(tmp_path, chromium_path, game, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang=lang)
            phones = await join_phones(browser, join_url, ["Ann", "Bob", "Cat"], errors, tv=tv)
            # a short delay for the test (the TV's menu offers 10 s and up; the protocol any second)
            await tv.evaluate("() => window.partyhub.act({type: 'settings', standin: 1})")
            await until(tv, "() => window.partyhub.view.room.standin === 1")
            await tv.evaluate("([game, options]) => window.partyhub.act({type: 'start', game, options})",
                              [game, OPTIONS[game]])
            await until(tv, "() => window.partyhub.view.room.phase === 'playing'")
            for p in phones:
                await until(p, "() => window.partyhub.view && window.partyhub.view.room.phase === 'playing'")
            gone = None
            while gone is None:
                for p in phones:
                    if await p.evaluate(WAITED_ON):
                        gone = p
                        break
                else:
                    await tv.wait_for_timeout(50)      # polling, as until() does
            name = await gone.evaluate("() => window.partyhub.name(window.partyhub.you.id)")
            phone_url = gone.url
            await gone.goto("about:blank")              # the phone drops on its turn
            await until(tv, MARKED, name)
            # the seat does not look away while its stand-in plays it
            assert await tv.evaluate("() => document.querySelector('.standin-tag').closest('.away')") is None
            await settled(tv)
            await shot(tv, f"standin-tv-{game}-{lang}")
            await gone.goto(phone_url)                  # and comes back to its seat
            await until(gone, "() => window.partyhub.view && window.partyhub.you.role === 'player'")
            await until(tv, "() => !document.querySelector('.standin-tag') && "
                        "window.partyhub.view.room.players.every((p) => p.connected)")
            await settled(gone)
            await shot(gone, f"standin-back-phone-{game}-{lang}")
            assert not errors, errors
    finally:
        server.kill()


NOTE = {"en": "a bot played", "uk": "бот зіграв", "ru": "бот сыграл"}


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_a_phone_back_after_the_game_ended_is_told_what_its_stand_in_did(tmp_path, chromium_path, lang):
    """The game ends while Ann's phone is away (her stand-in made the last move): back on the
    results, her phone shows what the stand-in did, and its live region says it."""
    server = e2e_server(tmp_path)
    base = server.base
    status, room = http("POST", f"{base}/api/rooms", {"language": "en"})
    code = room["code"]
    tv = await Conn(base, code, room["host_token"]).open()
    status, ann = http("POST", f"{base}/api/rooms/{code}/join", {"name": "Ann", "language": lang})
    status, bob = http("POST", f"{base}/api/rooms/{code}/join", {"name": "Bob"})
    bob = await Conn(base, code, bob["token"]).open()
    async with chromium(chromium_path) as browser:
        phone = await seat_page(browser, base, code, ann, {"width": 320, "height": 640})
        await tv.act({"type": "settings", "standin": 1})
        # Ann's turn first: her stand-in adds for her, and Bob reaches the target
        await tv.act({"type": "start", "game": "count", "options": {"target": 3}})
        await until(phone, "() => window.partyhub.gameActions().some((a) => a.type === 'add')")
        await phone.goto("about:blank")
        while (await bob.wait(lambda v: v["room"]["phase"] == "over" or {"type": "add", "n": 3} in v["actions"],
                              timeout=30))["room"]["phase"] != "over":
            await bob.act({"type": "add", "n": 3})
            await bob.wait(lambda v: {"type": "add", "n": 3} not in v["actions"])
        await phone.goto(f"{base}/j/{code}")
        note = phone.locator(".results .standin-note")
        await note.wait_for()
        text = await note.locator("p").inner_text()
        assert NOTE[lang] in text.lower() and "+" in text, text
        said = await until(phone, "(t) => { const s = document.querySelector('.announce').textContent; "
                           "return s.toLowerCase().includes(t) && s; }", NOTE[lang])
        assert text.strip() in said, said
        await settled(phone)
        await shot(phone, f"standin-results-{lang}")
        assert await phone.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
    await bob.close()
    await tv.close()
