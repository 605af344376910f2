"""The pages work under the Content-Security-Policy: a real browser opens each of them and
plays into a game, and neither the console nor a securitypolicyviolation event reports a
refusal (Chromium logs each refusal as a console error, which `page` collects)."""
import re

import pytest

from tests.e2e.browser import PHONE, TV, chromium, e2e_server, join_phones, new_room, page, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""
POLICY_WORDS = ("Content Security Policy", "Content-Security-Policy", "Permissions-Policy",
                "Permissions policy")


async def watched(browser, viewport, errors):
    p = await page(browser, viewport, errors)
    await p.add_init_script(WATCH)      # injected through the debugger: not subject to CSP
    p.on("console", lambda m: errors.append(m.text)
         if m.type != "error" and any(w in m.text for w in POLICY_WORDS) else None)
    return p


async def test_every_page_runs_under_the_policy_without_a_violation(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            home = await watched(browser, TV, errors)
            await home.goto(f"{server.base}/?lang=uk")
            await home.locator("#new-room").wait_for()
            tv, join_url = await new_room(browser, server.base, errors,
                                          tv=await watched(browser, TV, errors))
            await tv.locator(".code").wait_for()
            await until(tv, "() => [...document.images].some((i) => i.src.startsWith('blob:') && i.complete)")
            vip = await watched(browser, PHONE, errors)
            await vip.goto(join_url)
            await vip.fill("#name", "Ann")
            await vip.locator(".join-bottom button[type=submit]").click()
            await vip.locator(".lobby-phone").wait_for()
            await join_phones(browser, join_url, ["Bob", "Cat"], errors, tv=tv)
            await vip.locator(".game-card", has_text=re.compile("Jinx", re.I)).click()
            await vip.locator("button.start").click()
            await tv.locator(".lobby-tv").wait_for(state="detached")
            await until(tv, "[...document.images].filter((i) => i.complete && i.naturalWidth).length >= 9")
            admin = await watched(browser, TV, errors)
            await admin.goto(f"{server.base}/admin/login/")
            await admin.locator("#id_username").wait_for()
            for p in (home, tv, vip, admin):
                assert await p.evaluate("window.__violations") == [], p.url
            assert not errors, errors
    finally:
        server.kill()
