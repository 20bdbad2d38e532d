"""Reads .ncu-rep files in a process of its own: `python -m inductor_prof.ncu_parse REPORT...` prints JSON.

NVIDIA's ncu_report (the copy in ncu's extras/python) segfaulted when loaded into a process that already
held torch (seen on the H100 machine, ncu 2025.3.1); a separate process keeps the profile run alive and the
parser free of whatever the profiler process has loaded.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .childenv import python_env
from .errors import one_line

TIMEOUT_S = 300


def main(argv: list[str]) -> int:
    from .drivers.ncu import parse_report_all

    out = {}
    for path in argv[1:]:
        try:
            out[path] = {"results": parse_report_all(Path(path))}
        except Exception as e:  # one unreadable report is that report's failure
            out[path] = {"error": one_line(e)}
    json.dump(out, sys.stdout)
    return 0


def parse_reports(paths: list[Path]) -> dict[str, dict]:
    """path -> {"results": [metrics per kernel, in profiling order]} or {"error": why}."""
    if not paths:
        return {}
    proc = subprocess.run([sys.executable, "-m", "inductor_prof.ncu_parse", *map(str, paths)], capture_output=True,
                          text=True, timeout=TIMEOUT_S, env=python_env())
    if proc.returncode != 0:
        why = f"report parser exited {proc.returncode}: {proc.stderr.strip()[-300:]}"
        return {str(p): {"error": why} for p in paths}
    return json.loads(proc.stdout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
