"""A real association game on a live server with an audience phone (issue 22): three phones
play, a fourth presses "Watch" with a name and votes with a tap on the table's grid; its pick
is marked from its `mine`, the TV counts "1 in the audience voted", the reveal badges the
audience's pick, and the results name the audience favourite. Screenshots (390 and 320 px
phone, TV at 1920x1080): tests/e2e/screenshots/association-audience-live-*.png."""
import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, join_phones, new_room, page, settled, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]
FULL_HD = {"width": 1920, "height": 1080}

# the first game action a page is offered (a tell gets a clue), sent; true if one was
MOVE = """() => {
  const app = window.partyhub;
  const a = app.gameActions().find((x) => !x.type.startsWith('audience_'));
  if (!a) return false;
  app.act(a.type === 'tell' ? { ...a, clue: 'a long way home' } : a);
  return true;
}"""
# the same, but never `next` (the reveal stays until the test has read it: a phone pressing
# `next` between two looks of the TV's could end a one-point game unseen), and not once this
# phone's own view is in a phase of `want` (the argument): the TV's view can come after the
# phones' on a loaded machine, and phones that went on playing voted the vote away unseen (CI)
PLAY = MOVE.replace("() => {\n  const app = window.partyhub;",
                    "(want) => {\n  const app = window.partyhub;\n"
                    "  if (want.includes((app.view.game || {}).phase)) return 'there';").replace(
    "!x.type.startsWith('audience_')", "!x.type.startsWith('audience_') && x.type !== 'next'")


async def phase(p):
    return await p.evaluate("() => window.partyhub.view && window.partyhub.view.game && window.partyhub.view.game.phase")


async def play_until(tv, phones, want):
    """The phones play until the room is in a phase of `want`, and the TV shows it."""
    for _ in range(100):            # 30 s: a busy machine answers slowly
        if await phase(tv) in want:
            return
        for p in phones:
            if await p.evaluate(PLAY, list(want)) == "there":
                await until(tv, "(want) => want.includes((window.partyhub.view.game || {}).phase)", list(want))
                return
        await tv.wait_for_timeout(300)
    seen = [await p.evaluate("() => [window.partyhub.view.game.phase, window.partyhub.gameActions()]")
            for p in phones]
    raise AssertionError(f"the game never reached {want}: TV {await phase(tv)}, phones {seen}")


async def test_an_audience_phone_votes_in_a_real_game(tmp_path, chromium_path):
    srv = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv = await page(browser, FULL_HD, errors)
            tv, join_url = await new_room(browser, srv.base, errors, tv=tv)
            phones = await join_phones(browser, join_url, ["Ann", "Bob", "Cat"], errors, tv=tv)
            fan = await page(browser, PHONE, errors, "en")
            await fan.goto(join_url)
            await fan.fill("#name", "Zoe")
            await fan.locator(".join-bottom button.watch").click()
            await until(fan, "() => window.partyhub.view && window.partyhub.you.role === 'audience'")
            # no timers (association's default has them since issue 27): the test moves the table itself
            await tv.evaluate("window.partyhub.act({type: 'start', game: 'association', options: {target_score: 1,"
                              " tell_seconds: 0, submit_seconds: 0, vote_seconds: 0, reveal_seconds: 0}})")
            await until(tv, "() => window.partyhub.view.game && window.partyhub.view.game.phase === 'tell'")
            await play_until(tv, phones, ("vote",))

            # the audience phone: the table as a grid; a tap votes, `mine` marks it
            await fan.locator(".as-p-strip.aud .as-p-pick").first.wait_for()
            await until(fan, "() => getComputedStyle(document.querySelector('.as-p-strip')).display === 'grid'"
                        " && [...document.querySelectorAll('.as-p-strip img')].every((i) => i.complete)")
            await settled(fan)
            await shot(fan, "association-audience-live-phone390-vote")
            await fan.locator(".as-p-strip.aud .as-p-pick").nth(1).click()
            await until(fan, "() => window.partyhub.audience.mine && window.partyhub.audience.mine.votes.card")
            picked = await fan.evaluate("() => window.partyhub.audience.mine.votes.card")
            assert await fan.locator(".as-p-card.voted").get_attribute("data-card") == picked
            await settled(fan)
            await shot(fan, "association-audience-live-phone390-voted")
            await fan.set_viewport_size({"width": 320, "height": 640})
            await fan.wait_for_timeout(200)
            await shot(fan, "association-audience-live-phone320-voted")
            wide = await fan.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= 320, wide
            await fan.set_viewport_size(PHONE)
            # the TV counts the audience's votes, never per card
            await until(tv, "() => { const e = document.querySelector('.as-crowd'); return e && !e.hidden && e.textContent.includes('1'); }")
            await shot(tv, "association-audience-live-tv-vote")

            # the players vote: the reveal badges the audience's pick
            await play_until(tv, phones, ("reveal",))
            await tv.locator(".as-cards.owned .as-crowd-badge").wait_for(timeout=15_000)
            badge = await tv.locator(".as-crowd-badge").evaluate("(e) => e.closest('.as-slot').dataset.card")
            assert badge == picked
            await until(tv, "() => { const e = document.querySelector('.as-crowd'); return e && !e.hidden; }")
            await settled(tv)
            await shot(tv, "association-audience-live-tv-reveal")
            await settled(fan)
            await shot(fan, "association-audience-live-phone390-reveal")

            # next turn: the target is reached, the results name the favourite
            await phones[0].evaluate(MOVE)
            await tv.locator(".as-award").wait_for(timeout=15_000)
            fav, owner = await tv.evaluate("(c) => { const v = window.partyhub.view; return ["
                                           "v.room.results.audience.favourite, "
                                           "v.game.last.cards.find((x) => x.card === c).owner]; }", picked)
            assert fav == [owner], (fav, owner)
            await settled(tv)
            await shot(tv, "association-audience-live-tv-results")
            await fan.locator(".as-award").wait_for(timeout=15_000)
            await shot(fan, "association-audience-live-phone390-results")
    finally:
        srv.kill()
    assert not errors, errors
