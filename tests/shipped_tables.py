"""The shipped runs' tables (examples/runs/*, tests/data/*) read once per test process: `load_run_tables` of a run
folder the tests never write is the same every time (it reads only the folder's files, no setting or environment
variable), and about 760 calls of the suite, 0.07-0.13 CPU-seconds each, read the same dozen folders. Each caller
gets its own deep copy (about 1/100 of a load), so a test that changes the tables changes only its own.

`conftest.py` installs it (`install`) when it is imported, before any test module: `load_run_tables` wherever it is
looked up (`analysis.load`, `inductor_prof.analysis`, `analysis.diff_inputs`) reads through the cache. A test that
replaced anything else (monkeypatch.setattr, or setitem on anything but the environment: conftest's autouse fixture
asks its monkeypatch) reads the folder itself and leaves the cache alone: what it patched may be what the load
calls, or what it checks is the reading (a refused `open`)."""
from __future__ import annotations

import contextlib
import copy
import functools
import os
from typing import Callable, Iterator

from recorded import DATA, REPO

SHIPPED = (os.path.realpath(REPO / "examples" / "runs"), os.path.realpath(DATA))
_loaded: dict[tuple[str, str], object] = {}


def shipped(path) -> bool:
    real = os.path.realpath(path)
    return any(real.startswith(root + os.sep) for root in SHIPPED)


def cached(load, path, patched: bool):
    """load(path), from the cache for a shipped run folder unless the test `patched` something. Keyed by the path
    as given and the working folder: the tables carry the path they were given (the report prints it)."""
    if patched or not shipped(path):
        return load(path)
    key = (os.fspath(path), os.getcwd())
    if key not in _loaded:
        _loaded[key] = load(path)
    return copy.deepcopy(_loaded[key])


_patched: list[Callable[[], bool]] = []   # the running test's question (conftest), none between tests


@contextlib.contextmanager
def asking(patched: Callable[[], bool]) -> Iterator[None]:
    """Within: `patched()` says whether the running test replaced something the load may call."""
    _patched.append(patched)
    try:
        yield
    finally:
        _patched.remove(patched)


def install() -> None:
    """load_run_tables through `cached`, in the module that defines it and where it is imported from."""
    from inductor_prof import analysis
    from inductor_prof.analysis import diff_inputs, load

    real = load.load_run_tables

    @functools.wraps(real)
    def load_run_tables(path):
        return cached(real, path, any(ask() for ask in _patched))

    for module in (load, analysis, diff_inputs):
        module.load_run_tables = load_run_tables
