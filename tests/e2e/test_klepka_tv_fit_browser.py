"""Klepka's TV fits (issue 27) with six players with the longest names, on TVs at 1920x1080 and
1280x720 watching one room (tests/e2e/test_tv_fit_browser.py's TVs and seats): the TV lists all
six, a 320 px phone's table fits with no sideways scroll, and a prize card says what it does on
the phone and the TV; with full hands, the TV's prize lines shorten rather than leave the screen.
Screenshots tests/e2e/screenshots/fit-klepka-*.png.
"""
import asyncio
import random

import pytest

from tests.e2e.browser import chromium, e2e_server, page, settled, shot
from tests.e2e.test_tv_fit_browser import NAMES, fits, offered, seats, tvs

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def prize_holder(conns):
    """The first seat whose own view shows a prize card in its hand, or None."""
    for c in conns:
        g, me = c.view.get("game") or {}, c.view["you"]["id"]
        if any(x.get("kind") != "letter" for x in ((g.get("players") or {}).get(me) or {}).get("hand") or []):
            return c
    return None


@pytest.mark.asyncio
async def test_klepka_fits_six_players_and_explains_prizes(tmp_path, chromium_path):
    """Klepka at 10x10 with six players: the TV lists all six, the 320 px phone's table fits
    with no sideways scroll, and a prize card in a hand says what it does on both."""
    server = e2e_server(tmp_path)
    async with chromium(chromium_path) as browser:
        screens, (base, code) = await tvs(browser, server.base, lang="uk")
        conns = await seats(base, code, NAMES[:6])
        await screens[0].evaluate("window.partyhub.act({type: 'start', game: 'klepka', "
                                  "options: {table: '10x10', reveal_seconds: 0}})")
        # random flips until a seat holds a prize card (a prize is taken as it is flipped)
        rnd = random.Random(27)
        for _ in range(600):
            if holder := prize_holder(conns):
                break
            for c in conns:
                if a := offered(c, "flip"):
                    await c.act(rnd.choice(a))
                elif a := offered(c, "words_done"):
                    await c.act(a[0])
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("nobody took a prize card")
        phone = await page(browser, {"width": 320, "height": 640})
        await phone.goto(f"{base}/")
        await phone.evaluate("([code, seat]) => { localStorage.setItem(`partyhub.seat.${code}`, seat.token); "
                             "localStorage.setItem(`partyhub.pid.${code}`, seat.player_id); }", [code, holder.seat])
        await phone.goto(f"{base}/j/{code}")
        await phone.locator(".k-hand .k-about").first.wait_for()
        await settled(phone)
        await shot(phone, "fit-klepka-phone320")
        wide = await phone.evaluate("() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
        assert wide[0] <= wide[1], f"the phone scrolls sideways: {wide}"
        grid = await phone.evaluate("""() => { const g = document.querySelector('.km-grid').getBoundingClientRect();
          const c = document.querySelector('.km-cell').getBoundingClientRect();
          return {right: g.right, width: document.documentElement.clientWidth, cell: c.width}; }""")
        assert grid["right"] <= grid["width"] and grid["cell"] >= 24, grid
        about = await phone.locator(".k-hand .k-about").first.inner_text()
        assert ":" in about and len(about) > 20, about
        assert await phone.evaluate("() => [...document.querySelectorAll('.k-tile.k-prize')].every((b) => "
                                    "document.getElementById(b.getAttribute('aria-describedby')))")
        for p in screens:
            await p.locator(".k-prizes .k-about").first.wait_for()
            await fits(p, f"klepka-{p.viewport_size['width']}", ".klepka-tv", ".k-status, .k-players, .k-prizes, .k-words, .kp-box")
            assert await p.locator(".kp-box").count() == 6
        for c in conns:
            await c.close()


# The TV's klepka view as the game stands, redrawn with every seat holding `n` cards (the three
# prize kinds among them) and the longest name making words: {tight, hidden} of the prize lines.
CROWD = """async (n) => {
  const v = structuredClone(window.partyhub.view), g = v.game;
  const kinds = ['polysemy', 'chaos', 'exchange'];
  g.order.forEach((seat, i) => {
    g.players[seat].hand = Array.from({ length: n }, (_, j) => (j === 0 && i < 3
      ? { id: `p${i}`, kind: kinds[i] }
      : { id: `c${i}-${j}`, kind: 'letter', letter: 'АБВГДЕЖЗИКЛМ'[j % 12], points: 1 + (j % 3),
          colour: ['red', 'yellow', 'green', 'blue'][j % 4] }));
  });
  g.phase = 'words';
  g.turn = g.order[4];
  const box = document.querySelector('.klepka-tv');
  const m = await import('/static/games/klepka/tv.js');
  m.render(box.parentElement, v, window.partyhub);
  await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const prizes = document.querySelector('.k-prizes');
  return { tight: prizes.classList.contains('tight'), hidden: prizes.hidden };
}"""


@pytest.mark.asyncio
async def test_klepka_full_hands_keep_the_prize_lines_on_the_tv_or_make_them_shorter(tmp_path, chromium_path):
    """Six seats with the longest names, twelve cards each and the three prize kinds: what each
    prize does no longer fits beside them at 1920x1080 (CI saw its lines run off the screen), so
    the TV names the prizes in one line, or not at all, and nothing is cut; with few cards, it
    says what each does."""
    server = e2e_server(tmp_path)
    async with chromium(chromium_path) as browser:
        screens, (base, code) = await tvs(browser, server.base)
        conns = await seats(base, code, NAMES[:6])
        await screens[0].evaluate("window.partyhub.act({type: 'start', game: 'klepka', "
                                  "options: {table: '6x8', reveal_seconds: 0}})")    # the widest felt
        for p in screens:
            await p.locator(".klepka-tv").wait_for()
            await settled(p)
            few, width = await p.evaluate(CROWD, 2), p.viewport_size["width"]
            assert few == {"tight": False, "hidden": False}, (width, few)
            assert ":" in await p.locator(".k-prizes .k-about").first.inner_text()
            await fits(p, f"klepka-few-{width}", ".klepka-tv", ".k-status, .k-players, .k-prizes, .k-words, .kp-box")
            full = await p.evaluate(CROWD, 12)
            assert full["tight"] or full["hidden"], full
            if not full["hidden"]:
                assert await p.locator(".k-prizes .k-about-what").first.is_hidden()
            await fits(p, f"klepka-full-{width}", ".klepka-tv", ".k-status, .k-players, .k-prizes, .k-words, .kp-box")
        for c in conns:
            await c.close()
