"""A real browser: the audience's front door (issue 22). "Watch" with a typed name buys an
audience pass that a reload keeps (the same voter); a stale or forged pass asks again with its
name typed in; "Watch" with no name still watches anonymously; a locked room offers "Play along
in the audience" with the name typed; the TV's drawer turns the audience's votes off and on, and
the lobbies say which. Screenshots at 390 and 320 px of the join form, the audience's lobby and
game bar, and of the TV's drawer (tests/e2e/screenshots/audience-*.png)."""
import json

import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, new_room, page, shot, until
from tests.e2e.axe import axe_check
from tests.e2e.test_announce_browser import RECORD
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NARROW = {"width": 320, "height": 640}
PASS_KEY = "partyhub.audience.{code}"


async def both_widths(p, name):
    """Screenshots at 390 and at 320 px, and nothing wider than the screen at 320."""
    await shot(p, f"{name}-390")
    await p.set_viewport_size(NARROW)
    await p.wait_for_timeout(150)
    await shot(p, f"{name}-320")
    wide = await p.evaluate("() => document.documentElement.scrollWidth")
    await p.set_viewport_size(PHONE)
    assert wide <= NARROW["width"], f"{name}: {wide} px wide at 320"


async def stored_pass(p, code):
    return json.loads(await p.evaluate("(k) => localStorage.getItem(k) || 'null'", PASS_KEY.format(code=code)))


async def audience_lobby(p):
    await p.locator(".lobby-phone").wait_for()
    await until(p, "() => window.partyhub.view && window.partyhub.you.role === 'audience'")


