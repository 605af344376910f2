"""Sketch's drawing round on the TV (issue 27): the room watches the progress, never a drawing.

Four seats play through the protocol: Ann puts a word and a line on all six boards (she has
finished), Bob keeps drawing one board, Cleo picks two words and draws nothing, Dan waits.
The TV at 1920x1080 and at 1280x720 shows an ink bar on each board with a word (full for
Bob's, one step for Ann's, empty for Cleo's), Bob's board glowing while its ink grows, "✓ Done"
on Ann's group and on nobody else's, the "hurry" cue in the last 10 seconds, and no stroke in
anything the TV was sent. Screenshots go to tests/e2e/screenshots.
"""
import asyncio
import math

import pytest

from tests.e2e.browser import chromium, e2e_server, new_room, shot, until
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ROUND = 16


def line(k):
    return [[round(0.15 + 0.7 * (i % 2), 3), round(0.1 + 0.02 * k + 0.001 * i, 3)] for i in range(12)]


def ring(k):
    return [[0.5 + 0.3 * math.cos(a / 6), 0.5 + 0.3 * math.sin(a / 6)] for a in range(8 * k, 8 * k + 9)]


async def words(conn, board):
    return [a["word"] for a in conn.view["actions"] if a["type"] == "draw" and a["board"] == board]


async def test_the_tv_shows_ink_finished_and_the_last_seconds_and_no_drawing(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, _ = await new_room(browser, server.base, errors)
            await tv.set_viewport_size({"width": 1920, "height": 1080})
            code = tv.url.rsplit("/", 1)[1][:4]
            host = await tv.evaluate(f"localStorage.getItem('partyhub.host.{code}')")
            seats = [http("POST", f"{server.base}/api/rooms/{code}/join", {"name": n})[1]
                     for n in ("Ann", "Bob", "Cleo", "Dan")]
            ann, bob, cleo, dan = [await Conn(server.base, code, s["token"]).open() for s in seats]
            ids = [s["player_id"] for s in seats]
            await tv.locator("body").click()           # a tap unlocks the TV's sound
            ctl = await Conn(server.base, code, host).open()
            await ctl.act({"type": "start", "game": "sketch", "options": {"round_seconds": ROUND}})
            for c in (ann, bob, cleo):
                await c.wait(lambda v: (v["game"] or {}).get("phase") == "drawing")
            await tv.locator(".sk-tv-drawing .sk-sandbox").wait_for()
            for b in range(6):
                await ann.act({"type": "draw", "board": b, "word": (await words(ann, b))[b]})
            await ann.wait(lambda v: all(x["word"] for x in v["game"]["you"]["boards"]))
            for b in range(6):
                await ann.act({"type": "stroke", "board": b, "points": line(b)[:3], "color": "#000", "width": 4})
            for b in range(2):
                await cleo.act({"type": "draw", "board": b, "word": (await words(cleo, b))[b]})
            await bob.act({"type": "draw", "board": 0, "word": (await words(bob, 0))[0]})
            await bob.wait(lambda v: v["game"]["you"]["boards"][0]["word"])

            def tile(pid, b):
                return f"document.querySelector('.sk-pgroup[data-player=\"{pid}\"] .sk-tiles').children[{b}]"
            for k in range(40):       # Bob draws on: about 2 s of batches
                await bob.act({"type": "stroke", "board": 0, "points": ring(k % 6) if k % 2 else line(k),
                               "color": "#2e86de", "width": 4, "join": False})
                await asyncio.sleep(0.05)
                if k == 12:
                    await until(tv, f"() => {tile(ids[1], 0)}.classList.contains('inking')", timeout=5000)
            await until(tv, f"() => {tile(ids[1], 0)}.dataset.ink === '4'", timeout=5000)
            await until(tv, f"() => {tile(ids[0], 5)}.dataset.ink === '1'", timeout=5000)
            await tv.locator(f'.sk-pgroup[data-player="{ids[0]}"] .sk-done').wait_for()
            await shot(tv, "sketch-tv-progress-1920")
            # the bars say the levels: Bob's full, Ann's one step, Cleo's empty; ✓ for Ann only
            assert await tv.locator(f'.sk-pgroup[data-player="{ids[1]}"] .sk-tile').first.locator(".sk-ink i.on").count() == 4
            assert await tv.locator(f'.sk-pgroup[data-player="{ids[0]}"] .sk-ink i.on').count() == 6
            assert await tv.locator(f'.sk-pgroup[data-player="{ids[2]}"] .sk-tile.drawn .sk-ink').count() == 2
            assert await tv.locator(f'.sk-pgroup[data-player="{ids[2]}"] .sk-ink i.on').count() == 0
            assert await tv.locator(".sk-done").count() == 1
            assert (await tv.locator(".sk-done").inner_text()).strip() == "✓ Done"
            await tv.set_viewport_size({"width": 1280, "height": 720})
            await asyncio.sleep(0.3)
            done = await tv.locator(".sk-done").bounding_box()
            group = await tv.locator(f'.sk-pgroup[data-player="{ids[0]}"]').bounding_box()
            assert group["x"] <= done["x"] and done["x"] + done["width"] <= group["x"] + group["width"]
            assert group["y"] <= done["y"] and done["y"] + done["height"] <= group["y"] + group["height"]
            name = tv.locator(f'.sk-pgroup[data-player="{ids[0]}"] .pname')
            assert await name.evaluate("(el) => el.scrollWidth <= el.clientWidth"), "Ann's name is not cut"
            await shot(tv, "sketch-tv-progress-1280")
            # the last 10 seconds are heard: "hurry" once, then ticks
            await until(tv, "() => (window.partyhub.sounds.stats().heard.hurry || 0) === 1", timeout=ROUND * 1000)
            assert await tv.locator(".sk-sandbox.low").count() == 1
            await shot(tv, "sketch-tv-progress-hurry")
            # the TV was sent no line: its view has no strokes while drawing
            game = await tv.evaluate("() => JSON.stringify(window.partyhub.view.game)")
            assert '"strokes"' not in game and '"points"' not in game
            await tv.locator(".sk-tv-guessing").wait_for(timeout=ROUND * 1000)
            assert await tv.locator(".sk-ink").count() == 0 and await tv.locator(".sk-done").count() == 0
            for c in (ann, bob, cleo, dan, ctl):
                await c.close()
            assert not errors, errors
    finally:
        server.kill()
