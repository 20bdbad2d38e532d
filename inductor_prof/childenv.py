"""The environment for Python subprocesses of this package (ncu's replay program, the report parser, the
attention stage): the caller's, with this package's root first on PYTHONPATH so `-m inductor_prof...` works
from a checkout that is not installed."""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)


def package_pythonpath(source: dict[str, str] | None = None) -> str:
    source = os.environ if source is None else source
    return os.pathsep.join(p for p in (PACKAGE_ROOT, source.get("PYTHONPATH", "")) if p)


def python_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": package_pythonpath()}
