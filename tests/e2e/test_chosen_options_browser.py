"""One set of options: the TV and the VIP's phone show the same chosen game and options as
either changes them (room state, `choose`), and English words can be chosen in a Ukrainian
room (the picker once dropped values equal to the default, and the room language won)."""
import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOWN = """([name]) => {
  const el = document.querySelector(`.options [data-opt="${name}"]`);
  return el ? (el.tagName === 'SELECT' ? el.value : el.textContent) : null;
}"""


async def shown(p, name):
    return await p.evaluate(SHOWN, [name])


async def same(tv, phone, name, want):
    for p in (tv, phone):
        await until(p, f"() => ({SHOWN})([{name!r}]) === {want!r}")


async def test_tv_and_vip_phone_show_the_same_options_as_either_changes(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang="uk")
            phones = await join_phones(browser, join_url, ["Ann", "Богдан", "Oleh"], errors, tv=tv)
            vip = phones[0]
            await vip.locator(".game-card[data-game=sketch]").click()
            await tv.locator(".game-card[data-game=sketch][aria-checked=true]").wait_for()
            for p in (tv, vip):
                await p.locator(".opts-toggle").click()
            # nobody chose a language: both show the room's (Ukrainian)
            await same(tv, vip, "language", "uk")
            # the labels are the game's own strings (games/sketch/i18n), in the room's language
            for p in (tv, vip):
                await until(p, """() => [...document.querySelectorAll('.options .olabel')]
                  .map((el) => el.textContent).join('|').includes('Час раунду|')""")
                assert await p.evaluate("""() => [...document.querySelectorAll(
                  '.options select[data-opt="language"] option')].map((o) => o.textContent)""") == [
                    "Англійська", "Українська", "Російська"]
            # the VIP chooses English words: the TV shows it too
            await vip.locator('select[data-opt="language"]').select_option("en")
            await same(tv, vip, "language", "en")
            # the TV lengthens the round: the phone shows it too
            before = await shown(vip, "round_seconds")
            await tv.locator('.opt.stepper:has([data-opt="round_seconds"]) .stepbtn').last.click()
            await until(vip, f"() => ({SHOWN})(['round_seconds']) !== {before!r}")
            assert await shown(tv, "round_seconds") == await shown(vip, "round_seconds")
            # the VIP lowers it again, the TV follows
            await vip.locator('.opt.stepper:has([data-opt="round_seconds"]) .stepbtn').first.click()
            await same(tv, vip, "round_seconds", before)
            # relaxed timers (x4): the lengths show the seconds that will run, on both (issue 27)
            chosen = int(before.split()[0])
            await tv.evaluate("() => window.partyhub.act({type: 'settings', timers: 'relaxed'})")
            await same(tv, vip, "round_seconds", f"{chosen * 4} с")
            await shot(tv, "chosen-options-tv-uk")
            await shot(vip, "chosen-options-vip-uk")
            # Start deals the chosen set: English words in a Ukrainian room
            await vip.locator("button.start").click()
            await tv.locator(".lobby-tv").wait_for(state="detached")
            assert not errors, errors
    finally:
        server.kill()
