"""Browser tests: when one fails, its report carries what each of its pages did."""
import pytest

from tests.e2e import browser


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
