"""Safari's engine at the table: a WebKitGTK phone (tests/e2e/webkit.py) in each game.

For each game the phone joins through the real join page, makes one real move (a tap, a typed
word, a stroke on the canvas) that the TV shows (a Chromium TV page), and is reloaded mid-game
back to the same seat: same player id, same hand or board, same score. The other players are
protocol clients. Screenshots: tests/e2e/screenshots/webkit-*.png.
"""
import asyncio
import json
from dataclasses import dataclass, field

import pytest

from tests.e2e.browser import PHONE, TV, chromium, e2e_server, new_room, until
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.webkit, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = e2e_server(tmp_path_factory.mktemp("webkit-e2e"))
    yield srv
    srv.kill()


@dataclass
class Table:
    tv: object                      # the TV: a Chromium page (None when WebKit is the TV)
    code: str
    host: str                       # the TV's host token
    me: str = ""                    # the WebKit phone's player id
    conns: list = field(default_factory=list)   # protocol players, in join order

    def conn(self, player_id):
        return next(c for c in self.conns if c.view["you"]["id"] == player_id)

    async def close(self):
        for c in self.conns:
            await c.close()


async def seat_by_api(server, t, name):
    status, seat = http("POST", f"{server.base}/api/rooms/{t.code}/join", {"name": name})
    assert status == 201, seat
    t.conns.append(await Conn(server.base, t.code, seat["token"]).open())


async def join_in_webkit(wk, join_url, name, tv, shots=None):
    """The WebKit phone opens the join link, types its name and joins; the TV lists it."""
    await wk.goto(join_url)
    await wk.type("#name", name)
    if shots:
        await wk.shot(f"join-{shots}")
        assert await wk.overflow() == []
    await wk.click(".join-bottom button[type=submit]")
    await wk.wait(".lobby-phone")
    await tv.locator(".players .pname", has_text=name).wait_for()
    return await wk.until("window.partyhub.you.id")


async def table(server, browser, wk, after=("Bob", "Cleo"), shots=None):
    """A Chromium TV opens a room; the WebKit phone joins through the join page (as Ann), then
    the players `after` by the API."""
    tv, join_url = await new_room(browser, server.base)
    code = join_url.rsplit("/", 1)[1]
    t = Table(tv, code, await tv.evaluate(f"localStorage.getItem('partyhub.host.{code}')"))
    t.me = await join_in_webkit(wk, join_url, "Ann", tv, shots)
    for name in after:
        await seat_by_api(server, t, name)
    return t


async def start(server, t, game, options=None):
    ctl = await Conn(server.base, t.code, t.host).open()
    await ctl.act({"type": "start", "game": game, "options": options or {}})
    await ctl.wait(lambda v: v["room"]["phase"] == "playing")
    await ctl.close()


async def seat_state(wk, key):
    """What a reload must keep: the player id, the game's private part `key`, the score."""
    return await wk.until(
        "(() => { const v = window.partyhub.view; if (!v || v.room.phase !== 'playing') return null;"
        " const me = v.room.players.find(p => p.id === v.you.id);"
        " return JSON.stringify([v.you, v.game[arguments[0]], me.score]); })()", key)


async def reload_back_to_the_seat(wk, key, screen):
    before = json.loads(await seat_state(wk, key))
    await wk.reload()
    await wk.wait(screen)
    after = json.loads(await seat_state(wk, key))
    if isinstance(before[1], dict):    # name the part that differs
        assert {k: v for k, v in after[1].items() if v != before[1].get(k)} == {}, before[1]
    assert after == before
    assert before[0]["role"] == "player" and before[1] is not None
    return after


async def test_join_page_and_lobby_at_320_and_390_px(server, chromium_path, webkit):
    async with chromium(chromium_path) as browser:
        for width in (320, 390):
            await webkit.resize({**PHONE, "width": width})
            t = await table(server, browser, webkit, after=(), shots=str(width))
            await webkit.wait(".lobby-phone .game-card")
            await webkit.shot(f"lobby-vip-{width}")
            assert await webkit.overflow() == []
            await seat_by_api(server, t, "Bob")
            await webkit.wait(".lobby-phone .pname", "Bob")
            await t.close()