async def test_watch_with_a_name_keeps_its_pass_and_a_forged_one_asks_again(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rsplit("/j/", 1)[1]

            # no name typed: the anonymous audience, as before (no pass is kept)
            anon = await page(browser, PHONE, errors, "en")
            await anon.goto(join_url)
            await anon.locator("#name").wait_for()
            await both_widths(anon, "audience-join")
            await anon.locator(".join-bottom button.watch").click()
            await audience_lobby(anon)
            assert await anon.locator(".lobby-phone .me-name").inner_text() == "You are watching"
            assert await stored_pass(anon, code) is None

            # a name typed: an audience pass, kept for the room; a reload is the same voter
            zoe = await page(browser, PHONE, errors, "en")
            await zoe.goto(join_url)
            await zoe.fill("#name", "Zoe")
            await zoe.locator(".join-bottom button.watch").click()
            await audience_lobby(zoe)
            first = await stored_pass(zoe, code)
            assert first and first["name"] == "Zoe" and first["audience_id"].startswith("a"), first
            assert await zoe.locator(".lobby-phone .me-name").inner_text() == "Zoe"
            await zoe.locator(".lobby-phone .aud-hint", has_text="vote along").wait_for()
            await both_widths(zoe, "audience-lobby")
            posts = []
            zoe.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
            await zoe.reload()
            await audience_lobby(zoe)
            assert await stored_pass(zoe, code) == first and not posts, posts
            assert await zoe.evaluate("() => window.partyhub.audienceName") == "Zoe"

            # a forged pass: the socket is refused, the form asks again with the name typed in
            max_ = await page(browser, PHONE, errors, "en")
            await max_.goto(join_url)
            await max_.locator("#name").wait_for()
            await max_.evaluate("([k, v]) => localStorage.setItem(k, v)",
                                [PASS_KEY.format(code=code), json.dumps({"token": "forged.pass", "name": "Max"})])
            await max_.reload()
            await until(max_, "() => document.querySelector('#name') && document.querySelector('#name').value === 'Max'")
            assert await stored_pass(max_, code) is None
            await max_.locator(".join-bottom button.watch").click()
            await audience_lobby(max_)
            assert (await stored_pass(max_, code))["name"] == "Max"
            assert not errors, errors
    finally:
        server.kill()


async def test_a_locked_room_offers_the_audience_and_the_tv_turns_its_votes_off(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            code = join_url.rsplit("/j/", 1)[1]
            await tv.locator(".players-head .aud-play.on", has_text="Audience plays along").wait_for()
            await tv.evaluate("() => window.partyhub.act({type: 'lock'})")
            await until(tv, "() => window.partyhub.view.room.locked")

            liz = await page(browser, PHONE, errors, "en")
            await liz.goto(join_url)
            await liz.fill("#name", "Liz")
            await liz.locator(".join-bottom button[type=submit]").click()
            along = liz.locator("button.along-offer")
            await along.wait_for()
            assert "locked" in await liz.locator(".form-error").inner_text()
            await both_widths(liz, "audience-along-offer")
            await axe_check(liz, "join form, play along offered")
            await along.click()
            await audience_lobby(liz)
            assert (await stored_pass(liz, code))["name"] == "Liz"

            # the TV's drawer: "Audience plays along" off, and the lobbies say so
            await tv.locator(".gear").click()
            switch = tv.locator(".settings-drawer [data-set=audience] input")
            await switch.wait_for()
            assert await switch.is_checked()
            await shot(tv, "audience-tv-drawer-on")
            await axe_check(tv, "tv settings drawer", selector=".settings-drawer")
            await switch.click()
            await until(tv, "() => window.partyhub.view.room.audience_play === false")
            assert not await switch.is_checked()
            await shot(tv, "audience-tv-drawer-off")
            await tv.locator(".gear").click()
            await tv.locator(".players-head .aud-play.off", has_text="Audience only watches").wait_for()
            await shot(tv, "audience-tv-lobby-off")
            await liz.locator(".lobby-phone .aud-hint", has_text="just watch").wait_for()
            await tv.evaluate("() => window.partyhub.act({type: 'settings', audience: true})")
            await liz.locator(".lobby-phone .aud-hint", has_text="vote along").wait_for()

            # a game runs (the test game: the audience predicts each turn's amount): Liz votes
            # along from her pass, the live region says so once, the TV counts her. The one
            # player holds still over the protocol, so the turn Liz votes on stays (a bot's
            # turn of 0.3-1.5 s once ended before a loaded machine drew her vote)
            await liz.evaluate(RECORD)
            await tv.evaluate("() => window.partyhub.act({type: 'unlock'})")
            await until(tv, "() => !window.partyhub.view.room.locked")
            status, seat = http("POST", f"{server.base}/api/rooms/{code}/join", {"name": "Pat"})
            assert status == 201, seat
            pat = await Conn(server.base, code, seat["token"]).open()
            await until(tv, "() => window.partyhub.view.room.players.length === 1")
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {target: 100, turn_seconds: 0}})")
            bar = liz.locator(".audience-bar.voting .aud-state")
            await bar.wait_for()
            assert await bar.inner_text() == "In the audience — vote along!"
            assert await liz.locator(".gamebar .gb-name").inner_text() == "Liz"
            await both_widths(liz, "audience-bar-real")
            await liz.locator(".gen-actions button", has_text="Predict: 2").click()
            await liz.locator(".gen-actions button.mine[aria-pressed=true]", has_text="Predict: 2").wait_for()
            await until(liz, "() => window.__said.some((s) => s.includes('Your vote is in.'))")
            await tv.locator(".gen-audience", has_text="1 in the audience voted").wait_for()
            await shot(tv, "audience-tv-tally")
            said = await liz.evaluate("() => window.__said")
            assert sum("Your vote is in." in x for x in said) == 1, said
            # the host turns the audience off mid-game: no votes offered, "Watching"
            await tv.evaluate("() => window.partyhub.act({type: 'settings', audience: false})")
            await liz.locator(".audience-bar:not(.voting) .aud-state", has_text="Watching").wait_for()
            assert await liz.locator(".gen-actions button", has_text="Predict").count() == 0
            await both_widths(liz, "audience-bar-watching")
            await pat.close()
            assert not errors, errors
    finally:
        server.kill()


# --- the shell's audience parts against frames the server will send (h-aud-core): the page's
# socket is relayed through Playwright, which adds audience actions to the phone's views and
# answers its audience actions itself (a `mine`, or a refusal), and gives the TV tallies.

VOTES = [{"type": "audience_vote", "card": "c1"}, {"type": "audience_vote", "card": "c2"},
         {"type": "audience_vote", "card": "c3"}]


def relay(ws, edit_in, edit_out):
    """The page's socket through to the server; edit_in/out return the frame to pass on (or None)."""
    server = ws.connect_to_server()

    def from_server(m):
        out = edit_in(m)
        if out is not None:
            ws.send(out)

    def from_page(m):
        out = edit_out(m)
        if out is not None:
            server.send(out)

    server.on_message(from_server)
    ws.on_message(from_page)


