"""The chromium the browser tests launch (tests/e2e/browser.py: FLAGS): Playwright's own
disabled features kept, and no omnibox popup pages loaded for every browser context.

A second --disable-features replaces Playwright's (chromium keeps the last of a switch given
twice), so FLAGS repeats Playwright's list: when a Playwright upgrade adds to it, the first
test here names what is missing."""
import os

import pytest

from tests.e2e.browser import OMNIBOX_POPUPS, _launched
from tests.liveserver import children

pytestmark = [pytest.mark.browser]


def _descendants(pid):
    """Each process under `pid`, as its arguments."""
    found = []
    for child in children(pid):
        try:
            with open(f"/proc/{child}/cmdline") as f:
                found.append(f.read().replace("\0", " ").split())
        except OSError:
            continue
        found += _descendants(child)
    return found


def _browser_cmdline():
    """The browser process's arguments (chromium writes them back space-separated)."""
    for cmd in _descendants(os.getpid()):
        if cmd and "chrom" in os.path.basename(cmd[0]) and not any(a.startswith("--type=") for a in cmd):
            return cmd
    raise AssertionError("no chromium browser process under this test")


def _features(cmd):
    return [set(a.split("=", 1)[1].split(",")) for a in cmd if a.startswith("--disable-features=")]


async def test_the_browser_keeps_playwrights_disabled_features_and_adds_the_omnibox_popups(chromium_path):
    async with _launched(chromium_path):
        given = _features(_browser_cmdline())
    assert len(given) == 2, given          # Playwright's, then FLAGS's, which chromium keeps
    playwright, kept = given
    assert playwright - kept == set(), f"FLAGS drops Playwright's {sorted(playwright - kept)}"
    assert set(OMNIBOX_POPUPS) <= kept


async def test_a_new_context_loads_no_omnibox_popup(chromium_path):
    async with _launched(chromium_path) as (_, browser):
        ctx = await browser.new_context()
        await (await ctx.new_page()).goto("data:text/html,<h1>hi</h1>")
        cdp = await browser.new_browser_cdp_session()
        targets = (await cdp.send("Target.getTargets", {"filter": [{}]}))["targetInfos"]
        await ctx.close()
    assert [t["url"] for t in targets if t["type"] == "page"] == ["data:text/html,<h1>hi</h1>"]
    assert [t["url"] for t in targets if "omnibox" in t["url"]] == []
