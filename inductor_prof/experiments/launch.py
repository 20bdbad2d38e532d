"""How one experiment's process starts: the one place that knows its command line, so it can move to another
way of starting children without touching the rest."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import procs
from ..childenv import child_env
from ..inductor.cache import cache_env
from .worker import RESULT


def run_experiment(spec_path: Path, log_path: Path, cache_dir: Path, timeout: float) -> tuple[dict | None, str]:
    """(the worker's result, or None; how the process ended when it did not say one). Its output is kept in
    `log_path`; Inductor and Triton compile into `cache_dir` (the experiments' own, never the run's)."""
    cmd = [sys.executable, "-m", "inductor_prof.experiments.worker", str(spec_path)]
    done = procs.run_logged(cmd, child_env(cache_env(cache_dir)), log_path, timeout)
    text = log_path.read_text(errors="replace") if log_path.is_file() else ""
    lines = [ln for ln in text.splitlines() if ln.startswith(RESULT)]
    if lines:
        return json.loads(lines[-1][len(RESULT):]), ""
    if done.timed_out:
        return None, f"no result after {timeout:g} s (ended; log {log_path})"
    return None, f"{procs.describe_exit(done.returncode)}: {procs.tail(text) or '(no output)'} (log {log_path})"
