"""A real browser: the TV creates a room, three phones join, one reloads, the VIP starts."""
import re

import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_tv_and_three_phones_fill_the_lobby_and_the_vip_starts(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang=lang)
            await tv.locator(".code").wait_for()
            names = ["Ann", "Богдан", "<img src=x onerror=alert(1)>"]
            phones = await join_phones(browser, join_url, names, errors, tv=tv)
            assert await tv.locator(".players .pname").count() == 3
            assert await tv.locator("img[src=x]").count() == 0      # the name is text, not markup
            await shot(tv, f"lobby-tv-{lang}")
            await shot(phones[0], f"lobby-phone-vip-{lang}")
            await phones[1].reload()
            await phones[1].locator(".me-name", has_text=names[1]).wait_for()
            assert await tv.locator(".players .pname").count() == 3
            await shot(phones[1], f"lobby-phone-reloaded-{lang}")
            vip = phones[0]
            await vip.locator(".game-card", has_text=re.compile("Count|Рахуємо|Считаем", re.I)).click()   # the card label is translated
            await vip.locator("button.start").click()
            await tv.locator(".lobby-tv").wait_for(state="detached")
            await phones[2].locator(".generic").wait_for()
            await shot(tv, f"game-tv-{lang}")
            await shot(phones[2], f"game-phone-{lang}")
            assert not errors, errors
    finally:
        server.kill()


async def test_the_results_screen_counts_every_game_and_lists_the_last_six(tmp_path, chromium_path):
    """Seven games of the test game in one room: the TV's scoreboard says seven, lists the last
    six and counts each player's wins (the room keeps counts, not every game: scoreboard.py)."""
    from tests.liveserver import Conn, http
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rstrip("/").rsplit("/", 1)[1]
            phones = []
            for name in ("Ann", "Bo"):
                status, seat = http("POST", f"{server.base}/api/rooms/{code}/join", {"name": name})
                assert status == 201, seat
                phones.append(await Conn(server.base, code, seat["token"]).open())
            ann, bo = phones
            await ann.act({"type": "start", "game": "count", "options": {"target": 3}})
            for n in range(1, 8):       # Ann wins the odd games (3 at once), Bo the even (1, then 2)
                await ann.wait(lambda v, n=n: v["room"]["phase"] == "playing" and v["room"]["game_no"] == n)
                if n % 2:
                    await ann.act({"type": "add", "n": 3})
                else:
                    await ann.act({"type": "add", "n": 1})
                    await bo.wait(lambda v: v["game"]["total"] == 1)
                    await bo.act({"type": "add", "n": 2})
                await ann.wait(lambda v: v["room"]["phase"] == "over")
                if n < 7:
                    await ann.act({"type": "again"})
            board = tv.locator(".scoreboard")
            await board.locator("h2", has_text="7").wait_for()
            assert await board.locator(".games-played li").count() == 6
            rows = {(await r.locator(".pname").inner_text()): (await r.locator(".wcount").inner_text())
                    for r in await board.locator(".win-row").all()}
            assert "4" in rows["Ann"] and "3" in rows["Bo"], rows
            await shot(tv, "results-tv-seven-games")
            assert not errors, errors
    finally:
        server.kill()
