"""The TV's countdown ring holds its room in every game (issue 27; jinx had it first, in
tests/e2e/test_jinx_timer_room_browser.py): association's, sketch's and klepka's boards neither
move nor shrink when the ring in the game bar appears or goes. Each game is started at TVs of
1920x1080 and 1280x720 with four seats, and its board's cards are measured with the ring shown
and hidden (the `hidden` the timer toggles). Sketch's drawing round also keeps every empty board
outline inside its player's box (its faces in chips made the boxes lower). Screenshots
tests/e2e/screenshots/ring-*.png."""
import pytest

from tests.e2e.browser import chromium, e2e_server, settled, shot, until
from tests.e2e.test_tv_fit_browser import NAMES, seats, tvs

pytestmark = [pytest.mark.browser, pytest.mark.slow]

GAMES = {   # the game's options, and what holds its cards on the TV
    "association": ({}, ".as-tv .as-tablebox, .as-tv .as-side, .as-tv .as-foot"),
    "sketch": ({}, ".sk-tv-drawing .sk-tile, .sk-tv-drawing .sk-pgroup"),
    "klepka": ({}, ".klepka-tv .kc, .klepka-tv .k-side"),
}
RECTS = """(sel) => [...document.querySelectorAll(sel)].map((c) => {
  const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round); })"""
# Sketch's boards (tiles) that reach past their player's box (inside its border).
SPILLS = """() => [...document.querySelectorAll('.sk-pgroup')].flatMap((g) => {
  const b = g.getBoundingClientRect(), w = parseFloat(getComputedStyle(g).borderLeftWidth);
  return [...g.querySelectorAll('.sk-tile')].filter((t) => { const r = t.getBoundingClientRect();
    return r.left < b.left + w - 0.5 || r.right > b.right - w + 0.5 || r.top < b.top + w - 0.5 || r.bottom > b.bottom - w + 0.5; })
    .map((t) => `${g.dataset.player}: ${JSON.stringify(t.getBoundingClientRect())} in ${JSON.stringify(b)}`); })"""
NUMBER_IN_RING = """() => { const n = document.querySelector('.gamebar-timer .timer-num');
  const ring = n.closest('.timer').getBoundingClientRect(), r = document.createRange();
  r.selectNodeContents(n); const t = r.getBoundingClientRect();
  return /:/.test(n.textContent) && t.width <= ring.width * 0.8; }"""
ON_SOUND = """(sel) => { const v = document.querySelector('.volume'); if (!v) return [];
  const b = v.getBoundingClientRect();
  return [...document.querySelectorAll(sel)].filter((el) => el.children.length === 0 && el.textContent.trim())
    .flatMap((el) => [...el.getClientRects()]).filter((r) => r.width > 0 && r.left < b.right && r.right > b.left
      && r.top < b.bottom && r.bottom > b.top).map((r) => JSON.stringify(r)); }"""
RING = """(show) => { const t = document.querySelector('.gamebar-timer .timer');
  t.hidden = !show; return new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))); }"""


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_the_board_stays_put_when_the_ring_appears(tmp_path, chromium_path, game):
    options, cards = GAMES[game]
    server = e2e_server(tmp_path)
    async with chromium(chromium_path) as browser:
        screens, (base, code) = await tvs(browser, server.base)
        conns = await seats(base, code, NAMES[:4])
        await screens[0].evaluate("([g, o]) => window.partyhub.act({type: 'start', game: g, options: o})", [game, options])
        for p in screens:
            width = p.viewport_size["width"]
            await until(p, "(sel) => document.querySelectorAll(sel).length > 0", cards)
            await settled(p)
            seen = {}
            for show in (False, True, False):
                await p.evaluate(RING, show)
                await shot(p, f"ring-{game}-{width}-{'on' if show else 'off'}")
                seen.setdefault(show, []).append(await p.evaluate(RECTS, cards))
            assert seen[False][0] == seen[False][1], (game, width)
            assert seen[False][0] == seen[True][0], f"{game} {width}: the board moved when the ring appeared"
            if game == "sketch":
                assert not await p.evaluate(SPILLS), f"{width}: a board outline spills past its player's box"
                await p.evaluate(RING, True)
                # a round's m:ss fits inside the ring, and the side column's last line keeps
                # clear of the sound button (bottom left)
                assert await p.evaluate(NUMBER_IN_RING), f"{width}: the ring's m:ss reaches past the ring"
                assert not await p.evaluate(ON_SOUND, ".sk-side *"), f"{width}: on the sound button"
        for c in conns:
            await c.close()
