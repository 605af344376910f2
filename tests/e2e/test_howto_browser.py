"""How to play (issue 27) in Chromium.

- Every game's lobby tile says in one line what the game is, in the room's language, and its
  "?" opens the game's How to play on the TV: the title, what the game is, the turn in
  illustrated steps and the scoring, all in the room's language (the game's own strings), on
  one screen at 1920x1080 and at 1280x720 with nothing cut off; Escape and "Got it" close it,
  and the next game's start closes it too. The VIP's phone opens it as well, with no sideways
  scroll at 390 and 320 px.
- A phone's first turn of a game shows one line about what to do now, once: it goes when the
  phone does it, and a reload does not bring it back.
Screenshots of every screen go to tests/e2e/screenshots.
"""
import json
import re
from pathlib import Path

import pytest

from tests.e2e.axe import axe_check
from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, settled, shot, until
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GAMES = ("association", "jinx", "klepka", "sketch")
STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static"


def strings(folder, lang):
    text = (STATIC / folder / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"export default (\{.*\});", text, re.S).group(1))


# every element of the How to play whose text is cut (wider or taller than its box), or that
# sticks out of the dialog
CUT = """() => { const box = document.querySelector('.howto-box').getBoundingClientRect();
  return [...document.querySelectorAll('.howto-box h2, .howto-box h3, .howto-box p, .howto-art, .howto-close')].filter((el) => {
    const r = el.getBoundingClientRect();
    return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
      || r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1;
  }).map((el) => el.className || el.tagName + ':' + el.textContent.slice(0, 40)); }"""


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_each_tile_says_what_the_game_is_and_opens_how_to_play(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    common = strings("common", lang)
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang=lang)
            phones = await join_phones(browser, join_url, ["Ann", "Bob", "Cleo"], errors, tv=tv)
            sizes = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]
            for size in sizes:
                await tv.set_viewport_size(size)
                await tv.locator('.game-card[data-game="sketch"] .gabout').wait_for()
                await settled(tv)
                await shot(tv, f"howto-lobby-tiles-{lang}-{size['width']}")
            for game in GAMES:
                pack = strings(f"games/{game}", lang)
                about = tv.locator(f'.game-card[data-game="{game}"] .gabout')
                assert (await about.inner_text()).strip() == pack[f"{game}.about"]
                name = common[f"game.{game}"]
                for size in sizes:
                    await tv.set_viewport_size(size)
                    await tv.locator(f'.howto-btn[data-howto="{game}"]').click()
                    box = tv.locator(f'.howto-box[data-game="{game}"]')
                    await box.wait_for()
                    await settled(tv)
                    await shot(tv, f"howto-tv-{game}-{lang}-{size['width']}")
                    assert await box.get_attribute("data-lang") == lang
                    assert (await box.locator("h2").inner_text()).strip() == common["howto.title"].replace("{game}", name)
                    assert (await box.locator(".howto-what").inner_text()).strip() == pack[f"{game}.how.what"]
                    steps = box.locator(".howto-step")
                    assert 3 <= await steps.count() <= 5
                    for i in range(await steps.count()):
                        step = steps.nth(i)
                        assert (await step.locator("h3").inner_text()).strip() == pack[f"{game}.how.s{i + 1}"]
                        assert await step.locator(".howto-art svg *").count() >= 3, f"{game} step {i + 1} has a picture"
                        art = await step.locator(".howto-art").bounding_box()
                        assert art["height"] >= size["height"] * 0.18, f"{game} step {i + 1}: a picture to see from the sofa"
                    assert (await box.locator(".howto-score p").inner_text()).strip() == pack[f"{game}.how.score"]
                    assert await tv.evaluate(CUT) == [], f"{game} {size}"
                    assert await box.evaluate("(el) => el.contains(document.activeElement)"), "the focus is in the dialog"
                    if game == "jinx" and size is sizes[1]:
                        await axe_check(tv, f"how to play {game} {lang}", impacts=("moderate", "serious", "critical"))
                    if size is sizes[0]:
                        await tv.keyboard.press("Escape")
                    else:
                        await box.locator(".howto-close").click()
                    await until(tv, "() => !document.querySelector('.howto')")
            # the VIP's phone opens it too, and it fits a narrow phone
            vip = phones[0]
            for width in (390, 320):
                await vip.set_viewport_size({"width": width, "height": 740})
                await vip.locator('.game-card[data-game="association"] .gabout').wait_for()
                await vip.locator(".picker-box .games").scroll_into_view_if_needed()
                await settled(vip)
                assert await vip.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
                await shot(vip, f"howto-phone-tiles-{lang}-{width}")
                await vip.locator('.howto-btn[data-howto="association"]').click()
                await vip.locator(".howto-box").wait_for()
                await settled(vip)
                assert await vip.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
                assert await vip.evaluate("() => document.querySelector('.howto-box').scrollWidth - document.querySelector('.howto-box').clientWidth") <= 0
                await shot(vip, f"howto-phone-association-{lang}-{width}")
                await vip.locator(".howto-close").click()
                await until(vip, "() => !document.querySelector('.howto')")
            # open on the TV, then the game starts: it goes
            await tv.locator('.howto-btn[data-howto="sketch"]').click()
            await tv.locator(".howto-box").wait_for()
            await vip.evaluate("() => window.partyhub.act({type: 'start', game: 'sketch', options: {}})")
            await until(tv, "() => window.partyhub.view.room.phase === 'playing' && !document.querySelector('.howto')")
            assert not errors, errors
    finally:
        server.kill()


