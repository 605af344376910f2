"""The phone's turn cue and the TV's sound control, in Chromium.

- The edge of the screen pulses on the phone whose turn it has become, and on no other phone;
  a phone that asks for reduced motion gets a still glow instead; once a tap has unlocked the
  phone's audio, the cue plays a sound too.
- The TV's mute and volume are kept across a reload, and muted really means silent: the
  master gain is 0 and no sound is played (sounds.js counts the ones it plays).
- A page that asks for reduced motion runs no endless animation: each plays once, at once
  (common.css), where it blinked at 0.01 ms a cycle before, a flicker at the screen's rate.
"""
import asyncio

import pytest

from tests.e2e.browser import box, chromium, e2e_server, join_phones, new_room, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CUES = "() => window.partyhub.turnCues"
GAIN = "g => Math.abs(window.partyhub.sounds.stats().gain - g) < 1e-6"
TURN = "() => { const v = window.partyhub.view; return v && v.game && v.game.turn === v.you.id; }"


# The edge shows for 1.6 s: a loaded machine can take longer than that between the move that
# gives the turn and the test's look, so each phone records every edge put on its screen.
WATCH = """() => { if (window.cuesSeen) return; window.cuesSeen = [];
    new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
        if (n.classList && n.classList.contains('turn-cue')) window.cuesSeen.push(n.className);
    }).observe(document.body, {childList: true}); }"""


async def cue_shown(p, kind):
    """Wait until the edge cue of `kind` ('pulse' or 'still') is, or was, on the screen (since
    WATCH ran on the page)."""
    await until(p, f"""() => !!document.querySelector('.turn-cue.{kind}') ||
        (window.cuesSeen || []).some((c) => c.split(' ').includes('{kind}'))""",
                timeout=10_000, every=0.02)


async def pass_turn(p, other):
    """Play p's moves (flips, then done with words) until the turn is the other phone's."""
    for _ in range(120):
        if await other.evaluate(TURN):
            return
        await p.evaluate("""() => { const app = window.partyhub;
            const a = app.gameActions().find((x) => x.type === 'flip' || x.type === 'words_done');
            if (a) app.act(a); }""")
        await asyncio.sleep(0.25)
    raise AssertionError("the turn never passed")


async def test_the_edge_pulses_on_the_phone_whose_turn_it_is_and_nowhere_else(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            phones = await join_phones(browser, join_url, ["Ann", "Bo"], errors, tv=tv)
            still = phones[1]
            await still.emulate_media(reduced_motion="reduce")
            for p in phones:                      # a tap unlocks the phone's audio
                await p.evaluate(WATCH)
                await p.locator(".lobby-phone").tap()
                await until(p, "() => window.partyhub.sounds.stats().state === 'running'", timeout=15_000)
            # klepka: one seat has the turn and only that seat has moves at the start
            await phones[0].evaluate("() => window.partyhub.act({type: 'start', game: 'klepka', options: {}})")
            await until(phones[0], "() => window.partyhub.view.room.phase === 'playing'")
            await until(phones[1], "() => window.partyhub.view.room.phase === 'playing'")
            first = phones[0] if await phones[0].evaluate(TURN) else phones[1]
            other = phones[1] if first is phones[0] else phones[0]
            await cue_shown(first, "still" if first is still else "pulse")
            assert await first.evaluate(CUES) == 1
            assert await first.evaluate("() => window.partyhub.sounds.stats().played") >= 1
            assert await other.evaluate(CUES) == 0
            assert await other.locator(".turn-cue").count() == 0
            await shot(first, "cue-phone-turn")
            # the turn passes: now the other phone pulses, and the first one does not again
            await pass_turn(first, other)
            await cue_shown(other, "still" if other is still else "pulse")
            assert await other.evaluate(CUES) == 1
            assert await other.evaluate(TURN)
            assert await first.evaluate(CUES) == 1
            # the pulse goes away again
            await until(first, "() => !document.querySelector('.turn-cue')", timeout=5000)
            # the TV never cues (it has no turn)
            assert await tv.evaluate(CUES) == 0
            assert not errors, errors
    finally:
        server.kill()


ENDLESS = """() => document.getAnimations().filter((a) => a.playState === 'running' && a.effect
    && a.effect.getComputedTiming().iterations === Infinity)
    .map((a) => `${a.animationName || 'animation'} on .${a.effect.target && a.effect.target.className}`)"""


# a style changed from script, read back at once: the transitions that started (a button's
# background has one in motion: common.css, .btn)
TRANSITIONS = """() => { const b = [...document.querySelectorAll('.btn')].find((el) => el.offsetParent);
  b.style.background = 'rgb(1, 2, 3)'; getComputedStyle(b).background;
  const made = b.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.constructor.name);
  b.style.background = ''; return made; }"""


async def test_a_phone_that_asks_for_reduced_motion_runs_no_endless_animation(tmp_path, chromium_path):
    """Two phones waiting in the lobby for the host: the one that moves blinks its hint without
    end; the one that asks for reduced motion shows the hint still, and nothing runs on it,
    not even a transition (common.css once gave every property one of 0.01 ms)."""
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors)
            _, moving, still = await join_phones(browser, join_url, ["Ann", "Bo", "Cy"], errors, tv=tv)
            await still.emulate_media(reduced_motion="reduce")
            await still.reload()
            await still.locator(".lobby-phone").wait_for()
            await until(moving, ENDLESS, timeout=5000)        # the check sees an endless blink
            assert await still.locator(".lobby-phone").is_visible()
            await asyncio.sleep(0.5)
            assert await still.evaluate(ENDLESS) == []
            # nor any transition: a style set from script is there at once, for what measures it
            assert await still.evaluate(TRANSITIONS) == []
            assert await moving.evaluate(TRANSITIONS) == ["CSSTransition"], "the check sees a transition"
            assert not errors, errors
    finally:
        server.kill()


