"""Where ncu and NVIDIA's report reader are: the configured path, else PATH, else the usual install places."""
from __future__ import annotations

import glob
import importlib
import importlib.util
import os
import shutil
import sys

from ...errors import UserError

NCU_SEARCH = ("/usr/local/cuda*/bin/ncu", "/opt/nvidia/nsight-compute/*/ncu", "/usr/local/NVIDIA-Nsight-Compute*/ncu")


def find_ncu(explicit: str | None) -> str:
    """The ncu executable: the one configured, else on PATH, else the usual install places."""
    return locate_ncu(explicit)[0]


def path_fault(explicit: str) -> str | None:
    """Why a configured ncu path that exists cannot be run: "a folder" or "not executable"; None when absent."""
    if os.path.isdir(explicit):
        return "a folder"
    return "not executable" if os.path.exists(explicit) else None


def locate_ncu(explicit: str | None) -> tuple[str, str]:
    """(the ncu executable, how it was found: "configured", "PATH" or "search")."""
    if explicit:
        path = shutil.which(explicit)
        if path:
            return path, "configured"
        where = "(from --ncu-path / INDUCTOR_PROF_NCU / settings file)"
        fault = path_fault(explicit)
        if fault == "a folder":
            raise UserError(f"ncu path {explicit!r} is a folder, not the ncu executable {where}")
        if fault:
            raise UserError(f"ncu at {explicit!r} is not executable (chmod +x it, or give another) {where}")
        raise UserError(f"ncu not found at {explicit!r} {where}")
    found = shutil.which("ncu")
    if found:
        return found, "PATH"
    for pattern in NCU_SEARCH:
        hits = sorted(glob.glob(pattern), reverse=True)
        if hits:
            return hits[0], "search"
    raise UserError("ncu not found on PATH nor in /usr/local/cuda*/bin or /opt/nvidia/nsight-compute/*; "
                    "pass --ncu-path or set INDUCTOR_PROF_NCU")


# the extra with NVIDIA's .ncu-rep reader (pyproject.toml); the gpu extra includes it
NCU_EXTRA = "ncu"
READER_MISSING = f"reading .ncu-rep files needs NVIDIA's ncu-report: pip install 'inductor-prof[{NCU_EXTRA}]'"


def shipped_copy() -> str | None:
    """The folder of the ncu_report copy an ncu install ships in extras/python, or None."""
    candidates = [os.path.join(os.path.dirname(os.path.realpath(p)), "extras", "python")
                  for p in filter(None, [shutil.which("ncu")])]
    candidates += sorted(glob.glob("/opt/nvidia/nsight-compute/*/extras/python"), reverse=True)
    candidates += sorted(glob.glob("/usr/local/cuda*/nsight-compute*/extras/python"), reverse=True)
    return next((path for path in candidates if os.path.isfile(os.path.join(path, "ncu_report.py"))), None)


def _installed() -> bool:
    try:
        return importlib.util.find_spec("ncu_report") is not None
    except (ImportError, ValueError):   # a finder that refuses it; a module half-set-up in sys.modules
        return False


def reader_found() -> bool:
    """Can .ncu-rep files be read here (the PyPI package, or ncu's own copy)? Found without importing it: the
    reader runs in a child process (report.py says why)."""
    return _installed() or shipped_copy() is not None


def import_ncu_report():
    """NVIDIA's ncu_report: the PyPI package, else the copy every ncu install ships in extras/python."""
    try:
        import ncu_report
        return ncu_report
    except ImportError:
        pass
    path = shipped_copy()
    if path is None:
        raise UserError(READER_MISSING)
    sys.path.insert(0, path)
    return importlib.import_module("ncu_report")
