"""Seats and people in a real browser (issue 27, items 11-13): the VIP whose phone is away
past the grace loses the crown and the TV says so (a toast in its live region); a stand-in's
turn is announced, and the returning phone says what it did; a late joiner is told where it
stands (in the audience, how to play along, dealt in at the next game, a free seat to ask
for), at 390 and 320 px."""
import re

import pytest

from tests.e2e.browser import PHONE, chromium, e2e_server, join_phones, new_room, page, seat_page, settled, shot, until
from tests.liveserver import Conn, http

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= innerWidth"
# nothing in the TV's game bar spills out of it or out of the screen
FITS_BAR = """() => { const bar = document.querySelector('.gamebar').getBoundingClientRect();
  return [...document.querySelectorAll('.gamebar *')].every((el) => { const r = el.getBoundingClientRect();
    return r.left >= 0 && r.right <= innerWidth && r.top >= bar.top - 1 && r.bottom <= bar.bottom + 1; }); }"""


async def fits_and_shot(phone, name):
    """At 390 and 320 px the phone has no sideways scroll; a screenshot of each."""
    for width in (390, 320):
        await phone.set_viewport_size({"width": width, "height": 844 if width == 390 else 640})
        await settled(phone)
        assert await phone.evaluate(NO_SIDEWAYS)
        await shot(phone, f"{name}-{width}")


async def table(browser, server, names, errors):
    """A TV's new room with a phone per name: (TV, join URL, phones, the host's socket)."""
    tv, join_url = await new_room(browser, server.base, errors)
    code = tv.url.rsplit("/", 1)[1][:4]
    phones = await join_phones(browser, join_url, names, errors, tv=tv)
    host = await tv.evaluate(f"localStorage.getItem('partyhub.host.{code}')")
    return tv, join_url, phones, await Conn(server.base, code, host).open()


