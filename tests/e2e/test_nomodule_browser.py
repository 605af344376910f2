"""A browser without ES modules (an old smart TV) is told so, in the page's language, instead
of staying on "Loading…": every page carries a `nomodule` script (a file: the CSP allows no
inline script) and the message's text, translated by the server.

Chromium runs modules, so the browser test plays the old browser: it serves the page with its
module scripts taken out and the `nomodule` attribute dropped, which is what such a browser
does (skip type=module, run nomodule)."""
import re

import pytest

from tests.e2e.browser import TV, chromium, e2e_server

MESSAGES = {
    "en": "This browser is too old for partyhub.",
    "uk": "Цей браузер застарий для partyhub.",
    "ru": "Этот браузер слишком старый для partyhub.",
}
PAGES = ["/", "/tv/ABCD", "/j/ABCD"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", MESSAGES)
@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_the_nomodule_script_and_its_message_in_the_pages_language(client, path, lang):
    html = client.get(f"{path}?lang={lang}").content.decode()
    assert re.search(r'<script nomodule src="/static/common/nomodule\.js"></script>', html)
    assert re.search(r'<script type="module" src="[^"]+"></script>', html)
    message = re.search(r'data-nomodule="([^"]*)"', html).group(1)
    assert message.startswith(MESSAGES[lang]), message


def old_browser(html: str) -> str:
    """What a browser without modules runs: no type=module script, the nomodule one."""
    html = re.sub(r'<script type="module"[^>]*></script>', "", html)
    return html.replace("<script nomodule ", "<script ")


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("lang", MESSAGES)
async def test_a_browser_without_modules_shows_the_message_not_loading(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            p = await (await browser.new_context(viewport=TV)).new_page()
            p.on("pageerror", lambda e: errors.append(str(e)))
            p.on("console", lambda m: m.type == "error" and errors.append(m.text))

            async def serve_old(route):
                r = await route.fetch()
                await route.fulfill(response=r, body=old_browser(await r.text()))

            for path in ("/tv/ABCD", "/j/ABCD", "/"):
                await p.route(f"{server.base}{path}?lang={lang}", serve_old)
                await p.goto(f"{server.base}{path}?lang={lang}")
                alert = p.locator(".nomodule[role=alert]")
                await alert.wait_for()
                assert (await alert.inner_text()).startswith(MESSAGES[lang])
                assert await p.locator(".boot").count() == 0           # no "Loading…" left
                assert await p.locator(".nomodule").is_visible()
            assert not errors, errors
    finally:
        server.kill()
