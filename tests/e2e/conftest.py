"""Browser tests: when one fails, its report carries what each of its pages did. The WebKit
session (tests/e2e/webkit.py) is started once for the whole run and reset for each test.

The tests of a module share one server (e2e_server) and one chromium (chromium()): a start
of each costs seconds of CPU, and a module's tests each make rooms and browser contexts of
their own. For that, a module's chromium tests run in one event loop (the module's)."""
from pathlib import Path

import pytest
import pytest_asyncio

from tests.e2e import browser, webkit as wk


@pytest.fixture(autouse=True)
def _trails():
    browser.TRAILS.clear()
    yield
    browser.TRAILS.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed and browser.TRAILS:
        text = "\n\n".join(f"== {name}\n" + "\n".join(lines[-80:]) for name, lines, *_ in browser.TRAILS)
        report.sections.append(("page trails (the last 80 lines of each page)", text))
    page = item.funcargs.get("webkit") if report.when == "call" and report.failed else None
    if page is not None:
        try:   # Selenium's calls are plain blocking calls: fine here, outside the test's loop
            page.save_shot(f"failed-{item.name}")
            report.sections.append(("the WebKit page", page.describe()))
        except Exception as e:   # noqa: BLE001 - a crashed page says so
            report.sections.append(("the WebKit page", f"unavailable: {e}"))


@pytest.fixture(scope="session")
def webkit_session(tmp_path_factory):
    wk.require()
    session = wk.Session(tmp_path_factory.mktemp("webkit"))
    yield session
    session.quit()


@pytest.fixture
async def webkit(webkit_session):
    """The session's WebKit window, blank, at the phone's size (a failure keeps its screen:
    the report is made before this teardown). Blank again after the test: the session lives
    until its worker ends, and the last test's page (a TV's animations, a socket retrying a
    stopped server) kept a core 40% busy for the rest of the browser round."""
    page = wk.WebKit(webkit_session.driver)
    await page.reset()
    yield page
    await page.reset()


HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """The chromium tests here run in their module's event loop, where its browser lives."""
    for item in items:
        if HERE in Path(item.path).parents and "chromium_path" in item.fixturenames \
                and item.get_closest_marker("asyncio"):
            item.add_marker(pytest.mark.asyncio(loop_scope="module"), append=False)


@pytest.fixture(scope="module", autouse=True)
def _module_server(tmp_path_factory):
    with browser.shared_server(tmp_path_factory.mktemp("server")):
        yield


@pytest_asyncio.fixture(scope="module", loop_scope="module", autouse=True)
async def _module_browser():
    async with browser.sharing_browsers():
        yield