async def test_the_shell_offers_audience_votes_marks_yours_and_says_it_once(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    ballot = {"open": True}
    try:
        async with chromium(chromium_path) as browser:
            tv_sockets = []
            tv = await page(browser, {"width": 1280, "height": 720}, errors)
            await tv.route_web_socket("**/ws/rooms/**", lambda ws: (tv_sockets.append(ws), relay(ws, lambda m: m, lambda m: m)))
            tv, join_url = await new_room(browser, server.base, errors, tv=tv)
            ann = await page(browser, PHONE, errors, "en")
            await ann.goto(join_url)
            await ann.fill("#name", "Ann")
            await ann.locator(".join-bottom button[type=submit]").click()
            await ann.locator(".lobby-phone").wait_for()

            phone = await page(browser, PHONE, errors, "en")
            voter = {}

            def phone_in(m):
                f = json.loads(m)
                d = f.get("d") or {}
                if f.get("t") == "view" and d["room"]["phase"] == "playing":
                    d["room"]["audience_play"] = True
                    # the test game's own audience actions (predict) give way to VOTES
                    d["actions"] = [a for a in d["actions"] if a["type"] != "predict"]
                    if ballot["open"] and not d["room"].get("paused"):
                        d["actions"] = d["actions"] + VOTES
                    return json.dumps(f)
                return m

            def phone_out(m):
                f = json.loads(m)
                d = f.get("d") or {}
                if f.get("t") != "act" or not str(d.get("type", "")).startswith("audience_"):
                    return m
                if d.get("card") == "c3":     # the ballot closed meanwhile
                    voter["ws"].send(json.dumps({"t": "error", "d": {"code": "no_ballot", "message": "", "ref": f["id"]}}))
                else:
                    voter["ws"].send(json.dumps({"t": "mine", "d": {"ballot": "t1", "votes": {"card": d["card"]},
                                                                    "ref": f["id"], "reply": {}}}))
                return None

            await phone.route_web_socket("**/ws/rooms/**", lambda ws: (voter.update(ws=ws), relay(ws, phone_in, phone_out)))
            await phone.goto(join_url + "?watch")
            await phone.locator(".lobby-phone").wait_for()
            await phone.evaluate(RECORD)
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'count', options: {target: 100}})")

            bar = phone.locator(".audience-bar.voting .aud-state")
            await bar.wait_for()
            assert await bar.inner_text() == "In the audience — vote along!"
            vote = phone.locator(".gen-actions button", has_text="Vote: c1")
            assert await vote.get_attribute("aria-pressed") == "false"
            await both_widths(phone, "audience-bar-voting")
            await vote.click()
            await until(phone, "() => (window.__said || []).some((s) => s.includes('Your vote is in.'))")
            await phone.locator(".gen-actions button.mine[aria-pressed=true]", has_text="Vote: c1").wait_for()
            assert await phone.locator(".gen-audience").inner_text() == "Your vote: card: c1"
            # a view meanwhile (Ann's move) keeps the mark and says no "Done." for the vote
            await ann.evaluate("() => window.partyhub.act(window.partyhub.gameActions().find((a) => a.type === 'add'))")
            await until(phone, "() => window.partyhub.view.game.total > 0")
            await phone.wait_for_timeout(400)
            said = await phone.evaluate("() => window.__said")
            assert sum("Your vote is in." in s for s in said) == 1 and not any("Done." in s for s in said), said
            assert await phone.evaluate("() => window.partyhub.audience.mine.votes") == {"card": "c1"}
            await both_widths(phone, "audience-bar-voted")
            await axe_check(phone, "audience phone, a vote cast")
            # a refused vote: the error, read once
            await phone.locator(".gen-actions button", has_text="Vote: c3").click()
            await until(phone, "() => window.__said.some((s) => s.includes('Nothing to vote on right now.'))")

            # the TV: the highest seq of the ballot wins; the generic screen counts the voters
            for seq, n in ((3, 3), (2, 2)):
                tv_sockets[-1].send(json.dumps({"t": "tally", "d": {"ballot": "t1", "seq": seq, "voters": n, "summary": {}}}))
            await tv.locator(".gen-audience", has_text="3 in the audience voted").wait_for()
            assert await tv.evaluate("() => window.partyhub.audience.tally.seq") == 3

            # the ballot closes (no more audience actions): the phone forgets its vote, "Watching"
            ballot["open"] = False
            await ann.evaluate("() => window.partyhub.act(window.partyhub.gameActions().find((a) => a.type === 'add'))")
            await phone.locator(".audience-bar:not(.voting) .aud-state", has_text="Watching").wait_for()
            assert await phone.evaluate("() => window.partyhub.audience.mine") is None
            assert not errors, errors
    finally:
        server.kill()
