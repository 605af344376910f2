"""Each phone in its player's language, in a real browser (issue 22): a TV in Ukrainian, a phone
whose browser speaks English. The phone's controls speak English from the first screen, the TV
Ukrainian, the game's content (sketch's words) Ukrainian; the player switches the phone to
Russian and a reload keeps it. On every screen walked (join, lobby, each game, results) no
visible text is a raw string key."""
import json
import re

import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, new_room, page, settled, shot, until
from tests.frontend.test_i18n_complete import PACKS, pack
from tests.liveserver import http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CYRILLIC = re.compile(r"[а-яіїєґё]", re.I)


def key_pattern() -> re.Pattern:
    """A raw key on screen: <namespace>.<name> for any namespace the data files use."""
    spaces = {k.split(".", 1)[0] for folder in PACKS for k in pack(folder)["en"] if "." in k}
    return re.compile(r"\b(?:%s)\.[a-z_]+(?:\.[a-z_]+)*\b" % "|".join(sorted(spaces)))


RAW = key_pattern()


async def no_raw_keys(p, where):
    await settled(p)
    text = await p.evaluate("() => document.body.innerText")
    labels = await p.evaluate("""() => [...document.querySelectorAll('[aria-label], [placeholder], [title]')]
      .map((e) => [e.getAttribute('aria-label'), e.getAttribute('placeholder'), e.getAttribute('title')].join(' '))
      .join(' ')""")
    found = sorted(set(RAW.findall(text + " " + labels)))
    assert not found, f"{where}: raw keys on screen {found}"


async def lang_of(p):
    return await p.evaluate("() => document.documentElement.lang")


async def test_a_ukrainian_tv_and_an_english_phone(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang="uk")
            code = join_url.rsplit("/", 1)[1]
            phone = await page(browser, PHONE, errors, "en")
            await phone.goto(join_url)
            await phone.locator("#name").wait_for()
            assert await lang_of(phone) == "en"
            assert (await phone.locator(".join-bottom button[type=submit]").inner_text()).strip() == "Join"
            await no_raw_keys(phone, "join form")
            await shot(phone, "lang-join-phone-en")
            submit = phone.locator(".join-bottom button[type=submit]")
            await phone.locator(".join-head .lang-pick").select_option("uk")     # the join form's control
            await until(phone, "() => document.documentElement.lang === 'uk'")
            assert (await submit.inner_text()).strip() == "Приєднатися"
            await phone.locator(".join-head .lang-pick").select_option("en")
            await until(phone, "() => document.documentElement.lang === 'en'")
            assert (await submit.inner_text()).strip() == "Join"
            await phone.fill("#name", "Ann")
            await phone.locator(".join-bottom button[type=submit]").click()
            await phone.locator(".lobby-phone").wait_for()
            for name in ("Bohdan", "Olena"):          # seats with no Accept-Language: the room's
                assert http("POST", f"{server.base}/api/rooms/{code}/join", {"name": name})[0] == 201
            await until(tv, "() => window.partyhub.view && window.partyhub.view.room.players.length === 3")
            assert await lang_of(phone) == "en" and await lang_of(tv) == "uk"
            assert (await phone.locator(".room-code").inner_text()).strip() == f"Room {code}"
            assert CYRILLIC.search(await tv.locator(".lobby-tv").inner_text())
            assert await phone.evaluate("() => window.partyhub.view.you.language") == "en"
            await no_raw_keys(phone, "phone lobby")
            await no_raw_keys(tv, "TV lobby")
            await shot(phone, "lang-lobby-phone-en")
            await shot(tv, "lang-lobby-tv-uk")

            for game in ("association", "jinx", "klepka", "sketch"):
                await tv.evaluate("(g) => window.partyhub.act({type: 'start', game: g, options: null})", game)
                ready = """(g) => { const v = window.partyhub.view; const root = document.querySelector('.game-root');
                  return v && v.room.phase === 'playing' && v.room.game === g && root && root.children.length > 0
                    && !root.querySelector('.loading'); }"""
                await until(phone, ready, game)
                await until(tv, ready, game)
                await no_raw_keys(phone, f"{game} on the phone")
                await no_raw_keys(tv, f"{game} on the TV")
                await shot(phone, f"lang-{game}-phone-en")
                await shot(tv, f"lang-{game}-tv-uk")
                assert await lang_of(phone) == "en" and await lang_of(tv) == "uk"
                if game == "sketch":            # the words to draw are the room's, the buttons the phone's
                    words = await phone.evaluate("""() => window.partyhub.view.actions
                      .filter((a) => a.type === 'draw').map((a) => a.word)""")
                    assert words and all(CYRILLIC.search(w) for w in words), words
                    assert await phone.evaluate("() => window.partyhub.view.room.options.language") == "uk"
                    shown = await phone.locator(".game-root").inner_text()
                    assert any(w in shown for w in words), shown
                await tv.evaluate("() => window.partyhub.act({type: 'end'})")
                await until(phone, "() => window.partyhub.view.room.phase === 'lobby' && document.querySelector('.lobby-phone')")

            # a game played to its end (Ann adds 3 to reach 3 at once): the results screen
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {target: 3}})")
            await until(phone, "() => window.partyhub.view.room.phase === 'playing'")
            await until(phone, """() => { const v = window.partyhub.view; if (v.room.phase === 'over') return true;
              const a = window.partyhub.gameActions(v).filter((x) => x.n).sort((x, y) => y.n - x.n)[0];
              if (a) window.partyhub.act(a); return false; }""", every=0.3)
            await until(tv, "() => window.partyhub.view.room.phase === 'over'")
            await no_raw_keys(phone, "results on the phone")
            await no_raw_keys(tv, "results on the TV")
            await shot(phone, "lang-results-phone-en")
            await shot(tv, "lang-results-tv-uk")

            # the player switches the phone to Russian: the seat keeps it across a reload
            await tv.evaluate("() => window.partyhub.act({type: 'end'})")
            await phone.locator(".lobby-phone .lang-pick").wait_for()
            await phone.locator(".lobby-phone .lang-pick").select_option("ru")
            await until(phone, "() => document.documentElement.lang === 'ru' && window.partyhub.view.you.language === 'ru'")
            await until(phone, "() => document.querySelector('.room-code').textContent.startsWith('Комната')")
            await phone.reload()
            assert await lang_of(phone) == "ru"                 # the server renders the page in it
            await phone.locator(".lobby-phone").wait_for()
            assert (await phone.locator(".room-code").inner_text()).startswith("Комната")
            await no_raw_keys(phone, "phone lobby in Russian")
            await shot(phone, "lang-lobby-phone-ru")
            assert await lang_of(tv) == "uk"
            assert await tv.evaluate("() => window.partyhub.view.room.language") == "uk"
            assert CYRILLIC.search(await tv.locator(".lobby-tv").inner_text())
            assert not errors, json.dumps(errors, ensure_ascii=False)[:2000]
    finally:
        server.kill()
