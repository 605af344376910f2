"""Jinx's countdown holds its room (issue 27): the TV's ring and the phone's bar appear for the
reveal (and for a timed race), and the square must not move or shrink when they do.

A turn is played on TVs at 1920x1080 and 1280x720 and phones at 390 and 320 px: the clue (no
timer), the race (no timer by default) and the reveal (its timer counting). On the TVs every
card keeps its box through the three phases; on the phones what comes below the timer's place
starts at the same height whether the timer shows or not (what the phone writes over the square,
a title, a hint, the first turn's line, is the game's own and differs by phase). Screenshots
tests/e2e/screenshots/jinx-timer-*.png.
"""
import asyncio

import pytest

from tests.e2e.browser import chromium, e2e_server, seat_page, settled, shot, until
from tests.e2e.test_tv_fit_browser import do, offered, seats, tvs
from tests.liveserver import http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONES = [{"width": 390, "height": 844}, {"width": 320, "height": 640}]
CARDS = """() => [...document.querySelectorAll('.jx-cell')].map((c) => {
  const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round); })"""
BELOW = "() => Math.round(document.querySelector('.gamebar-timer').getBoundingClientRect().bottom)"
TIMER = "() => { const t = document.querySelector('.gamebar-timer .timer'); return !!t && !t.hidden; }"


async def phone_for(browser, base, code, name, size):
    status, seat = http("POST", f"{base}/api/rooms/{code}/join", {"name": name})
    assert status == 201, seat
    return await seat_page(browser, base, code, seat, size)


@pytest.mark.asyncio
async def test_the_square_stays_put_when_the_timer_appears(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    async with chromium(chromium_path) as browser:
        screens, (base, code) = await tvs(browser, server.base)
        conns = await seats(base, code, ["Ann", "Bob"])        # Ann gives the clue (first seat)
        phones = [await phone_for(browser, base, code, name, size) for name, size in zip(["Cleo", "Dave"], PHONES)]
        await screens[0].evaluate("window.partyhub.act({type: 'start', game: 'jinx', "
                                  "options: {first_player: 'first_seat', next_turn_seconds: 30}})")
        seen = {}
        for phase in ("clue", "race", "reveal"):
            for p in screens + phones:
                await until(p, "(ph) => (window.partyhub.view.game || {}).phase === ph && document.querySelector('.jx-cell, .jx-p-cell')", phase)
                await settled(p)
                width = p.viewport_size["width"]
                assert await p.evaluate(TIMER) == (phase == "reveal"), (width, phase)
                await shot(p, f"jinx-timer-{width}-{phase}")
                seen.setdefault(width, []).append(await p.evaluate(CARDS if p in screens else BELOW))
            if phase == "clue":
                assert await do(conns, "clue", text="Full moon")
            elif phase == "race":       # everyone picks a card of their own: the turn is over
                await asyncio.gather(*(c.wait(lambda v: (v.get("game") or {}).get("phase") == "race") for c in conns))
                for k, c in enumerate(c for c in conns if offered(c, "pick")):
                    await c.act(offered(c, "pick")[k])
                for k, p in enumerate(phones):
                    await p.evaluate("(k) => { const a = window.partyhub.gameActions().filter((x) => x.type === 'pick');"
                                     " if (a.length) window.partyhub.act(a[(k + 2) % a.length]); }", k)
        for width, (clue, race, reveal) in seen.items():
            assert clue == race == reveal, f"{width}: the square moved when the timer appeared: {clue} {race} {reveal}"
        for c in conns:
            await c.close()