async def test_the_tv_in_webkit_lobby_and_each_game(server, webkit):
    """A Mac or an iPad can be the TV too: its pages at 1280x720, without a sideways scroll."""
    await webkit.resize(TV)
    status, room = http("POST", server.base + "/api/rooms", {})
    assert status == 201, room
    t = Table(None, room["code"], room["host_token"])
    for name in ("Ann", "Богдан", "Zoë"):
        await seat_by_api(server, t, name)
    await webkit.goto(f"{server.base}/")
    await webkit.js("localStorage.setItem(arguments[0], arguments[1])", f"partyhub.host.{t.code}", t.host)
    await webkit.goto(f"{server.base}/tv/{t.code}")
    await webkit.wait(".lobby-tv .players .pname", "Zoë")
    await webkit.shot("tv-lobby")
    assert await webkit.overflow() == []
    ctl = await Conn(server.base, t.code, t.host).open()
    for game, screen in (("association", ".as-tv"), ("klepka", ".klepka-tv"), ("jinx", ".jx-tv"),
                         ("sketch", ".sk-tv-drawing")):
        await ctl.act({"type": "start", "game": game})
        await webkit.wait(screen)
        await webkit.shot(f"tv-{game}")
        assert await webkit.overflow() == [], game
        await ctl.act({"type": "end"})
        await ctl.wait(lambda v: v["room"]["phase"] != "playing")
    await ctl.close()
    await t.close()


async def test_association_a_clue_or_a_card_from_the_phone(server, chromium_path, webkit):
    async with chromium(chromium_path) as browser:
        t = await table(server, browser, webkit)       # Ann is the VIP: she starts it
        await webkit.click(".game-card", "Association")
        await webkit.click("button.start")
        await webkit.wait(".as-phone .as-p-card")
        assert await webkit.js("return document.querySelectorAll('.as-p-card').length") == 6
        teller = (await webkit.until("window.partyhub.view.game.storyteller"))
        if teller == t.me:           # the seats' order is the room's: Ann may or may not tell
            await webkit.shot("association-tell")
            await webkit.click(".as-p-card.can", index=1)
            await webkit.wait(".as-p-card.sel")
            await webkit.type(".as-p-input", "довга дорога")
            await webkit.click(".as-p-tell")
            await t.tv.locator(".as-clue-text", has_text="довга дорога").wait_for()
        else:
            told = t.conn(teller)
            await told.act({"type": "tell", "card": told.view["game"]["hand"][0], "clue": "moon"})
            await webkit.wait(".as-p-card.can")
            await webkit.shot("association-submit")
            await webkit.click(".as-p-card.can", index=1)
            await webkit.click(".as-p-go")
            await t.tv.locator(".as-slot.down").nth(1).wait_for()
            await until(t.tv, "(me) => window.partyhub.view.game.players.find(p => p.id === me).played", t.me)
        assert await webkit.overflow() == []
        await webkit.until("window.partyhub.view.game.mine")     # the phone's view has the move too
        _, hand, _ = await reload_back_to_the_seat(webkit, "hand", ".as-phone")
        assert len(hand) == 5                                    # the card given is on the table
        await webkit.shot("association-reloaded")
        await t.close()


async def test_klepka_a_card_flipped_on_the_mirror(server, chromium_path, webkit):
    async with chromium(chromium_path) as browser:
        t = await table(server, browser, webkit, after=("Bob",))
        await start(server, t, "klepka", {"table": "6x8", "reveal_seconds": 1})
        bob = t.conns[0]
        for _ in range(40):          # Bob plays until it is Ann's turn
            v = bob.view
            if v["game"]["turn"] == t.me and v["game"]["phase"] == "flips":
                break
            move = next((a for a in v["actions"] if a["type"] in ("flip", "words_done")), None)
            if move:
                await bob.act(move)
            await bob.wait(lambda nv, v=v: nv is not v)
        await webkit.wait(".k-mirror.active .km-cell.can")
        await webkit.shot("klepka-flip")
        assert await webkit.overflow() == []
        ref = await webkit.js("return document.querySelector('.km-cell.can').dataset.ref")
        await webkit.click(".km-cell.can")
        # the TV turns the card up (or takes it away: a prize goes to Ann's hand)
        await until(t.tv, "(ref) => { const el = document.querySelector(`.kc[data-ref='${ref}']`);"
                          " return el && (el.classList.contains('up') || el.classList.contains('gone')); }", ref)
        await webkit.until("!window.partyhub.view.game.table.some(c => c && c.ref === arguments[0] && c.down)", ref)
        await reload_back_to_the_seat(webkit, "mine", ".klepka-phone")
        await webkit.shot("klepka-reloaded")
        await t.close()