async def test_the_tv_mute_and_volume_survive_a_reload_and_muted_is_silent(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, _ = await new_room(browser, server.base, errors, lang="uk")
            vol = tv.locator(".volume")
            await vol.wait_for()
            assert await tv.locator(".vol-mute").get_attribute("aria-label") == "Вимкнути звук телевізора"
            box = await tv.locator(".vol-mute").bounding_box()
            assert box["width"] >= 48 and box["height"] >= 48          # a target for the couch
            await tv.locator(".vol-mute").hover()                      # hovering shows - and +
            await tv.locator(".vol-down").click()
            await tv.locator(".vol-down").click()
            await until(tv, GAIN, 0.64, timeout=5000)
            stats = await tv.evaluate("() => window.partyhub.sounds.stats()")
            assert stats["state"] == "running" and abs(stats["gain"] - 0.64) < 1e-6, stats
            played = stats["played"]
            assert played >= 2                                          # each step previews itself
            await tv.locator(".vol-mute").click()
            assert await tv.locator(".vol-mute").get_attribute("aria-pressed") == "true"
            await shot(tv, "tv-sound-control")

            await tv.reload()
            await tv.locator(".volume").wait_for()
            await tv.locator(".lobby-tv").click(position={"x": 5, "y": 5})   # a gesture: audio may start
            await until(tv, "() => window.partyhub.sounds.stats().state === 'running'", timeout=5000)
            assert await tv.locator(".vol-mute").get_attribute("aria-pressed") == "true"
            assert await tv.locator(".volume").get_attribute("data-level") == "8"
            stats = await tv.evaluate("() => window.partyhub.sounds.stats()")
            assert stats["gain"] == 0 and stats["played"] == 0, stats
            for name in ("join", "start", "win", "tick"):              # muted: nothing plays
                assert await tv.evaluate("n => window.partyhub.sounds.play(n)", name) is False
            assert (await tv.evaluate("() => window.partyhub.sounds.stats()"))["played"] == 0
            await tv.locator(".vol-mute").click()                      # unmute: sound again
            await until(tv, GAIN, 0.64, timeout=5000)
            stats = await tv.evaluate("() => window.partyhub.sounds.stats()")
            assert abs(stats["gain"] - 0.64) < 1e-6 and stats["played"] == 1, stats
            assert await tv.evaluate("() => window.partyhub.sounds.play('join')") is True

            # kept per browser: a second TV page of the same browser reads the same choice
            again = await tv.context.new_page()
            await again.goto(tv.url)
            await again.locator(".volume[data-level='8']").wait_for()
            assert await again.locator(".vol-mute").get_attribute("aria-pressed") == "false"
            assert not errors, errors
    finally:
        server.kill()


async def test_the_phone_has_no_tv_sound_control(tmp_path, chromium_path):
    server = e2e_server(tmp_path)
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base)
            (phone,) = await join_phones(browser, join_url, ["Ann"], tv=tv)
            assert await phone.locator(".volume").count() == 0
            assert await tv.locator(".volume").count() == 1
    finally:
        server.kill()


