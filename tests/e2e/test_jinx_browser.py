"""Jinx in a real browser: the TV creates a room, three phones join through the join URL, and a
whole turn is played with real taps (a wrong pick, a JINX! collision, the find); then two more
turns in Ukrainian and Russian for the screenshots (tests/e2e/screenshots/jinx-*.png)."""
import asyncio

import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, until
from tests.e2e.browser import shot as plain_shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


async def shot(p, name):
    """A screenshot once every card picture on the page has loaded."""
    await until(p,
        "() => [...document.querySelectorAll('.jx-face img')].every(i => i.complete)", timeout=5000)
    await plain_shot(p, name)


async def roles(phones):
    """(active phone, [guesser phones]) once the clue form is on one phone."""
    for _ in range(100):
        for i, p in enumerate(phones):
            if await p.locator(".jx-p-form").count():
                return p, [q for j, q in enumerate(phones) if j != i]
        await asyncio.sleep(0.1)
    raise AssertionError("no phone shows the clue form")


async def slot_of(p, selector):
    return int(await p.locator(selector).first.get_attribute("data-slot"))


async def play_turn(tv, phones, lang, clue, full=True):
    active, guessers = await roles(phones)
    target = await slot_of(active, ".jx-p-cell.target")
    wrong = next(s for s in range(9) if s != target)
    await active.locator(".jx-p-cell.target .jx-star").wait_for()
    await shot(active, f"jinx-phone-active-clue-{lang}")
    await shot(guessers[0], f"jinx-phone-waiting-{lang}")
    await shot(tv, f"jinx-tv-clue-{lang}")
    await active.fill(".jx-p-input", clue)
    await active.locator(".jx-send").click()
    await tv.locator(".jx-clue-text", has_text=clue).wait_for()
    await guessers[0].locator(".jx-p-cell.live").first.wait_for()
    await shot(guessers[0], f"jinx-phone-race-{lang}")
    if full:
        # both guessers tap the same wrong card at the same moment: one finger holds it, the
        # other gets the jinx refusal (JINX! on the TV in their colour, a shake on the phone)
        await asyncio.gather(*(g.locator(f'.jx-p-cell[data-slot="{wrong}"]').tap() for g in guessers))
    else:
        await guessers[0].locator(f'.jx-p-cell[data-slot="{wrong}"]').tap()
    await tv.locator(f'.jx-cell[data-slot="{wrong}"] .jx-finger').wait_for()
    out = [g for g in guessers if await g.locator(".jx-p-title.bad").count()]
    for _ in range(30):
        if out:
            break
        await asyncio.sleep(0.1)
        out = [g for g in guessers if await g.locator(".jx-p-title.bad").count()]
    assert len(out) == 1
    loser = next(g for g in guessers if g is not out[0])
    guessers = [out[0], loser]
    if full:
        jinxed = await tv.locator(".jx-burst").count() > 0
        if jinxed:
            await asyncio.sleep(0.25)
            await shot(tv, f"jinx-tv-jinx-{lang}")
            await shot(loser, f"jinx-phone-jinxed-{lang}")
        if await loser.locator(".jx-zoom:not([hidden])").count():   # its view came first: it zoomed
            await loser.locator(".jx-zoom").click()
        await shot(out[0], f"jinx-phone-out-{lang}")
        await shot(active, f"jinx-phone-active-race-{lang}")
    else:
        await shot(tv, f"jinx-tv-race-{lang}")
    # the find
    await guessers[1].locator(f'.jx-p-cell[data-slot="{target}"]').tap()
    await tv.locator(".jx-status.found").wait_for()
    await guessers[1].locator(".jx-p-title.good").wait_for()
    await plain_shot(guessers[1], f"jinx-phone-found-{lang}")
    await tv.locator(f'.jx-cell.target[data-slot="{target}"]').wait_for()
    await asyncio.sleep(0.6)
    await shot(tv, f"jinx-tv-reveal-{lang}")
    await asyncio.sleep(0.9)
    await plain_shot(tv, f"jinx-tv-fly-{lang}")
    return active, guessers


async def test_one_whole_turn_with_the_tv_and_three_phones(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            names = ["Ann", "Богдан", "Zoë"]
            phones = await join_phones(browser, join_url, names, errors, tv=tv)
            await tv.locator(".game-card", has_text="Jinx").click()
            await tv.locator("button.start").click()
            await tv.locator(".jx-tv").wait_for()
            for p in phones:
                await p.locator(".jx-phone").wait_for()
            # the cards are pictures of the association deck (no tile fallback)
            await until(tv,
                "() => [...document.querySelectorAll('.jx-cell img')].filter(i => i.complete && i.naturalWidth > 0).length === 9")
            assert await tv.locator(".jx-tile").count() == 0

            active, guessers = await play_turn(tv, phones, "en", "moon")
            # scoring: the finder took the target, the active player the wrongly picked card
            finder = names[phones.index(guessers[1])]
            giver = names[phones.index(active)]
            score = tv.locator(".jx-score", has_text=finder).locator(".jx-score-n")
            assert await score.inner_text() == "1"
            assert await tv.locator(".jx-score", has_text=giver).locator(".jx-score-n").inner_text() == "1"
            assert await tv.locator(".jx-score", has_text=names[phones.index(guessers[0])]).locator(
                ".jx-score-n").inner_text() == "0"

            # the next turns in Ukrainian and Russian (the room's language drives the TV; each
            # player picks it on their phone, which otherwise keeps its own)
            for lang, clue in (("uk", "місяць"), ("ru", "луна")):
                await tv.evaluate(f"window.partyhub.act({{type: 'settings', language: '{lang}'}})")
                for p in phones:
                    await p.evaluate(f"window.partyhub.act({{type: 'language', language: '{lang}'}})")
                    await until(p, f"document.documentElement.lang === '{lang}'")
                # the reveal lasts 8 s by default (issue 27): a busy machine needs more than 15 s
                await tv.locator(".jx-status.race, .jx-clue.waiting").first.wait_for(timeout=40_000)
                await until(tv, f"document.documentElement.lang === '{lang}'")
                await play_turn(tv, phones, lang, clue, full=lang == "uk")
            assert not errors, errors
    finally:
        server.kill()
