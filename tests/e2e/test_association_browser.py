"""Association in a real browser: the TV creates a room, three phones join through the join URL,
and a whole turn is played with real taps (tell, submit, vote, reveal, next); then a turn in
Ukrainian and one in Russian for the screenshots (tests/e2e/screenshots/association-*.png)."""
import asyncio

import pytest

from tests.e2e.browser import TV, chromium, e2e_server, join_phones, new_room, page, until
from tests.e2e.browser import shot as plain_shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


async def shot(p, name):
    """A screenshot once every card picture on the page has loaded."""
    await until(p,
        "() => [...document.querySelectorAll('.as-face img')].every(i => i.complete)", timeout=5000)
    await plain_shot(p, name)


async def storyteller(phones):
    for _ in range(100):
        for i, p in enumerate(phones):
            if await p.locator(".as-p-tell").count():
                return p, [q for j, q in enumerate(phones) if j != i]
        await asyncio.sleep(0.1)
    raise AssertionError("no phone shows the tell form")


async def play_turn(tv, phones, lang, clue, aloud=False):
    teller, others = await storyteller(phones)
    await tv.locator(".as-tell").wait_for()
    assert await teller.locator(".as-p-tell").is_disabled()       # no card chosen yet
    await shot(tv, f"association-tv-tell-{lang}")
    await shot(teller, f"association-phone-tell-{lang}")
    # a waiting player looks closer at a card of their hand (tap = zoom when nothing to do)
    await others[0].locator(".as-p-card").nth(1).tap()
    await others[0].locator(".as-zoom:not([hidden]) .as-zoom-card").wait_for()
    await asyncio.sleep(0.5)
    await shot(others[0], f"association-phone-zoom-{lang}")
    await others[0].locator(".as-zoom .btn.ghost").tap()
    await shot(others[0], f"association-phone-wait-tell-{lang}")

    # tell: pick the second card (swipe target), type the clue or say it aloud
    await teller.locator(".as-p-card.can").nth(1).tap()
    await teller.locator(".as-p-card.sel").wait_for()
    if aloud:
        await teller.locator(".as-p-aloud").tap()
    else:
        await teller.fill(".as-p-input", clue)
        await shot(teller, f"association-phone-tell-filled-{lang}")
        await teller.locator(".as-p-tell").tap()
    if aloud:
        await tv.locator(".as-clue-text.spoken").wait_for()
    else:
        await tv.locator(".as-clue-text", has_text=clue).wait_for()
    await tv.locator(".as-slot.down").first.wait_for()
    await shot(tv, f"association-tv-submit-{lang}")

    # submit: each other player puts a card down
    await others[0].locator(".as-p-card.can").first.wait_for()
    await others[0].locator(".as-p-card.can").first.tap()
    await shot(others[0], f"association-phone-submit-{lang}")
    await others[0].locator(".as-p-go").tap()
    await tv.locator(".as-slot.down").nth(1).wait_for()
    await tv.locator(".as-prog-p.done").first.wait_for()
    await asyncio.sleep(0.6)
    await shot(tv, f"association-tv-submitted-{lang}")
    await others[0].locator(".as-p-mine").wait_for()
    await shot(others[0], f"association-phone-submitted-{lang}")
    await shot(teller, f"association-phone-teller-wait-{lang}")
    await others[1].locator(".as-p-card.can").nth(2).tap()
    await others[1].locator(".as-p-go").tap()

    # vote: three numbered cards face up; each voter is offered the two that are not theirs
    await tv.locator(".as-slot.up").nth(2).wait_for()
    assert await tv.locator(".as-slot.up").count() == 3
    for p in others:
        await p.locator(".as-p-card.numbered").nth(2).wait_for()
        assert await p.locator(".as-p-card.can").count() == 2
        assert await p.locator(".as-p-card.own").count() == 1
    assert await teller.locator(".as-p-card.can").count() == 0
    await asyncio.sleep(1.2)
    await shot(tv, f"association-tv-vote-{lang}")
    await others[0].locator(".as-p-card.can").first.tap()
    await shot(others[0], f"association-phone-vote-{lang}")
    await others[0].locator(".as-p-go").tap()
    await others[0].locator(".as-p-card.voted").wait_for()
    await shot(others[0], f"association-phone-voted-{lang}")
    await tv.locator(".as-prog-p.done").first.wait_for()
    await shot(tv, f"association-tv-voting-{lang}")
    await others[1].locator(".as-p-card.can").last.tap()
    await others[1].locator(".as-p-go").tap()

    # the reveal: chips fly, owners and the story card show, the points pop in
    await tv.locator(".as-table.revealing").wait_for()
    await asyncio.sleep(0.75)
    await plain_shot(tv, f"association-tv-reveal-fly-{lang}")
    await tv.locator(".as-table.revealing .owned").wait_for(timeout=8000)
    await tv.locator(".as-gain.show").first.wait_for(timeout=8000)
    await asyncio.sleep(0.5)
    await shot(tv, f"association-tv-reveal-{lang}")
    for p, who in ((teller, "teller"), (others[0], "voter")):
        await p.locator(".as-p-next").wait_for()
        await shot(p, f"association-phone-reveal-{who}-{lang}")
    await others[1].locator(".as-p-next").tap()
    await tv.locator(".as-tell").wait_for()
    return teller, others


async def test_one_whole_turn_with_the_tv_and_three_phones(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, TV, errors)
            phones = []
            try:
                await whole_game(server, tv, phones, browser, errors)
            except BaseException:
                for i, p in enumerate([tv] + phones):
                    await plain_shot(p, f"association-failed-{i}")
                print("page errors:", errors)
                raise
    finally:
        server.kill()


async def whole_game(server, tv, phones, browser, errors):
    _, join_url = await new_room(browser, server.base, errors, tv=tv)
    await join_phones(browser, join_url, ["Ann", "Богдан", "Zoë"], errors, tv=tv, into=phones)
    await tv.locator(".game-card", has_text="Association").click()
    await tv.locator("button.start").click()
    await tv.locator(".as-tv").wait_for()
    for p in phones:
        await p.locator(".as-phone").wait_for()
        assert await p.locator(".as-p-card").count() == 6      # a hand of six pictures
    await tv.locator(".as-credits", has_text="OpenMoji").wait_for()

    await play_turn(tv, phones, "en", "a long way home")
    # points: the TV scoreboard agrees with the scores in the view
    view = await tv.evaluate("window.partyhub.view")
    for pl in view["game"]["players"]:
        pill = tv.locator(f'.as-pill[data-seat="{pl["id"]}"] .as-pill-n')
        assert await pill.inner_text() == str(pl["score"])
    assert view["game"]["turn"] == 2 and view["game"]["last"]["case"] in ("all", "none", "some")

    for lang, clue, aloud in (("uk", "довга дорога додому", False), ("ru", "", True)):
        await tv.evaluate(f"window.partyhub.act({{type: 'settings', language: '{lang}'}})")
        await until(tv, f"document.documentElement.lang === '{lang}'")
        for p in phones:            # each player picks it on their phone (a phone keeps its own)
            await p.evaluate(f"window.partyhub.act({{type: 'language', language: '{lang}'}})")
            await until(p, f"document.documentElement.lang === '{lang}'")
        await play_turn(tv, phones, lang, clue, aloud=aloud)
    assert not errors, errors
