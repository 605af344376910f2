"""A real browser: a game of association dealt with an uploaded deck shows its pictures on the
phones, the TV and an anonymous audience phone, each through the room's pass
(/r/<code>/cards/<card>.webp?p=..., partyhub/decks/deckpass.py); the deck's id alone opens
nothing. Screenshots: tests/e2e/screenshots/deck-pictures-*.png."""
import io
import urllib.error
import urllib.request

import pytest
from PIL import Image

from tests.e2e.browser import PHONE, chromium, e2e_server, join_phones, new_room, page, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOADED = """(code) => {
  const imgs = [...document.querySelectorAll('.as-face img')];
  return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0
    && new URL(i.src).pathname.startsWith(`/r/${code}/cards/`) && new URL(i.src).searchParams.get('p'))
    && imgs.length;
}"""


def status(url) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def pictures(n):
    out = []
    for i in range(n):
        buf = io.BytesIO()
        Image.new("RGB", (60, 90), ((37 * i) % 256, 90 + 7 * i, 200 - 5 * i)).save(buf, "PNG")
        out.append({"name": f"card{i}.png", "mimeType": "image/png", "buffer": buf.getvalue()})
    return out


async def upload_deck(tv, name, n):
    """The host uploads a deck of `n` pictures from the TV's open settings drawer; its id."""
    await tv.locator(".deck-new input[type=text]").fill(name)
    await tv.locator(".deck-new input[type=file]").set_input_files(pictures(n))
    await tv.locator(".deck-new button").click()
    # ready, or the drawer's refusal said (a CI run once waited 30 s for "ready" in silence);
    # the pictures are decoded by a worker process, slow on a loaded machine
    got = await until(tv, """(name) => { const box = document.querySelector('.deck-new');
        const alert = box && box.querySelector('[role=alert]');
        if (alert) return 'refused: ' + alert.textContent;
        return box && box.textContent.includes(`“${name}” is ready`) && 'ready'; }""", name, timeout=90_000)
    assert got == "ready", got
    return await until(tv, """(name) => { const g = (window.partyhub.view.room.games || [])
        .find((g) => g.id === 'association'); const l = g && g.options.deck.labels || {};
        return Object.keys(l).find((k) => l[k] === name); }""", name)


async def act_first(p, kind, extra="{}"):
    """The page's first legal action of `kind`, sent as its own move."""
    await until(p, f"() => (window.partyhub.view.actions || []).some((a) => a.type === '{kind}')")
    await p.evaluate(f"""() => {{ const a = window.partyhub.view.actions.find((a) => a.type === '{kind}');
        window.partyhub.act({{...a, ...{extra}}}); }}""")


async def test_the_phones_the_tv_and_the_audience_see_an_uploaded_decks_pictures(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rsplit("/", 1)[1]
            await tv.locator(".gear").click()
            deck = await upload_deck(tv, "Ours", 24)
            await tv.locator(".settings-drawer .drawer-head button").click()
            phones = await join_phones(browser, join_url, ["Ann", "Bob", "Cid"], errors, tv=tv)
            zoe = await page(browser, PHONE, errors, "en")     # the anonymous audience
            await zoe.goto(join_url)
            await zoe.fill("#name", "Zoe")
            await zoe.locator(".join-bottom button.watch").click()
            await zoe.locator(".lobby-phone").wait_for()

            await tv.evaluate(f"window.partyhub.act({{type: 'start', game: 'association', options: {{deck: '{deck}'}}}})")
            for p in phones:      # every hand: the deck's pictures, by the room's address
                assert await until(p, LOADED, code) >= 6
            teller = None
            for p in phones:
                if await p.evaluate("() => window.partyhub.view.actions.some((a) => a.type === 'tell')"):
                    teller = p
            await act_first(teller, "tell", "{clue: 'colours'}")
            for p in phones:
                if p is not teller:
                    await act_first(p, "submit")
            # the cards on the table, face up: the TV and the audience see them too
            assert await until(tv, LOADED, code) >= 3
            assert await until(zoe, LOADED, code) >= 3
            await shot(tv, "deck-pictures-tv-vote")
            await shot(zoe, "deck-pictures-audience-vote")
            src = await zoe.evaluate("() => document.querySelector('.as-face img').src")
            card = src.rsplit("/", 1)[1].split(".webp")[0]
            assert card.startswith(deck)
            # the deck's id (in every frame) opens nothing by itself, nor the room without its pass
            assert status(src) == 200
            assert status(f"{server.base}/decks/{deck}/{card}.webp") == 404
            assert status(f"{server.base}/r/{code}/cards/{card}.webp") == 404
            assert not errors, errors
    finally:
        server.kill()
