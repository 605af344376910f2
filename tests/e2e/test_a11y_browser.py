"""axe-core on the shell's screens in en/uk/ru: home, join, the TV's and the phones' lobby (VIP
and not), the test game's generic screen, the pause overlay, the results (TV and phone). Fails on serious or critical
violations (tests/e2e/axe.py). Screenshots: tests/e2e/screenshots/a11y-*.png."""
import re

import pytest

from tests.e2e.axe import axe_check, axe_page
from tests.e2e.browser import PHONE, chromium, e2e_server, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HD = {"width": 1920, "height": 1080}
# the shell is held to more than the games: moderate problems (no h1, no main landmark) fail too
IMPACTS = ("moderate", "serious", "critical")


async def join(browser, base, code, name):
    p = await axe_page(browser, PHONE)
    await p.goto(f"{base}/j/{code}")
    await p.locator("#name").wait_for()
    return p


async def seated(p, name):
    await p.fill("#name", name)
    await p.locator(".join-bottom button[type=submit]").click()
    await p.locator(".lobby-phone").wait_for()


def phase(room, game=None):
    return (f"() => {{ const v = window.partyhub && window.partyhub.view; return !!v && v.room.phase === '{room}'"
            + (f" && !!v.room.paused === {str(game).lower()}" if game is not None else "") + "; }")


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_axe_finds_nothing_serious_on_the_shell_screens(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    try:
        async with chromium(chromium_path) as browser:
            tv = await axe_page(browser, HD)
            await tv.goto(f"{server.base}/?lang={lang}")
            await tv.locator("#new-room").wait_for()
            found = {f"home {lang}": await axe_check(tv, fail=False, impacts=IMPACTS)}
            await tv.locator("#new-room").click()
            await tv.wait_for_url(re.compile(r"/tv/[A-Z]{4}"))
            await tv.locator(".lobby-tv").wait_for()
            code = tv.url.rsplit("/", 1)[1]
            vip = await join(browser, server.base, code, "Ann")
            found[f"join {lang}"] = await axe_check(vip, fail=False, impacts=IMPACTS)
            await shot(vip, f"a11y-join-{lang}")
            await seated(vip, "Ann")
            bo = await join(browser, server.base, code, "Bo")
            await seated(bo, "Bo")
            await tv.locator(".players .pname", has_text="Bo").wait_for()
            found[f"tv lobby {lang}"] = await axe_check(tv, fail=False, impacts=IMPACTS)
            found[f"vip lobby {lang}"] = await axe_check(vip, fail=False, impacts=IMPACTS)
            found[f"phone lobby {lang}"] = await axe_check(bo, fail=False, impacts=IMPACTS)
            await shot(tv, f"a11y-lobby-tv-{lang}")
            await shot(vip, f"a11y-lobby-vip-{lang}")
            await shot(bo, f"a11y-lobby-phone-{lang}")

            await vip.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {target: 3}})")
            await until(tv, phase("playing", False))
            await until(vip, "() => window.partyhub.view.actions.some((a) => a.type === 'pause')")
            await vip.evaluate("() => window.partyhub.act(window.partyhub.view.actions.find((a) => a.type === 'pause'))")
            for p in (tv, vip, bo):
                await until(p, phase("playing", True))
            await tv.locator(".overlay:not([hidden])").wait_for()
            found[f"tv pause {lang}"] = await axe_check(tv, fail=False, impacts=IMPACTS)
            found[f"vip pause {lang}"] = await axe_check(vip, fail=False, impacts=IMPACTS)
            found[f"phone pause {lang}"] = await axe_check(bo, fail=False, impacts=IMPACTS)
            await shot(tv, f"a11y-pause-tv-{lang}")
            await shot(bo, f"a11y-pause-phone-{lang}")
            await vip.evaluate("() => window.partyhub.act(window.partyhub.view.actions.find((a) => a.type === 'resume'))")
            await until(vip, phase("playing", False))
            await until(vip, "() => window.partyhub.view.actions.some((a) => a.type === 'add')")
            await bo.locator(".generic").wait_for()
            found[f"tv game {lang}"] = await axe_check(tv, fail=False, impacts=IMPACTS)
            found[f"phone game {lang}"] = await axe_check(bo, fail=False, impacts=IMPACTS)
            await vip.evaluate("() => window.partyhub.act({type: 'add', n: 3})")
            for p in (tv, vip, bo):
                await until(p, phase("over"))
            await tv.locator(".podium").wait_for()
            found[f"tv results {lang}"] = await axe_check(tv, fail=False, impacts=IMPACTS)
            found[f"vip results {lang}"] = await axe_check(vip, fail=False, impacts=IMPACTS)
            found[f"phone results {lang}"] = await axe_check(bo, fail=False, impacts=IMPACTS)
            await shot(tv, f"a11y-results-tv-{lang}")
            await shot(vip, f"a11y-results-vip-{lang}")
            bad = {k: v for k, v in found.items() if v}
            assert not bad, "\n".join(f"== {k}\n" + "\n".join(v) for k, v in bad.items())
    finally:
        server.kill()
