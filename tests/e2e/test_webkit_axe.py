"""axe-core in WebKitGTK, Safari's engine (issue 21): no serious or critical problem on the home
page, the TV's lobby and a phase of each game on the TV (1920x1080), the join page, the phone's
lobby, a phase of each game and the pause overlay on a phone (390 and 320 px). The other
players are protocol clients. A broken page fails, so the check is known to run.
Screenshots: tests/e2e/screenshots/webkit-axe-*.png."""
import pytest

from tests.e2e.axe import axe_check_webkit
from tests.e2e.browser import PHONE
from tests.e2e.test_webkit import Table, seat_by_api
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.webkit, pytest.mark.slow]

BIG_TV = {"width": 1920, "height": 1080}
SMALL = {"width": 320, "height": 640}
# game: (the TV's screen, the phone's screen, options that leave the phase in place)
GAMES = {
    "association": (".as-tv .as-progress", ".as-phone .as-p-card", {}),
    "jinx": (".jx-tv .jx-cell .jx-card", ".jx-phone .jx-p-cell .jx-card", {"first_player": "first_seat"}),
    "klepka": (".klepka-tv .kc", ".klepka-phone .k-mirror", {"table": "6x8"}),
    "sketch": (".sk-tv-drawing .sk-sandbox", ".sk-phone, .sk-words", {"round_seconds": 120}),
}
STRUCTURE = ("return {h1: [...document.querySelectorAll('h1')].filter((e) => e.checkVisibility()).length,"
             " main: document.querySelectorAll('main, [role=main]').length};")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from tests.e2e.browser import e2e_server
    srv = e2e_server(tmp_path_factory.mktemp("webkit-axe"))
    yield srv
    srv.kill()


async def check(wk, where):
    await wk.settle()
    await axe_check_webkit(wk, f"WebKit {where}")
    assert await wk.js(STRUCTURE) == {"h1": 1, "main": 1}, where
    await wk.shot(f"axe-{where.replace(' ', '-')}")


async def test_axe_runs_in_webkit_and_fails_a_broken_page(webkit):
    await webkit.goto("data:text/html,<!doctype html><html lang=en><title>t</title><main><h1>x</h1>"
                      "<div role=dialog>no name</div></main>")
    with pytest.raises(AssertionError, match=r"aria-dialog-name \[serious\]"):
        await axe_check_webkit(webkit, "a broken page")


async def test_the_tv_in_webkit(server, webkit):
    await webkit.resize(BIG_TV)
    await webkit.goto(f"{server.base}/?lang=uk")
    await webkit.wait("#new-room")
    await check(webkit, "home tv uk")
    status, room = http("POST", server.base + "/api/rooms", {})
    assert status == 201, room
    t = Table(None, room["code"], room["host_token"])
    for name in ("Ann", "Богдан", "Zoë"):
        await seat_by_api(server, t, name)
    await webkit.js("localStorage.setItem(arguments[0], arguments[1])", f"partyhub.host.{t.code}", t.host)
    await webkit.goto(f"{server.base}/tv/{t.code}")
    await webkit.wait(".lobby-tv .players .pname", "Zoë")
    await check(webkit, "lobby tv")
    ctl = await Conn(server.base, t.code, t.host).open()
    for game, (tv_screen, _, options) in GAMES.items():
        await ctl.act({"type": "start", "game": game, "options": options})
        await webkit.wait(tv_screen)
        await check(webkit, f"{game} tv")
        await ctl.act({"type": "end"})
        await ctl.wait(lambda v: v["room"]["phase"] == "lobby")
    await ctl.close()
    await t.close()


async def test_the_phone_in_webkit(server, webkit):
    status, room = http("POST", server.base + "/api/rooms", {})
    assert status == 201, room
    t = Table(None, room["code"], room["host_token"])
    await webkit.goto(f"{server.base}/j/{t.code}?lang=uk")
    await webkit.wait("#name")
    await check(webkit, "join phone390")
    await webkit.type("#name", "Ann")
    await webkit.click(".join-bottom button[type=submit]")
    await webkit.wait(".lobby-phone .game-card")
    for name in ("Bob", "Cleo"):
        await seat_by_api(server, t, name)
    await webkit.wait(".lobby-phone .pname", "Cleo")
    await check(webkit, "lobby phone390 vip")
    ctl = await Conn(server.base, t.code, t.host).open()
    for i, (game, (_, phone_screen, options)) in enumerate(GAMES.items()):
        size = SMALL if i % 2 else PHONE
        await webkit.resize(size)
        await ctl.act({"type": "start", "game": game, "options": options})
        await webkit.wait(phone_screen)
        await check(webkit, f"{game} phone{size['width']}")
        if i < 2:         # the pause overlay, at both sizes
            await ctl.act({"type": "pause"})
            await webkit.wait(".overlay:not([hidden]) .btn.danger")
            await check(webkit, f"{game} phone{size['width']} paused")
            box = await webkit.js("const r = document.querySelector('.overlay .btn.danger')"
                                  ".getBoundingClientRect(); return [r.width, r.height];")
            assert min(box) >= 44, box
            await ctl.act({"type": "resume"})
            await webkit.until("!window.partyhub.view.room.paused")
        await ctl.act({"type": "end"})
        await ctl.wait(lambda v: v["room"]["phase"] == "lobby")
    await ctl.close()
    await t.close()
