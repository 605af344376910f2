"""Browser tests: when one fails, its report carries what each of its pages did. The WebKit
session (tests/e2e/webkit.py) is started once for the whole run and reset for each test."""
import pytest

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
    """The session's WebKit window, blank, at the phone's size (a failure keeps its screen)."""
    page = wk.WebKit(webkit_session.driver)
    await page.reset()
    return page