COACH = "() => { const c = document.querySelector('.coach .coach-text'); return c ? c.textContent : null; }"


async def test_the_first_turn_coaches_each_phone_once(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    pack = strings("games/association", "en")
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            phones = await join_phones(browser, join_url, ["Ann", "Bob", "Cleo"], errors, tv=tv)
            code = tv.url.rsplit("/", 1)[1][:4]
            host = await tv.evaluate(f"localStorage.getItem('partyhub.host.{code}')")
            ctl = await Conn(server.base, code, host).open()
            await ctl.act({"type": "start", "game": "association", "options": {}})
            await ctl.wait(lambda v: (v["game"] or {}).get("phase") == "tell")
            teller_id = ctl.view["game"]["storyteller"]
            ids = [await p.evaluate("() => window.partyhub.view.you.id") for p in phones]
            teller = phones[ids.index(teller_id)]
            others = [p for p in phones if p is not teller]
            await until(teller, COACH)
            await axe_check(teller, "the first turn's line", impacts=("moderate", "serious", "critical"))
            assert (await teller.evaluate(COACH)).strip() == pack["association.coach.tell"]
            for p in others:        # nothing to do yet: no line
                assert await p.evaluate(COACH) is None
            await settled(teller)
            for width in (390, 320):
                await teller.set_viewport_size({"width": width, "height": 740})
                assert await teller.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
                await shot(teller, f"coach-phone-tell-{width}")
            # the storyteller tells: the line goes; the others now have their line
            await teller.evaluate("""() => { const app = window.partyhub;
                const a = app.gameActions().find((x) => x.type === 'tell'); app.act({...a, clue: 'moon'}); }""")
            await until(teller, f"() => !({COACH})()")
            for p in others:
                await until(p, COACH)
                assert (await p.evaluate(COACH)).strip() == pack["association.coach.submit"]
            await shot(others[0], "coach-phone-submit-390")
            # a reload does not bring it back (remembered on this phone), nor does the next step
            await others[0].reload()
            await others[0].locator(".game-root").wait_for()
            await until(others[0], "() => window.partyhub.view && window.partyhub.gameActions().some((a) => a.type === 'submit')")
            assert await others[0].evaluate(COACH) is None
            # ✕ hides it for good on the other phone
            await others[1].locator(".coach-x").click()
            assert await others[1].evaluate(COACH) is None
            for p in others:
                await p.evaluate("""() => { const app = window.partyhub;
                    app.act(app.gameActions().find((x) => x.type === 'submit')); }""")
            for p in others:
                await until(p, "() => window.partyhub.gameActions().some((a) => a.type === 'vote')")
                assert await p.evaluate(COACH) is None, "one line per phone and game"
            await ctl.close()
            assert not errors, errors
    finally:
        server.kill()
