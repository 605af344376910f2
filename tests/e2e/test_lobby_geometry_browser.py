"""The VIP's lobby at 320x640 and 390x844: no interactive element drawn over another (the
Start button once floated over the game cards and the options toggle), every target at
least 44x44 CSS px (the kick buttons were 32x32), with the options folded and unfolded, and
no sideways scroll (its scrollWidth was 324 px at 320 with the options open and 3 players)."""
import pytest

from tests.e2e.browser import chromium, e2e_server, join_phones, new_room, settled, shot, until

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# every visible target of the page, in page coordinates (a checkbox counts as its label)
TARGETS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('button, select, input, textarea, a[href], [role=radio]')) {
    const t = (el.type === 'checkbox' || el.type === 'radio') && el.closest('label') || el;
    const r = t.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(t).visibility === 'hidden') continue;
    if (out.some((o) => o.el === t)) continue;
    out.push({ el: t, name: (t.className || t.tagName) + ' ' + (t.textContent || '').trim().slice(0, 24),
      x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height });
  }
  return out.map(({ el, ...rest }) => rest);
}"""


# what is wider than the screen, to say why the page scrolls sideways
WIDE = """() => {
  const w = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > w + 0.5 && getComputedStyle(e).position !== 'fixed')
    .slice(-4).map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
  return { scroll: document.documentElement.scrollWidth, width: w, wide };
}"""


def problems(targets):
    found = []
    for i, a in enumerate(targets):
        if a["w"] < 44 - 0.5 or a["h"] < 44 - 0.5:
            found.append(f"small: {a['name']} {a['w']:.0f}x{a['h']:.0f}")
        for b in targets[i + 1:]:
            dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if dx > 0.5 and dy > 0.5:
                found.append(f"overlap: {a['name']} / {b['name']}")
    return found


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
async def test_the_vip_lobby_has_no_overlap_and_big_targets_on_small_phones(tmp_path, chromium_path, lang):
    server = e2e_server(tmp_path)
    errors = []
    try:
        async with chromium(chromium_path) as browser:
            tv, join_url = await new_room(browser, server.base, errors, lang=lang)
            phones = await join_phones(browser, join_url, ["Ann", "Богдан", "Oleh"], errors, tv=tv)
            vip = phones[0]
            # a bot from the lobby's Add bot: tagged as a bot on the TV and on the phones
            await tv.evaluate("() => window.partyhub.act({type: 'add_bot'})")
            for p in (tv, vip, phones[1]):
                await p.locator(".player .tag").first.wait_for()
            await vip.locator(".game-card[data-game=sketch]").click()
            await tv.locator(".game-card[data-game=sketch][aria-checked=true]").wait_for()
            for size in ({"width": 320, "height": 640}, {"width": 390, "height": 844}):
                await vip.set_viewport_size(size)
                for unfolded in (False, True):
                    if unfolded:
                        await vip.locator(".opts-toggle").click()
                        await vip.locator(".options").wait_for()
                    await vip.evaluate("() => scrollTo(0, 0)")
                    await until(vip, "() => document.querySelectorAll('.kick').length === 3")
                    await settled(vip)      # the kick buttons pop in
                    found = problems(await vip.evaluate(TARGETS))
                    wide = await vip.evaluate(WIDE)
                    if wide["scroll"] > wide["width"]:
                        found.append(f"sideways scroll: {wide}")
                    await shot(vip, f"lobby-vip-{size['width']}-{'open' if unfolded else 'folded'}-{lang}")
                    assert not found, (size, unfolded, found)
                await vip.locator(".opts-toggle").click()
                await vip.locator(".options").wait_for(state="detached")
            # every game's options, open at 320 px: nothing wider than the screen
            await vip.set_viewport_size({"width": 320, "height": 640})
            await vip.locator(".opts-toggle").click()
            await vip.locator(".options").wait_for()
            for game in await vip.evaluate("() => [...document.querySelectorAll('.game-card[data-game]')]"
                                           ".map((c) => c.dataset.game)"):
                await vip.locator(f".game-card[data-game={game}]").click()
                await until(vip, f"() => document.querySelector('.game-card[data-game={game}][aria-checked=true]')"
                                 " && document.querySelector('.options')")
                await settled(vip)
                wide = await vip.evaluate(WIDE)
                if wide["scroll"] > wide["width"]:
                    await shot(vip, f"lobby-vip-320-wide-{game}-{lang}")
                assert wide["scroll"] <= wide["width"], (game, wide)
            await shot(tv, f"lobby-tv-sketch-{lang}")
            await tv.locator(".gear").click()
            await tv.locator('select[data-set="timers"]').select_option("relaxed")
            await until(tv, "() => document.querySelector('select[data-set=timers]').value === 'relaxed'")
            await shot(tv, f"lobby-tv-settings-{lang}")
            await shot(phones[1], f"lobby-phone-{lang}")
            assert not errors, errors
    finally:
        server.kill()
