"""The end of a test run says what it did not test: every skip counted by its reason, and, just above pytest's
last line, one line when browser tests were skipped for want of Chromium (the HTML report's pages then go
unchecked, which a run that only says "N skipped" hides). tests/conftest.py registers the hook; under
pytest-xdist the workers' skip reports reach the controller, which prints it."""
import pytest

# the reason of every browser test's skip (headless.needs_chromium), and what the summary line matches
NO_CHROMIUM = "browser test skipped: chromium not on PATH (apt-get install chromium)"


def skip_reason(report) -> str:
    """A skip's reason as pytest.skip / skipif gave it (longrepr is (file, line, 'Skipped: reason'); a list if it
    came through a serialiser that has no tuples)."""
    reason = report.longrepr[2] if isinstance(report.longrepr, (tuple, list)) else str(report.longrepr)
    return reason.removeprefix("Skipped: ")


def count_by_reason(reports) -> dict[str, int]:
    counts: dict[str, int] = {}
    for report in reports:
        counts[skip_reason(report)] = counts.get(skip_reason(report), 0) + 1
    return counts


def browser_line(counts: dict[str, int]) -> str | None:
    n = counts.get(NO_CHROMIUM, 0)
    if not n:
        return None
    return f"{n} browser test{'s' if n > 1 else ''} skipped: chromium not on PATH, the HTML pages were not " \
           "opened (apt-get install chromium)"


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    counts = count_by_reason(terminalreporter.stats.get("skipped", []))
    if counts:
        terminalreporter.section("skipped, by reason")
        for reason, count in sorted(counts.items(), key=lambda kv: -kv[1]):
            terminalreporter.write_line(f"{count:4d}  {reason}")
    line = browser_line(counts)
    if line:
        terminalreporter.write_sep("=", line, yellow=True)
