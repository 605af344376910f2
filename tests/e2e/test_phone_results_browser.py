"""The results on a phone at 320 and 390 px (issue 27), with twelve players whose names are at
the seat's limit (32 characters, Latin and Cyrillic), tied places on and below the podium, in
English, Ukrainian and Russian (each phone in its player's own language); and jinx's and
klepka's own results parts (the cards each player won, the best words) for those players.

On every phone, at each width: no text cut or off the screen, no sideways scroll; a tied place
below the podium lists its players one under another (never run together); the points of a
place, on the podium or below it, stay on one line and clear of the names; a podium name
(and its "+N more") stays inside its step; a name below the podium breaks only between words. The count game (tests/testgame) deals the scores
exactly; screenshots tests/e2e/screenshots/phone-results-*.png.
"""
import pytest

from tests.e2e.axe import axe_check
from tests.e2e.browser import chromium, e2e_server, seat_page, settled, shot, until
from tests.e2e.geometry import CUT, OVERLAPS
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SMALL = {"width": 320, "height": 640}
MID = {"width": 390, "height": 844}
LANGS = ["en", "uk", "ru"]
# at the seat's limit (partyhub/rooms/seating.py: NAME_MAX), and short ones
NAMES = ["Maximiliana Bartholomew-Fitzroy", "Олександра-Вікторія Коваленко-Ш",
         "Konstantinos Papadopoulos-Jones", "Анастасія Шевченко-Запорізька",
         "Wolfgang Amadeus Mozart the 3rd", "Христофор Бонавентура Кирилюк",
         "Екатерина Александровна Соколова", "Bartholomew Montgomery-Smithers",
         "Олена", "Dave", "Zoë", "Богдан"]
assert max(map(len, NAMES)) == 32
# What each seat adds, turn by turn (seat order), to deal the final scores:
TABLES = {
    # 6 | 5 | 4 | a tied 4th of three long names (3) | a tied 5th (2) | a tied 6th of four (1)
    "places": [3, 3, 3, 3, 3, 3, 2, 2, 1, 1, 1, 1, 3, 2, 1],
    # two winners, three tied 2nd, seven tied 3rd ("+5 more")
    "podium": [3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1],
}

# The podium's names and "+N more" outside their step: [text, its box, the step's box].
OFF_STEP = """() => [...document.querySelectorAll('.step .pname, .step .pod-more')].map((el) => {
  const r = el.getBoundingClientRect(), s = el.closest('.step').getBoundingClientRect();
  return r.left < s.left - 1 || r.right > s.right + 1 ? [el.textContent, [r.left, r.right], [s.left, s.right]] : null;
}).filter(Boolean)"""
# Points on more than one line: [text, lines].
WRAPPED = """() => [...document.querySelectorAll('.results .pts')].map((el) => {
  const range = document.createRange(); range.selectNodeContents(el);
  const lines = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
  return lines.size > 1 ? [el.textContent, lines.size] : null;
}).filter(Boolean)"""
# The names of each place below the podium as [top, bottom] boxes, in order.
PLACES = """() => [...document.querySelectorAll('.rest li')].map((li) =>
  [...li.querySelectorAll('.rname')].map((el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }))"""
# Names broken inside a word: more lines than words (a hyphen parts words too).
BROKEN = """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
  const range = document.createRange(); range.selectNodeContents(el);
  const lines = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
  return lines.size > el.textContent.trim().split(/[\\s-]+/).length;
}).map((el) => el.textContent)"""
# Jinx's and klepka's results parts (their real modules, games/<id>/recap.js) drawn on this
# results screen with results of their games' shape for these twelve players: the cards each
# won (12 down to 1) and six best words.
GAME_PARTS = """async () => {
  const app = window.partyhub, v = app.view, ids = v.room.players.map((p) => p.id);
  const i18n = await import('/static/common/i18n.js');
  const [jinx, klepka] = await Promise.all([import('/static/games/jinx/recap.js'), import('/static/games/klepka/recap.js'),
    i18n.addPack('/static/games/jinx/i18n/'), i18n.addPack('/static/games/klepka/i18n/')]);
  const cards = Object.fromEntries(ids.map((id, k) => [id, Array.from({ length: 12 - k }, (_, j) => `f${String(k * 12 + j).padStart(3, '0')}`)]));
  const best_words = ['водограй', 'пароплав', 'гелікоптер', 'кіт', 'бегемотик', 'хмарочос']
    .map((word, k) => ({ seat: ids[k], word, points: 12 - k, double: k % 2 === 0 }));
  const boxes = [document.createElement('div'), document.createElement('div')];
  document.querySelector('.results').append(...boxes);
  jinx.results(boxes[0], { room: { ...v.room, results: { ...v.room.results, cards } }, game: {} }, app);
  klepka.results(boxes[1], { room: { ...v.room, results: { ...v.room.results, best_words } }, game: {} }, app);
}"""
SIDEWAYS = "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"


