"""The first visit speaks the browser's language: with no ?lang= (the choice a page stores and
sends back), the home page, and the pages of a room that is not there, follow Accept-Language
(en, uk, ru; the first one the browser ranks highest). The browser test does it with a locale,
and shows that a stored choice wins over the locale."""
import pytest

pytestmark = pytest.mark.django_db(transaction=True)

NEW_ROOM = {"en": "New room", "uk": "Нова кімната", "ru": "Новая комната"}


def lang_of(response):
    html = response.content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("header, lang", [
    ("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7", "uk"),
    ("ru-RU,ru;q=0.9", "ru"),
    ("ru", "ru"),
    ("en-GB,en;q=0.9", "en"),
    ("de-DE,de;q=0.9,ru;q=0.5,en;q=0.3", "ru"),      # the first of ours the browser ranks
    ("en;q=0.2,uk;q=0.8", "uk"),
    ("de-DE,fr;q=0.5", "en"),                        # none of ours: English
    ("", "en"),
    ("*", "en"),
])
def test_the_home_page_speaks_the_accept_language(client, header, lang):
    r = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert r.status_code == 200 and lang_of(r) == lang
    assert NEW_ROOM[lang] in r.content.decode()
    assert "Accept-Language" in r.headers.get("Vary", "")


def test_a_chosen_language_wins_over_the_accept_language(client):
    r = client.get("/?lang=en", HTTP_ACCEPT_LANGUAGE="uk-UA,uk;q=0.9")
    assert lang_of(r) == "en"
    assert lang_of(client.get("/?lang=xx", HTTP_ACCEPT_LANGUAGE="ru")) == "en"


def test_the_tv_speaks_the_rooms_language_and_a_phone_its_browsers(client):
    from tests.rooms.helpers import make_room
    code = make_room(language="ru")[0]
    assert lang_of(client.get(f"/j/{code}", HTTP_ACCEPT_LANGUAGE="uk")) == "uk"
    assert lang_of(client.get(f"/j/{code}")) == "en"
    assert lang_of(client.get(f"/tv/{code}", HTTP_ACCEPT_LANGUAGE="en")) == "ru"
    assert lang_of(client.get("/j/QQQQ", HTTP_ACCEPT_LANGUAGE="uk")) == "uk"


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("locale, lang", [("uk-UA", "uk"), ("ru-RU", "ru"), ("en-US", "en")])
async def test_a_browser_first_sees_its_own_locale_then_its_stored_choice(tmp_path, chromium_path, locale, lang):
    from tests.e2e.browser import TV, chromium, e2e_server
    server = e2e_server(tmp_path)
    try:
        async with chromium(chromium_path) as browser:
            p = await (await browser.new_context(viewport=TV, locale=locale)).new_page()
            await p.goto(f"{server.base}/")
            assert await p.evaluate("() => document.documentElement.lang") == lang
            assert (await p.locator("#new-room").inner_text()).strip() == NEW_ROOM[lang]
            other = "en" if lang != "en" else "uk"
            await p.locator(f'.langs a[data-lang="{other}"]').click()      # the visitor chooses
            await p.wait_for_url(f"**/?lang={other}")
            await p.goto(f"{server.base}/")                                  # and comes back later
            await p.wait_for_url(f"**/?lang={other}")
            assert (await p.locator("#new-room").inner_text()).strip() == NEW_ROOM[other]
    finally:
        server.kill()
