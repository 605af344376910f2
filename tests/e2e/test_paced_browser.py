"""A host-paced room in a real browser (issue 21, WCAG 2.2.1): the TV's settings offer "No
timer (host-paced)"; in sketch no sand runs, the TV says who paces the game instead of a
countdown, and the VIP's phone ends the drawing round with a big "End the round" button
(at 390 and 320 px), which a reload brings back and a pause takes away."""
import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, settled, shot, until
from tests.liveserver import Conn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

END = ".gamebar-timer .pace button"
IS_VIP = "() => window.partyhub.view && window.partyhub.view.room.vip === window.partyhub.view.you.id"
FITS = """(sel) => { const b = document.querySelector(sel).getBoundingClientRect();
  return {w: b.width, h: b.height, left: b.left, right: b.right, vw: innerWidth}; }"""


async def the_vip(phones):
    """(the VIP's phone, the others)."""
    for p in phones:
        await until(p, "() => window.partyhub.view && window.partyhub.view.room.phase === 'playing'")
    found = [p for p in phones if await p.evaluate(IS_VIP)]
    assert len(found) == 1
    return found[0], [p for p in phones if p is not found[0]]


async def test_the_vip_ends_a_sketch_round_in_a_host_paced_room(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = tv.url.rsplit("/", 1)[1][:4]
            phones = await join_phones(browser, join_url, ["Ann", "Bob", "Cleo"], errors, tv=tv)
            await tv.locator(".gear").click()
            timers = tv.locator('select[data-set="timers"]')
            assert await timers.locator("option").evaluate_all("(os) => os.map((o) => o.value)") == [
                "normal", "extended", "relaxed", "none"]
            await timers.select_option("none")
            await until(tv, "() => window.partyhub.view.room.timers === 'none'")
            host = await tv.evaluate(f"localStorage.getItem('partyhub.host.{code}')")
            ctl = await Conn(server.base, code, host).open()
            await ctl.act({"type": "start", "game": "sketch", "options": {"round_seconds": 5}})
            await tv.locator(".sk-tv-drawing").wait_for()
            await tv.locator(".gamebar-timer .pace p", has_text="No timer").wait_for()
            assert await tv.evaluate("window.partyhub.view.deadline") is None
            assert not await tv.locator(".sk-sandbox").is_visible(), "no sand runs"
            assert not await tv.locator(".gamebar .timer").is_visible(), "no countdown ring"
            vip, others = await the_vip(phones)
            await vip.locator(END, has_text="End the round").wait_for()
            for p in others:
                assert await p.locator(END).count() == 0, "only the VIP ends the round"
            await vip.locator(".sk-word").first.click()         # a board to guess later
            await vip.locator(".sk-canvas").wait_for()
            # a reload: the phone comes back to its board (the VIP role passes to the next
            # connected player while the socket is away, as whenever the VIP leaves)
            await vip.reload()
            await vip.locator(".sk-canvas").wait_for()
            await until(vip, "() => window.partyhub.view && window.partyhub.view.game.you.boards[0].word")
            vip, others = await the_vip(phones)
            await vip.locator(END).wait_for()
            for width in (390, 320):
                await vip.set_viewport_size({"width": width, "height": 844 if width == 390 else 640})
                await vip.evaluate("() => scrollTo(0, 0)")
                await settled(vip)
                box = await vip.evaluate(FITS, END)
                assert box["w"] >= 44 and box["h"] >= 44, box
                assert box["left"] >= 0 and box["right"] <= box["vw"], box
                await shot(vip, f"paced-phone-vip-drawing-{width}")
            await settled(tv)
            await shot(tv, "paced-tv-drawing")
            await ctl.act({"type": "pause"})
            await until(vip, f"() => !document.querySelector('{END}')")
            await ctl.act({"type": "resume"})
            await vip.locator(END).click()
            await tv.locator(".sk-tv-guessing").wait_for()
            await until(tv, "() => window.partyhub.view.game.round === 2 && window.partyhub.view.deadline === null")
            await vip.locator(END).wait_for()            # the guessing round is the VIP's to end too
            await settled(tv)
            await shot(tv, "paced-tv-guessing")
            await shot(vip, "paced-phone-vip-guessing-320")
            await ctl.close()
            assert not errors, errors
    finally:
        server.kill()
