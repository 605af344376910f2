"""Cross-Origin-Opener-Policy only where browsers honour it: on secure requests.

Over plain HTTP on a LAN address Chromium ignores COOP and logs "The Cross-Origin-Opener-Policy
header has been ignored" on every page; over HTTPS (directly, or X-Forwarded-Proto from a
trusted proxy, TRUST_PROXY) it is sent. A client's own X-Forwarded-Proto is not believed
without TRUST_PROXY. The browser test opens the pages by a name (not localhost, which Chromium
trusts) and finds no such console line.
"""
import re

import pytest

from tests.e2e.browser import FLAGS, PHONE, TV
from tests.liveserver import Daphne, free_port

COOP = "Cross-Origin-Opener-Policy"
PAGES = ["/", "/tv/ABCD", "/j/ABCD", "/admin/login/", "/static/common/app.js"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", PAGES)
def test_plain_http_gets_no_coop_and_https_gets_it(client, settings, path):
    settings.SECURE_PROXY_SSL_HEADER = None
    assert COOP not in client.get(path).headers
    assert client.get(path, secure=True).headers[COOP] == "same-origin"
    # a client's own X-Forwarded-Proto is not believed without a trusted proxy
    assert COOP not in client.get(path, HTTP_X_FORWARDED_PROTO="https").headers


@pytest.mark.django_db(transaction=True)
def test_behind_a_trusted_proxy_its_https_gets_coop(client, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")     # TRUST_PROXY=1
    assert client.get("/", HTTP_X_FORWARDED_PROTO="https").headers[COOP] == "same-origin"
    assert COOP not in client.get("/", HTTP_X_FORWARDED_PROTO="http").headers
    assert COOP not in client.get("/").headers


@pytest.mark.browser
@pytest.mark.slow
async def test_chromium_logs_no_ignored_coop_over_plain_http(tmp_path, chromium_path):
    from playwright.async_api import async_playwright
    port = free_port()
    name = f"http://party.lan:{port}"       # a name: Chromium trusts localhost and 127.0.0.1
    server = Daphne(tmp_path, {"PUBLIC_URL": name}, port=port).migrate().start()
    lines = []
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium_path, headless=True,
                                               args=FLAGS + ["--host-resolver-rules=MAP party.lan 127.0.0.1"])
            try:
                tv = await (await browser.new_context(viewport=TV)).new_page()
                tv.on("console", lambda m: lines.append((m.type, f"{m.text} {m.location.get('url', '')}")))
                tv.on("response", lambda r: r.status >= 400 and lines.append(("status", f"{r.status} {r.url}")))
                await tv.goto(f"{name}/?lang=en")
                assert await tv.evaluate("() => window.isSecureContext") is False   # really untrusted
                await tv.locator("#new-room").click()
                await tv.wait_for_url(re.compile(r"/tv/[A-Z]{4}"))
                await tv.locator(".lobby-tv").wait_for()
                phone = await (await browser.new_context(viewport=PHONE, is_mobile=True)).new_page()
                phone.on("console", lambda m: lines.append((m.type, f"{m.text} {m.location.get('url', '')}")))
                phone.on("response", lambda r: r.status >= 400 and lines.append(("status", f"{r.status} {r.url}")))
                await phone.goto(f"{name}/j/{tv.url.rsplit('/', 1)[1]}")
                await phone.locator("#name").wait_for()
                await tv.goto(f"{name}/admin/login/")
                await tv.locator("#id_username").wait_for()
            finally:
                await browser.close()
    finally:
        server.kill()
    assert not [text for kind, text in lines if COOP in text], lines
    # no other error either (the admin's page has no icon link: Chromium asks for /favicon.ico)
    assert not [text for kind, text in lines if kind in ("error", "status")
                and "/favicon.ico" not in text], lines
