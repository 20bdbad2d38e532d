"""The shipped runs' tables (examples/runs/*, tests/data/*) read once per test process: `load_run_tables` of a run
folder the tests never write is the same every time (it reads only the folder's files, no setting or environment
variable), and about 760 calls of the suite, 0.07-0.13 CPU-seconds each, read the same dozen folders. Each caller
gets its own deep copy (about 1/100 of a load), so a test that changes the tables changes only its own.

`conftest.py`'s autouse fixture puts `cached` in place of `load_run_tables` where the CLI and diff look it up
(`inductor_prof.analysis`, `analysis.diff_inputs`). A test that replaced anything else (monkeypatch.setattr, or
setitem on anything but the environment) reads the folder itself and leaves the cache alone: what it patched may be
what the load calls, or what it checks is the reading (a refused `open`)."""
from __future__ import annotations

import copy
import os

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
