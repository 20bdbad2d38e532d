"""A pytest plugin (scripts/suite_time.sh loads it: `-p pytest_cpu_seconds`, this folder on PYTHONPATH): the
CPU-seconds of each test, its setup and teardown included, of the test's process and of every child it waited for
(getrusage SELF + CHILDREN), so a test that waits on a subprocess or a compiler is charged for it and a test slowed
only by a loaded machine is not. Under pytest-xdist each worker measures its own tests and the numbers reach the
controller in the reports' user_properties. The end of the run prints the sum and the files and tests that cost
the most (CPU_SECONDS_TOP of each, default 25)."""
import os
import resource

import pytest

KEY = "cpu_s"
_by_test: dict[str, float] = {}


def _cpu() -> float:
    self_, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return self_.ru_utime + self_.ru_stime + children.ru_utime + children.ru_stime


def _measured(item):
    start = _cpu()
    yield
    item.user_properties.append((KEY, _cpu() - start))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _measured(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield from _measured(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item):
    yield from _measured(item)


def pytest_runtest_logreport(report):
    # the phase's own number is the last one appended when its report was made (user_properties grows per phase)
    values = [v for k, v in getattr(report, "user_properties", []) if k == KEY]
    if values:
        _by_test[report.nodeid] = _by_test.get(report.nodeid, 0.0) + values[-1]


def pytest_terminal_summary(terminalreporter):
    if not _by_test:
        return
    top = int(os.environ.get("CPU_SECONDS_TOP", "25"))
    by_file: dict[str, float] = {}
    for nodeid, seconds in _by_test.items():
        by_file[nodeid.split("::")[0]] = by_file.get(nodeid.split("::")[0], 0.0) + seconds
    write = terminalreporter.write_line
    terminalreporter.section(f"CPU-seconds of the tests: {sum(_by_test.values()):.1f} in {len(_by_test)} tests "
                             "(collection and start-up not included)")
    for title, table in (("files", by_file), ("tests", _by_test)):
        write(f"-- {title} costing the most:")
        for name, seconds in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            write(f"{seconds:7.1f}  {name}")
