"""The one builder of a child process's environment (procs.py runs every child with the environment given
whole): the caller's, or only the names listed (sudo resets the environment, so what passes through it is
listed), with this package's root first on PYTHONPATH so `-m inductor_prof...` works from a checkout that is
not installed, then the child's own variables."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Mapping

PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)


def package_pythonpath(source: Mapping[str, str] | None = None) -> str:
    source = os.environ if source is None else source
    return os.pathsep.join(p for p in (PACKAGE_ROOT, source.get("PYTHONPATH", "")) if p)


def child_env(extra: Mapping[str, str] | None = None, keep: Iterable[str] | None = None,
              source: Mapping[str, str] | None = None) -> dict[str, str]:
    """`source` (default: this process's environment) whole, or only its `keep` names; PYTHONPATH with this
    package first; then `extra`, which wins over both."""
    source = os.environ if source is None else source
    env = dict(source) if keep is None else {k: source[k] for k in keep if k in source}
    env["PYTHONPATH"] = package_pythonpath(source)
    env.update(extra or {})
    return env