async def deal(base, browser, adds):
    """Twelve seats (the first three on browser phones in en, uk, ru) play the count game to the
    scores `adds` deal; returns the phones, on the results."""
    status, room = http("POST", f"{base}/api/rooms", {"language": "en"})
    assert status == 201, room
    code, seats = room["code"], []
    for i, name in enumerate(NAMES):
        status, seat = http("POST", f"{base}/api/rooms/{code}/join", {"name": name, "language": LANGS[i % 3]})
        assert status == 201, seat
        seats.append(seat)
    phones = [await seat_page(browser, base, code, s, SMALL) for s in seats[:3]]   # the first: the VIP
    conns = [await Conn(base, code, s["token"]).open() for s in seats[3:]]
    await phones[0].evaluate("(t) => window.partyhub.act({type: 'start', game: 'count', options: {target: t}})", sum(adds))
    for k, n in enumerate(adds):
        i = k % len(NAMES)
        if i < 3:
            await until(phones[i], "() => window.partyhub.gameActions().some((a) => a.type === 'add')")
            await phones[i].evaluate("(n) => window.partyhub.act({type: 'add', n})", n)
        else:
            await conns[i - 3].wait(lambda v: any(a["type"] == "add" for a in v["actions"]))
            await conns[i - 3].act({"type": "add", "n": n})
    for c in conns:
        await c.close()
    return phones


async def check_fits(p, size, where):
    """At the phone's width, a window as tall as the page (a phone scrolls down: what is below
    the fold is not off the screen)."""
    await p.set_viewport_size(size)
    await p.locator(".results .result-actions").wait_for()
    await settled(p)
    await p.set_viewport_size({"width": size["width"], "height": await p.evaluate("document.scrollingElement.scrollHeight")})
    await settled(p)
    await shot(p, f"phone-results-{where}")
    # (jinx's row of won cards scrolls sideways by design, with tiles for pictures here)
    problems = await p.evaluate(CUT, ".results *:not(.jx-recap-faces *)")
    problems += await p.evaluate(OVERLAPS, ".rest .place, .rest .rname, .rest .pts, .step .pname, .step .pod-more, .block .pts")
    assert not problems, f"{where}: " + "\n".join(problems)
    assert await p.evaluate(SIDEWAYS) <= 0, f"{where}: the page scrolls sideways"
    assert await p.evaluate(OFF_STEP) == [], where
    assert await p.evaluate(WRAPPED) == [], where
    assert await p.evaluate(BROKEN, ".rest .rname, .jx-recap-name, .kr-name") == [], where
    if size is SMALL:
        await axe_check(p, f"phone results {where}", experimental=True)


@pytest.mark.asyncio
@pytest.mark.parametrize("table", sorted(TABLES))
async def test_the_results_fit_a_phone_with_twelve_long_names_and_ties(tmp_path, chromium_path, table):
    server = e2e_server(tmp_path)
    async with chromium(chromium_path) as browser:
        phones = await deal(server.base, browser, TABLES[table])
        for p, lang in zip(phones, LANGS):
            await until(p, "(l) => window.partyhub.view.room.phase === 'over' && document.documentElement.lang === l", lang)
            for size in (SMALL, MID):
                await check_fits(p, size, f"{table}-{lang}-{size['width']}")
                places = await p.evaluate(PLACES)
                if table == "places" and size is MID:      # and the games' own parts, at each width
                    await p.evaluate(GAME_PARTS)
                    for width in (SMALL, MID):
                        await check_fits(p, width, f"games-{lang}-{width['width']}")
                if table == "places":
                    # 4th, 5th and 6th: 3, 2 and 4 players tied, each name under the one before
                    assert [len(x) for x in places] == [3, 2, 4], places
                    for names in places:
                        for (_, b1), (t2, _) in zip(names, names[1:]):
                            assert t2 >= b1 - 1, f"tied names run together: {names}"
                else:
                    assert places == [] and await p.locator(".pod-more").count() == 1
