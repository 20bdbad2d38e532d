"""The package type-checks: mypy with pyproject's [tool.mypy] (the package at mypy's default strictness, strict on
analysis/, runfiles/ and cost.py), from the repository root, no error allowed. Its cache is the checkout's own
(.mypy_cache/, git-ignored; one shared by every worktree in the temp folder was rewritten by each): about 3 s
warm; a cold run (a fresh clone, as CI's, or pyproject's mypy settings changed) about 30 s on 2 busy cores (18
CPU seconds)."""
import importlib.util
import subprocess
import sys

import pytest

from recorded import REPO

CACHE = REPO / ".mypy_cache"


@pytest.mark.long
def test_mypy_finds_no_error():
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy not installed: pip install -e '.[dev]' installs it")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(CACHE), "--no-error-summary"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"mypy found errors (see [tool.mypy] in pyproject.toml):\n{proc.stdout}{proc.stderr}"