async def test_the_crown_passes_with_a_word_on_the_tv_and_the_returning_phone_hears_what_its_bot_did(
        tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    async with chromium(chromium_path) as browser:
        tv, join_url, (ann, bob), ctl = await table(browser, server, ["Ann", "Bob"], errors)
        await ctl.act({"type": "settings", "vip_grace": 2, "standin": 1})
        await ctl.act({"type": "start", "game": "count", "options": {"target": 60}})
        await until(ann, "() => window.partyhub.view && window.partyhub.view.room.phase === 'playing'")
        ann_id = await ann.evaluate("window.partyhub.view.you.id")
        assert await tv.evaluate("window.partyhub.view.room.vip") == ann_id
        # a reload keeps the crown
        await ann.reload()
        await until(ann, "() => window.partyhub.view && window.partyhub.view.room.phase === 'playing'")
        assert await tv.evaluate("window.partyhub.view.room.vip") == ann_id
        # away for good: a stand-in plays her turn (the TV says so), the crown passes after 2 s
        await ann.goto("about:blank")
        await tv.locator(".toast", has_text="Ann's phone is away: a bot plays for them").wait_for()
        crown = tv.locator(".toasts[role=status] .toast.crown",
                           has_text="Ann's phone has been away for a while: Bob is the VIP now.")
        await crown.wait_for()
        await bob.locator(".toast", has_text="You are the VIP now").wait_for()
        await settled(tv)
        await shot(tv, "seats-tv-vip-passed")
        # a late joiner: in the audience, dealt in next game, may ask for Ann's seat
        cleo = await page(browser, PHONE, errors)
        await cleo.goto(join_url)
        await cleo.fill("#name", "Cleo")
        await cleo.locator(".join-bottom button[type=submit]").click()
        bar = cleo.locator(".audience-bar")
        await bar.locator(".aud-state", has_text="In the audience — vote along!").wait_for()
        await bar.locator(".aud-next", has_text="You'll be dealt in when the next game starts.").wait_for()
        await bar.locator("button", has_text="Ask for Ann's seat").wait_for()
        await shot(cleo, "seats-phone-late-voting-390")
        await ctl.act({"type": "settings", "audience": False})     # the audience just watches
        late = cleo.locator(".audience-bar.late")
        await late.locator("h2", has_text="You're in the audience for this game").wait_for()
        text = await late.inner_text()
        assert "Follow the game on the TV." in text
        assert "You'll be dealt in when the next game starts." in text
        assert "ask for the seat of a player who has left" in text
        await late.locator("button", has_text="Ask for Ann's seat").wait_for()
        await fits_and_shot(cleo, "seats-phone-late")

        # Ann comes back: her phone says what the bot did for her, and reads it out
        await ann.goto(join_url)
        note = ann.locator(".standin-note")
        await note.wait_for()
        said = await note.inner_text()
        assert re.search(r"While you were away, a bot played \d+ turns? for you: \+?\d+ points?\.", said), said
        await until(ann, "() => document.querySelector('.announce').textContent.includes('a bot played')")
        await tv.locator(".toast", has_text="Ann is back and plays again.").wait_for()
        await fits_and_shot(ann, "seats-phone-standin-note")
        await note.locator("button", has_text="OK").click()
        await until(ann, "() => !document.querySelector('.standin-note')")
        await ctl.close()
    assert not errors, errors


async def test_a_host_paced_room_whose_vip_is_away_moves_on_from_the_tv_and_sketch_explains_its_scores(
        tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    async with chromium(chromium_path) as browser:
        tv, join_url, phones, ctl = await table(browser, server, ["Ann", "Bob", "Cleo"], errors)
        await tv.set_viewport_size({"width": 1920, "height": 1080})
        await tv.locator(".gear").click()            # the host sets how long the VIP may be away
        grace = tv.locator('select[data-set="vip_grace"]')
        assert await grace.input_value() == "60"
        await grace.select_option("30")
        await until(tv, "() => window.partyhub.view.room.vip_grace === 30")
        await settled(tv)
        await shot(tv, "seats-tv-settings-vip-grace-1920")
        await tv.locator(".gear").click()
        await ctl.act({"type": "settings", "timers": "none"})
        await ctl.act({"type": "start", "game": "sketch", "options": {}})
        await tv.locator(".sk-tv-drawing").wait_for()
        end = tv.locator(".gamebar .pace button", has_text="End the round")
        await tv.locator(".gamebar .pace p", has_text="No timer").wait_for()
        assert await end.count() == 0, "the VIP's phone is here: the round is theirs to end"
        ann = phones[0]
        assert await tv.evaluate("window.partyhub.view.room.vip") == await ann.evaluate("window.partyhub.view.you.id")
        await ann.goto("about:blank")               # the VIP's phone is away (still VIP: the grace)
        await tv.locator(".gamebar .pace p", has_text="The VIP's phone is away").wait_for()
        await end.wait_for()
        await settled(tv)
        await shot(tv, "seats-tv-paced-vip-away-1920")
        await tv.set_viewport_size({"width": 1280, "height": 720})
        await settled(tv)
        assert await tv.evaluate(FITS_BAR), "the TV's game bar holds the note and the button"
        await shot(tv, "seats-tv-paced-vip-away-1280")
        await tv.set_viewport_size({"width": 1920, "height": 1080})
        for _ in range(6):       # a guessing round with nothing drawn ends by itself
            if await tv.evaluate("window.partyhub.view.room.phase") == "over":
                break
            was = await tv.evaluate("window.partyhub.view.game.round")
            await end.click()
            await until(tv, "(was) => window.partyhub.view.room.phase === 'over' || "
                            "(window.partyhub.view.game.round > was && document.querySelector('.gamebar .pace button'))", was)
        tally = tv.locator(".sk-tally")
        await tally.locator("h2", has_text="How the points add up").wait_for()
        assert "−1 for each of your own boards left at the end" in await tally.inner_text()
        await tally.locator("li", has_text="Bob").locator(".sk-tally-sum", has_text="+0 guessed, −6 left = −6").wait_for()
        await settled(tv)
        await shot(tv, "seats-tv-sketch-results-1920")
        bob = phones[1]
        await bob.locator(".sk-tally").scroll_into_view_if_needed()
        await fits_and_shot(bob, "seats-phone-sketch-results")
        await ctl.close()
    assert not errors, errors


FULL = {"en": "The next game of Jinx has no free seat for you: ask the host for a free seat.",
        "uk": "У наступній партії «Джинкс» вільного місця для вас немає: попросіть організатора знайти вам місце.",
        "ru": "В следующей партии «Джинкс» свободного места для вас нет: попросите организатора найти вам место."}


async def test_a_late_joiner_at_a_full_table_is_told_to_ask_the_host_for_a_seat(tmp_path, chromium_path):
    """Jinx seats six: a seventh who joins while six play is not told "you'll be dealt in" (Play
    again could not deal them in) but to ask the host for a free seat, in their own language."""
    server = e2e_server(tmp_path)
    base = server.base
    status, room = http("POST", f"{base}/api/rooms", {"language": "en"})
    code = room["code"]
    ctl = await Conn(base, code, room["host_token"]).open()
    for name in ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]:
        assert http("POST", f"{base}/api/rooms/{code}/join", {"name": name})[0] == 201
    await ctl.act({"type": "start", "game": "jinx", "options": {}})
    await ctl.wait(lambda v: v["room"]["phase"] == "playing")
    async with chromium(chromium_path) as browser:
        for lang, name in zip(FULL, ["Gus", "Галя", "Глеб"]):
            status, seat = http("POST", f"{base}/api/rooms/{code}/join", {"name": name, "language": lang})
            assert status == 201, seat
            phone = await seat_page(browser, base, code, seat, PHONE)
            await phone.locator(".audience-bar .aud-next", has_text=FULL[lang]).wait_for()
            assert await phone.evaluate("() => window.partyhub.view.you.dealt_next") is False
            await fits_and_shot(phone, f"seats-phone-late-full-{lang}")
    await ctl.close()
