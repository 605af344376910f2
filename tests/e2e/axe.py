"""axe-core in the browser suite: `await axe_check(page)` fails on serious or critical problems.

Use from any browser test, on a page in whatever state it is in:

    from tests.e2e.axe import axe_check, axe_page

    p = await axe_page(browser, PHONE)          # optional: a page whose context bypasses the CSP
    ...                                          # drive it to the screen you want to check
    await axe_check(p, "klepka phone, exchange sheet")           # raises AssertionError
    await axe_check(p, "sketch tv", allow={"color-contrast"})    # rule ids left out
    found = await axe_check(p, "x", fail=False)   # only collect: a list of readable lines

- `where` names the screen in the failure message (say the game, page, phase and language).
- `allow` is a set of axe rule ids not to fail on (say why at the call site).
- Finite CSS animations are let finish first (at most 3 s), so contrast is judged at rest.
- `selector` limits the run to one part of the page (a CSS selector, default the document).
- `experimental=True` runs axe's experimental rules as well (off by default in axe-core):
  label-content-name-mismatch (WCAG 2.5.3, Label in Name) and the others. The sweep
  (test_axe_sweep_browser.py) and the klepka and association phone tests run them.
- Only violations whose impact is "serious" or "critical" fail (`impacts=` widens it); the
  returned lines list them.
  Each line reads: rule id, impact, the rule's help text, then each offending node's selector
  and axe's summary of what to fix.

In WebKitGTK (tests/e2e/webkit.py): `await axe_check_webkit(webkit, "where")`, the same
arguments and verdict.

axe-core is vendored under tests/e2e/vendor/axe-core (version, source and licence there); the
app never serves it. It is injected through Playwright's `evaluate`, which the page's
Content-Security-Policy does not govern, so any page works; `axe_page` also gives a context
with `bypass_csp=True` for pages that add scripts of their own (axe runs only, never for the
tests that check the CSP).
"""
from pathlib import Path

from tests.e2e.browser import trail

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
FAILING = ("serious", "critical")
_SOURCE: list = []

RUN = """async ([selector, experimental]) => {
  const ctx = selector ? document.querySelector(selector) : document;
  if (!ctx) return {error: 'no element ' + selector};
  // finite animations (a fade-in, a podium rising) end first: contrast is judged at rest
  const finite = document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity);
  await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => null))),
                      new Promise((ok) => setTimeout(ok, 3000))]);
  // axe's experimental rules (label-content-name-mismatch: WCAG 2.5.3, ...) are off unless asked
  const rules = experimental ? Object.fromEntries(window.axe.getRules(['experimental'])
    .map((r) => [r.ruleId, {enabled: true}])) : {};
  const r = await window.axe.run(ctx, {resultTypes: ['violations'], rules});
  return {violations: r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(' '), impact: n.impact,
                                summary: (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 300)})),
  }))};
}"""


async def axe_page(browser, viewport):
    """A page in a new context that bypasses the CSP (touch and mobile on a phone-sized one)."""
    phone = viewport["width"] < 800
    ctx = await browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone,
                                    bypass_csp=True)
    p = await ctx.new_page()
    trail(p, f"axe {'phone' if phone else 'tv'}")
    return p


async def _inject(page):
    if await page.evaluate("() => !!(window.axe && window.axe.run)"):
        return
    # evaluated as a script by the debugging protocol, not a script tag: no CSP applies
    await page.evaluate(_source() + "\n;void 0")
    assert await page.evaluate("() => !!(window.axe && window.axe.run)"), "axe-core did not load"


def describe(violations):
    """Readable lines, one per rule, then one per node."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} [{v['impact']}] {v['help']}")
        for n in v["nodes"][:8]:
            lines.append(f"    {n['target']}: {n['summary']}")
        if len(v["nodes"]) > 8:
            lines.append(f"    ... and {len(v['nodes']) - 8} more")
    return lines


def _source():
    if not _SOURCE:
        _SOURCE.append(AXE.read_text(encoding="utf-8"))
    return _SOURCE[0]


def _verdict(r, where, allow, fail, impacts):
    assert "error" not in r, r.get("error")
    bad = [v for v in r["violations"] if v["impact"] in impacts and v["id"] not in set(allow)]
    lines = describe(bad)
    if fail and lines:
        raise AssertionError(f"axe-core on {where}:\n" + "\n".join(lines))
    return lines


async def axe_check_webkit(wk, where, allow=(), selector=None, fail=True, impacts=FAILING,
                           experimental=False):
    """axe_check for a WebKitGTK page (tests/e2e/webkit.py): axe-core is injected and run
    through WebDriver's execute_script, which the page's Content-Security-Policy does not
    govern either."""
    if not await wk.js("return !!(window.axe && window.axe.run)"):
        await wk.js(_source() + "\n;return null;")
        assert await wk.js("return !!(window.axe && window.axe.run)"), "axe-core did not load in WebKit"
    r = await wk._(wk.driver.execute_async_script,
                   "const done = arguments[arguments.length - 1];"
                   f"({RUN})(arguments[0]).then(done, (e) => done({{error: String(e)}}));",
                   [selector, experimental])
    return _verdict(r, where, allow, fail, impacts)


async def axe_check(page, where="", allow=(), selector=None, fail=True, impacts=FAILING,
                    experimental=False):
    """Run axe-core on `page`; fail (AssertionError) on serious or critical violations not in
    `allow` (`impacts` widens that, e.g. ("moderate", "serious", "critical")). Returns the
    readable lines of what failed (empty when nothing did). `experimental`: axe's experimental
    rules too (label-content-name-mismatch, ...), as the sweep runs them."""
    await _inject(page)
    return _verdict(await page.evaluate(RUN, [selector, experimental]), where or page.url, allow,
                    fail, impacts)
