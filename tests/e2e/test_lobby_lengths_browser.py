"""Issue 27, items 8 and 9, in the lobby: each game's tile says how long a game takes (the
game's own `minutes`, in the TV's and the phone's language), and a timer option shows the
seconds that will actually run (the room's x2/x4 applied; "no timer" when the room's timers
are off), moves in steps of 5 s and offers presets. The 320 px VIP lobby with the options
open never scrolls sideways. Klepka's tile says it needs Ukrainian words in a room of another
language (item 10). Screenshots: tests/e2e/screenshots/lobby-lengths-*.png."""
import pytest

from tests.e2e.browser import PHONE, TV, chromium, e2e_server, join_phones, new_room, page, shot, until
from tests.liveserver import http

pytestmark = [pytest.mark.browser, pytest.mark.slow]
FULL_HD = {"width": 1920, "height": 1080}
NARROW = {"width": 320, "height": 700}
MINUTES = {"en": "≈ {n} min", "uk": "≈ {n} хв", "ru": "≈ {n} мин"}
SECONDS = {"en": "{n} s", "uk": "{n} с", "ru": "{n} с"}
NO_TIMER = {"en": "no timer", "uk": "без таймера", "ru": "без таймера"}
SHOWN = """([name]) => {
  const el = document.querySelector(`.options output[data-opt="${name}"]`);
  return el ? el.textContent : null;
}"""
WIDE = """() => {
  const w = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= w) return [];
  return [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 0.5)
    .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 12);
}"""


async def tiles(p) -> dict:
    return await p.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.game-card')]
      .map((c) => [c.dataset.game, (c.querySelector('.gtime') || {}).textContent || null]))""")


async def shows(p, name, want):
    await until(p, f"() => ({SHOWN})([{name!r}]) === {want!r}")


def minutes_of(base) -> dict:
    games = http("GET", f"{base}/api/games")[1]
    games = games.get("games", games) if isinstance(games, dict) else games
    return {g["id"]: g["minutes"] for g in games if g["id"] != "count"}   # the test game has none


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_each_tile_says_how_long_a_game_takes_in_the_rooms_language(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, FULL_HD, errors)
            tv, join_url = await new_room(browser, server.base, errors, lang=lang, tv=tv)
            (vip,) = await join_phones(browser, join_url, ["Ann"], errors, tv=tv)
            want = {g: MINUTES[lang].format(n=n) for g, n in minutes_of(server.base).items()}
            assert set(want) == {"association", "jinx", "klepka", "sketch"}
            assert all(15 <= int("".join(ch for ch in w if ch.isdigit())) <= 30 for w in want.values())
            for p in (tv, vip):
                await until(p, "() => document.querySelectorAll('.game-card .gtime').length === 4")
                assert {g: m for g, m in (await tiles(p)).items() if g != "count"} == want
            # klepka's tile says it needs Ukrainian words, in a room of another language only
            note = {"en": "Needs Ukrainian words", "ru": "Нужны украинские слова"}.get(lang)
            for p in (tv, vip):
                words = await p.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.game-card')]
                  .map((c) => [c.dataset.game, (c.querySelector('.gwords') || {}).textContent || null]))""")
                assert {g: w for g, w in words.items() if w} == ({"klepka": note} if note else {})
            # the figure fits its tile on the TV: nothing cut off
            cut = await tv.evaluate("""() => [...document.querySelectorAll('.game-card .gtime')]
              .filter((e) => e.scrollWidth > e.clientWidth + 1).length""")
            assert cut == 0
            await shot(tv, f"lobby-lengths-tv-{lang}")
            await shot(vip, f"lobby-lengths-vip-{lang}")
            assert not errors, errors
    finally:
        server.kill()


