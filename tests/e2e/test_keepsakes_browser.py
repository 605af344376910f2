"""Keepsakes in a browser: a short game of sketch is played through the protocol; its results
screen on a 320-px phone and on a 1920x1080 TV has the keepsakes button, which opens the
gallery (in the room's language) with the drawing rendered by the server; the TV's page makes
a share link that a fresh browser opens, and stops it. Screenshots: keep-*.png."""

import pytest

from tests.e2e.browser import chromium, e2e_server, settled, shot, until
from tests.e2e.test_sketch_results_browser import context_page, doodle, open_seat
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TV_FULL = {"width": 1920, "height": 1080}
SMALL = {"width": 320, "height": 640}
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
# every drawing on the page has loaded as a picture of its real size
DRAWN = """() => [...document.querySelectorAll('.keep-card img')].every((i) => i.complete && i.naturalWidth === 600)"""


async def play_sketch(base, code, host, seats):
    conns = [await Conn(base, code, s["token"]).open() for s in seats]
    ctl = await Conn(base, code, host).open()
    await ctl.act({"type": "start", "game": "sketch", "options": {"round_seconds": 5}})
    for c in conns:
        await c.wait(lambda v: v["room"]["phase"] == "playing")
    words = []
    for k, c in enumerate(conns):
        word = next(a["word"] for a in c.view["actions"] if a["type"] == "draw" and a["board"] == 0)
        words.append(word)
        await c.act({"type": "draw", "board": 0, "word": word})
        await c.act({"type": "stroke", "board": 0, "points": doodle(k), "color": "#000", "width": 8})
    await conns[0].wait(lambda v: v["game"]["phase"] == "guessing", timeout=15)
    await conns[1].act({"type": "guess", "player": seats[0]["player_id"], "board": 0, "text": words[0]})
    for c in conns:
        await c.wait(lambda v: v["room"]["phase"] == "over", timeout=45)
    for c in conns + [ctl]:
        await c.close()
    return words


@pytest.mark.parametrize("lang", ["uk"])
async def test_the_results_open_the_rooms_keepsakes_on_a_phone_and_the_tv(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        _, room = http("POST", server.base + "/api/rooms", {"language": lang})
        code, host = room["code"], room["host_token"]
        seats = [http("POST", f"{server.base}/api/rooms/{code}/join", {"name": n})[1]
                 for n in ("Ганна", "Богдан", "Олена")]
        words = await play_sketch(server.base, code, host, seats)
        async with chromium(chromium_path) as browser:
            # a phone at 320 px: results, then its gallery
            ph = await open_seat(browser, server.base, code, seats[2], SMALL, errors)
            await ph.locator(".results .keep-open").wait_for(timeout=20000)
            await settled(ph)
            await ph.locator(".keep-open").scroll_into_view_if_needed()
            await shot(ph, f"keep-phone320-results-{lang}")
            # the gallery opens in a new tab: the phone stays on the room (issue 27)
            room_url = ph.url
            async with ph.context.expect_page() as opened:
                await ph.locator(".keep-open").click()
            game, ph = ph, await opened.value
            await ph.wait_for_url(f"**/r/{code}/keepsakes?k=*")
            assert game.url == room_url
            await game.locator(".results .keep-open").wait_for()
            await until(ph, DRAWN)
            text = await ph.locator("main").inner_text()
            assert "Галерея кімнати" in text and "Скетч" in text
            for w in words:
                assert w in text
            assert "вгадали: Богдан" in text
            assert await ph.evaluate(OVERFLOW) <= 0
            assert await ph.locator(".keep-share").count() == 0        # a player has no share buttons
            await shot(ph, f"keep-phone320-gallery-{lang}")
            # the picture's pixels: the server drew the doodle on white paper
            png = await ph.evaluate("""async () => {
              const img = document.querySelector('.keep-card img');
              const c = document.createElement('canvas'); c.width = 600; c.height = 600;
              const x = c.getContext('2d'); x.drawImage(img, 0, 0);
              const at = (px, py) => [...x.getImageData(px, py, 1, 1).data].slice(0, 3);
              return { on: at(Math.round(0.7 * 599), Math.round(0.5 * 599)), off: at(5, 5) }; }""")
            assert sum(png["on"]) < 100 and png["off"] == [255, 255, 255], png
            gif = await ph.request.get(server.base + await ph.locator(".keep-dl a").nth(1).get_attribute("href"))
            assert gif.status == 200 and (await gif.body())[:6] == b"GIF89a"

            # the TV: results, then the gallery with the share buttons
            tv = await context_page(browser, TV_FULL, errors, False)
            await tv.goto(f"{server.base}/")
            await tv.evaluate(f"localStorage.setItem('partyhub.host.{code}', '{host}')")
            await tv.goto(f"{server.base}/tv/{code}")
            await tv.locator(".results .keep-open").wait_for(timeout=20000)
            await settled(tv)
            await shot(tv, f"keep-tv1920-results-{lang}")
            async with tv.context.expect_page() as opened:
                await tv.locator(".keep-open").click()
            game, tv = tv, await opened.value
            await tv.wait_for_url(f"**/r/{code}/keepsakes?k=*")
            assert game.url.endswith(f"/tv/{code}")
            await game.locator(".results .keep-open").wait_for()
            await until(tv, DRAWN)
            assert await tv.evaluate(OVERFLOW) <= 0
            await tv.locator(".keep-share button[value=share]").click()
            link = tv.locator(".keep-link")
            await link.wait_for()
            shared = await link.get_attribute("href")
            await shot(tv, f"keep-tv1920-gallery-{lang}")
            # a stranger's browser opens the share link; after "Stop sharing" it does not
            stranger = await context_page(browser, SMALL, errors, True)
            await stranger.goto(shared)
            await until(stranger, DRAWN)
            assert await stranger.locator(".keep-card").count() == 3
            await tv.locator(".keep-share button[value=unshare]").click()
            await tv.locator(".keep-share button[value=share]").wait_for()
            r = await stranger.goto(shared)
            assert r.status == 403
            await shot(stranger, f"keep-phone320-refused-{lang}")
        errors = [e for e in errors if "403" not in e]
        assert not errors, errors
    finally:
        server.kill()