async def test_the_phone_sound_switch_silences_the_turn_cue_and_survives_a_reload(tmp_path, chromium_path):
    """A phone's sound could not be turned off. The switch sits beside the language in the
    lobby and in the game bar: a big target, pressed while the sound is on, kept per browser."""
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang="uk")
            ann, bo = await join_phones(browser, join_url, ["Ann", "Bo"], errors, tv=tv)
            await bo.set_viewport_size({"width": 320, "height": 640})
            switch = ann.locator(".me-card .sound-toggle")
            assert await switch.get_attribute("aria-label") == "Звук"
            assert await switch.get_attribute("aria-pressed") == "true"
            assert await switch.get_attribute("title") == "Вимкнути звук на телефоні"
            for p in (ann, bo):
                b = await box(p.locator(".me-card .sound-toggle"))
                assert b["width"] >= 48 and b["height"] >= 48, b
                assert await p.evaluate("() => document.documentElement.scrollWidth") <= \
                    await p.evaluate("() => window.innerWidth")
            await shot(bo, "phone-sound-switch-lobby-320")
            await shot(ann, "phone-sound-switch-lobby-390")
            await switch.tap()
            assert await switch.get_attribute("aria-pressed") == "false"
            assert await switch.get_attribute("title") == "Увімкнути звук на телефоні"
            await ann.reload()
            await ann.locator(".lobby-phone").wait_for()
            await ann.locator(".lobby-phone").tap()      # a gesture: audio may start
            await until(ann, "() => window.partyhub.sounds.stats().state === 'running'", timeout=15_000)
            assert await ann.locator(".me-card .sound-toggle").get_attribute("aria-pressed") == "false"
            assert (await ann.evaluate("() => window.partyhub.sounds.stats()"))["gain"] == 0
            await bo.locator(".lobby-phone").tap()
            await until(bo, "() => window.partyhub.sounds.stats().state === 'running'", timeout=15_000)
            # klepka: whoever has the first turn is cued; the muted phone's cue plays nothing
            await tv.evaluate("() => window.partyhub.act({type: 'start', game: 'klepka', options: {}})")
            for p in (ann, bo):
                await until(p, "() => window.partyhub.view.room.phase === 'playing'")
                await p.locator(".gamebar .sound-toggle").wait_for()
                b = await box(p.locator(".gamebar .sound-toggle"))
                assert b["width"] >= 48 and b["height"] >= 48, b
            first = ann if await ann.evaluate(TURN) else bo
            if first is not ann:
                await pass_turn(bo, ann)
            # the cue was given (its edge shows for 1.6 s only: when Ann had the first turn, a
            # loaded machine can take longer than that to get here, so count the cues)
            await until(ann, "() => window.partyhub.turnCues >= 1", timeout=10_000)
            assert await ann.evaluate("() => window.partyhub.sounds.stats().played") == 0
            assert await ann.locator(".gamebar .sound-toggle").get_attribute("aria-pressed") == "false"
            await shot(ann, "phone-sound-switch-game-390")
            await shot(bo, "phone-sound-switch-game-320")
            await ann.locator(".gamebar .sound-toggle").tap()          # on again: it says so with a cue
            await until(ann, "() => window.partyhub.sounds.stats().played >= 1", timeout=15_000)
            assert await ann.evaluate("() => localStorage.getItem('partyhub.phone.muted')") == "0"
            assert not errors, errors
    finally:
        server.kill()