async def test_jinx_a_clue_or_a_finger_from_the_phone(server, chromium_path, webkit):
    async with chromium(chromium_path) as browser:
        t = await table(server, browser, webkit, after=("Bob", "Cleo"))
        await start(server, t, "jinx")
        await webkit.wait(".jx-phone .jx-p-cell .jx-card")
        active = await webkit.until("window.partyhub.view.game.active")
        if active == t.me:           # the first player is drawn at random
            await webkit.wait(".jx-p-cell.target")
            await webkit.shot("jinx-clue")
            await webkit.type(".jx-p-input", "місяць")
            await webkit.click(".jx-send")
            await t.tv.locator(".jx-clue-text", has_text="місяць").wait_for()
        else:
            giver = t.conn(active)
            wrong = next(s for s in range(9) if s != giver.view["game"]["target"])
            await giver.act({"type": "clue", "text": "moon"})
            await webkit.wait(".jx-p-cell.live")
            await webkit.shot("jinx-race")
            await webkit.click(f'.jx-p-cell[data-slot="{wrong}"]')
            await t.tv.locator(f'.jx-cell[data-slot="{wrong}"] .jx-finger').wait_for()
            await webkit.wait(".jx-p-title.bad")
        assert await webkit.overflow() == []
        out = await webkit.js("return JSON.stringify(window.partyhub.view.game.out)")
        await reload_back_to_the_seat(webkit, "won", ".jx-phone")
        assert await webkit.js("return JSON.stringify(window.partyhub.view.game.out)") == out
        await t.close()


CIRCLE = [(0.5 + 0.25 * x, 0.45 + 0.25 * y) for x, y in
          ((1, 0), (0.7, 0.7), (0, 1), (-0.7, 0.7), (-1, 0), (-0.7, -0.7), (0, -1), (0.7, -0.7), (1, 0))]
# Whether a canvas holds a drawing: some pixel differs from the first one.
PAINTED = ("(c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
           " for (let i = 4; i < d.length; i += 4) for (let k = 0; k < 4; k++)"
           " if (d[i + k] !== d[k]) return true; return false; })")


async def test_sketch_a_stroke_on_the_canvas_reaches_the_tv(server, chromium_path, webkit):
    async with chromium(chromium_path) as browser:
        t = await table(server, browser, webkit)
        await start(server, t, "sketch", {"round_seconds": 15})
        await webkit.click(".sk-word")
        await webkit.wait(".sk-canvas")
        assert (await webkit.js("return document.querySelector('.sk-canvas').getBoundingClientRect().width")) > 300
        await webkit.stroke(".sk-canvas", CIRCLE)
        await webkit.shot("sketch-drawing")
        assert await webkit.overflow() == []
        # strokes are stored without the room lock; Bob choosing his words (locked writes) takes
        # them into the state, and the next view shows Ann's stroke
        bob = t.conns[0]
        for board in range(6):
            await bob.act(next(a for a in bob.view["actions"] if a["type"] == "draw" and a["board"] == board))
            try:
                await webkit.until("window.partyhub.view.game.you.boards[0].strokes.length === 1", timeout=1)
                break
            except TimeoutError:
                continue
        _, you, _ = await reload_back_to_the_seat(webkit, "you", ".sk-canvas")
        assert len(you["boards"][0]["strokes"]) == 1 and len(you["boards"][0]["strokes"][0]["p"]) >= 2 * 8
        await webkit.until(f"{PAINTED}(document.querySelector('.sk-canvas'))")   # redrawn
        # the guessing round: the TV shows Ann's drawing
        await t.tv.locator(".sk-tv-guessing").wait_for(timeout=30000)
        await t.tv.locator(f'.sk-pgroup[data-player="{t.me}"] .sk-tcanvas').first.wait_for()
        await until(t.tv, f"(me) => {PAINTED}(document.querySelector(`.sk-pgroup[data-player='${{me}}'] .sk-tcanvas`))", t.me)
        await webkit.wait(".sk-gboards")
        await webkit.shot("sketch-guessing")
        assert await webkit.overflow() == []
        await t.close()