async def test_timer_options_show_the_seconds_that_run_step_by_5_and_offer_presets(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, FULL_HD, errors)
            tv, join_url = await new_room(browser, server.base, errors, tv=tv)
            vip, _, _ = await join_phones(browser, join_url, ["Ann", "Bob", "Oleh"], errors, tv=tv)
            await vip.set_viewport_size(NARROW)      # the first to join is the VIP
            await vip.locator(".game-card[data-game=association]").click()
            await tv.locator(".game-card[data-game=association][aria-checked=true]").wait_for()
            for p in (tv, vip):
                await p.locator(".opts-toggle").click()
            # the defaults: 30 points, and the timers a story needs
            for p in (tv, vip):
                await shows(p, "tell_seconds", "90 s")
                await shows(p, "reveal_seconds", "20 s")
            # a step is 5 s
            await vip.locator('.opt.stepper:has([data-opt="reveal_seconds"]) .stepbtn').last.click()
            for p in (tv, vip):
                await shows(p, "reveal_seconds", "25 s")
            # a preset sets the length at once
            await tv.locator('.opt.stepper:has([data-opt="reveal_seconds"]) .preset[data-preset="10"]').click()
            for p in (tv, vip):
                await shows(p, "reveal_seconds", "10 s")
                await until(p, """() => document.querySelector(
                  '.opt.stepper:has([data-opt="reveal_seconds"]) .preset[data-preset="10"]').ariaPressed === 'true'""")
            # the room's timers x2: the seconds shown are the ones that will run, and it says so
            await tv.evaluate("() => window.partyhub.act({type: 'settings', timers: 'extended'})")
            for p in (tv, vip):
                await shows(p, "tell_seconds", "180 s")
                await shows(p, "reveal_seconds", "20 s")
                await p.locator(".timers-note").wait_for()
            await shot(tv, "lobby-lengths-options-tv-x2")
            await shot(vip, "lobby-lengths-options-vip-320-x2")
            assert await vip.evaluate(WIDE) == []
            # the room's timers off (host-paced): no timer runs, and the options say so
            await tv.evaluate("() => window.partyhub.act({type: 'settings', timers: 'none'})")
            for p in (tv, vip):
                await shows(p, "tell_seconds", "no timer")
                await shows(p, "reveal_seconds", "no timer")
                # nothing to step or pick: no length applies
                assert await p.locator('.opt.stepper:has([data-opt="tell_seconds"]) button').count() == 0
            assert await vip.evaluate(WIDE) == []
            await shot(vip, "lobby-lengths-options-vip-320-none")
            await tv.evaluate("() => window.partyhub.act({type: 'settings', timers: 'normal'})")
            for p in (tv, vip):
                await shows(p, "tell_seconds", "90 s")
                await until(p, "() => !document.querySelector('.timers-note')")
            # the options stay with the game: another game picked and association picked again
            await vip.locator(".game-card[data-game=jinx]").click()
            await shows(vip, "next_turn_seconds", "8 s")
            await vip.locator(".game-card[data-game=association]").click()
            for p in (tv, vip):
                await shows(p, "reveal_seconds", "10 s")
            # ... and through a reload of the TV (the room keeps them, not the page)
            await tv.reload()
            await tv.locator(".game-card[data-game=association][aria-checked=true]").wait_for()
            await tv.locator(".opts-toggle").click()
            await shows(tv, "reveal_seconds", "10 s")
            # the 390 px phone and the 1280x720 TV with the options open
            await vip.set_viewport_size(PHONE)
            assert await vip.evaluate(WIDE) == []
            await shot(vip, "lobby-lengths-options-vip-390")
            await tv.set_viewport_size(TV)
            await tv.evaluate("() => window.dispatchEvent(new Event('resize'))")
            box = await tv.evaluate("() => { const r = document.querySelector('.opts-drawer').getBoundingClientRect(); return [r.top, r.bottom]; }")
            assert box[0] >= 0 and box[1] <= 720, box
            await shot(tv, "lobby-lengths-options-tv-720")
            assert not errors, errors
    finally:
        server.kill()
