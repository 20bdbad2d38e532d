"""Doctor's check of Python bytecode caching. `profile` starts several Python processes (compile, attention, ncu's
replays, the source pass); where bytecode is neither shipped nor written (PYTHONDONTWRITEBYTECODE, common in
container images, with no .pyc beside torch's sources) each of them compiles torch's modules from source again
(about 9 s a process on the H100 machine this tool is measured on)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from .check import OK, SKIP, WARN, Check

NAME = "Python bytecode"
REMEDY = ("unset PYTHONDONTWRITEBYTECODE, or export PYTHONPYCACHEPREFIX=<a writable folder> and run once without it, "
          "so later processes read torch's .pyc")


def torch_bytecode(module: str = "torch") -> bool | None:
    """Whether the compiled bytecode of `module`'s __init__ exists where this Python reads it (beside the source
    or under PYTHONPYCACHEPREFIX); None without the module. Nothing is imported."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):   # an import hook refusing it: as good as absent
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(importlib.util.cache_from_source(spec.origin)).exists()


def judge(dont_write: bool, cached: bool | None) -> Check:
    """The row: ok when torch's bytecode is there or will be written; warn when it is neither."""
    if cached is None:
        return Check(NAME, SKIP, "no torch to look at")
    if cached:
        return Check(NAME, OK, "torch's compiled bytecode found")
    if not dont_write:
        return Check(NAME, OK, "written at the first import (none yet for torch)")
    return Check(NAME, WARN, "not written (PYTHONDONTWRITEBYTECODE) and torch has none: each process of `profile` "
                             "compiles torch's modules again", REMEDY)


def check() -> Check:
    return judge(sys.dont_write_bytecode, torch_bytecode())
