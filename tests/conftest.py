"""The helpers next to this file (recorded.py, cli_main.py, fakes.py, ...) are imported by name from every
test folder: this folder goes first on sys.path whatever pytest's import mode.

COLUMNS and LINES are dropped from the environment: a test that wants a width sets it. pytest imports readline
at start, and in a pytest-xdist worker GNU readline exports COLUMNS=80 and LINES=24, which narrowed every CLI
report the tests read as a pipe's (100 or 200 columns) to 80.

TORCHINDUCTOR_VEC_ISA_OK=1 (unless set): Inductor takes the vector ISA the CPU reports instead of proving it by a
g++ compile and load in each process's empty cache, 6 of the 8 CPU-seconds a tiny CPU compile costs cold; every
test that compiles on the CPU (the try worker, torchrun's ranks, the compile cache, provenance) and its children
inherit it. What the tests check is inductor-prof's handling of the compile, not the probe; a CPU whose reported
ISA the compiler cannot build still fails them, at the kernel's compile."""
import os
import signal
import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from skip_summary import pytest_terminal_summary  # noqa: E402,F401  (a hook: skips by reason, browser tests)
import shipped_tables  # noqa: E402

for name in ("COLUMNS", "LINES"):
    os.environ.pop(name, None)
os.environ.setdefault("TORCHINDUCTOR_VEC_ISA_OK", "1")   # read when torch._inductor.config is imported: before any test


@pytest.fixture
def ctrl_c_raises():
    """SIGINT raises KeyboardInterrupt here, as in a terminal, even under a shell that started the tests in the
    background (SIGINT ignored, which Python then leaves so; pytest-xdist's workers inherit it)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture(autouse=True)
def gpu_seen(request, monkeypatch):
    """`profile` and `ncu` past their early GPU check (gpu_probe.py), which asks the machine: the tests fake the
    GPU work on machines without one. A test of the check itself is marked `gpu_probe`."""
    if request.node.get_closest_marker("gpu_probe") is None:
        monkeypatch.setattr("inductor_prof.gpu_probe.no_gpu_reason", lambda *a, **k: None)


@pytest.fixture(autouse=True)
def own_cache_root(tmp_path_factory, monkeypatch):
    """A user cache root of the test's own ($XDG_CACHE_HOME): measurements, compile and tuning caches stored by
    one test (fake ncu results among them) are never reused by another, nor written into the user's cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))


# load_run_tables of a shipped run folder from a cache of this process (shipped_tables.py): put in place before any
# test module imports it, wherever it is looked up (the module that defines it, the package, diff)
shipped_tables.install()


@pytest.fixture(autouse=True)
def shipped_runs_read_once(monkeypatch):
    """The cache is bypassed by a test that patches anything after this fixture (pytest's MonkeyPatch keeps what it
    set in _setattr and _setitem; without them, nothing is cached)."""
    ours = len(getattr(monkeypatch, "_setattr", ()))

    def patched() -> bool:
        setattr_, setitem = getattr(monkeypatch, "_setattr", None), getattr(monkeypatch, "_setitem", None)
        if setattr_ is None or setitem is None:
            return True
        return len(setattr_) > ours or any(d is not os.environ for d, _, _ in setitem)

    with shipped_tables.asking(patched):
        yield


def pytest_configure(config):
    config.addinivalue_line("markers", "long: 10 s or more of one core (a compile, a torchrun launch, mypy): run first")


def pytest_collection_modifyitems(items):
    """Tests marked `long` first, each where it was among them: pytest-xdist hands each worker a stretch of the
    collection and an idle worker steals from the end of another's, so a long test left near the end is run last,
    by one worker, while the others wait (mypy, the collection's last test, was). Up front they overlap the
    short tests."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
