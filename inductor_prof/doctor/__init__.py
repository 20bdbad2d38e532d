"""`inductor-prof doctor`: can this machine run `profile --ncu`? One row per check (check.py): the GPU probes
run in child processes (gpu.py) and become rows (gpu_rows.py); the rest run from here (host.py)."""
from __future__ import annotations

import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Callable

from ..envinfo import driver_version, importable
from ..settings import Settings
from . import bytecode, gpu, gpu_rows, host
from .check import FAIL, SKIP, Check


def run_all(settings: Settings, origin: dict[str, str], out: Path,
            on_check: Callable[[str], None] = lambda name: None) -> list[Check]:
    """Every check, in the order shown; `on_check(name)` before each slow one."""
    with tempfile.TemporaryDirectory(prefix="inductor-prof-doctor-", ignore_cleanup_errors=True) as tmp:
        work = Path(tmp)
        on_check("GPU and driver")
        # the light install has no torch to look for the GPU with: no child process, the rows say so
        cuda = gpu.run_probe("cuda", work) if importable("torch") else gpu_rows.NO_TORCH
        driver = driver_version()
        rows = [gpu_rows.gpu_and_driver(cuda, driver), gpu_rows.cuda_runtime(cuda, driver), *host.versions(),
                bytecode.check()]
        found = {}
        for probe in ("proton", "inductor", "sdpa"):
            on_check(probe)
            found[probe] = gpu.run_probe(probe, work) if gpu_rows.has_gpu(cuda) else None
        rows += [gpu_rows.proton(found["proton"]), gpu_rows.inductor(found["inductor"]),
                 gpu_rows.cudnn_sdpa(found["sdpa"])]
        on_check("ncu")
        ncu_row, ncu = host.ncu_found(settings, origin)
        sudo_row = host.sudo_usable(settings)
        if ncu is None:
            counters = Check("ncu counters", SKIP, "no ncu to run")
        elif not gpu_rows.has_gpu(cuda):
            counters = Check("ncu counters", SKIP, gpu_rows.NO_GPU)
        else:
            on_check("ncu counters")
            counters = host.ncu_counters(settings, ncu, work)
        rows += [ncu_row, sudo_row, counters, host.free_disk(out)]
    return rows


def ready(checks: list[Check]) -> bool:
    """Would `profile --ncu` run? (no check failed)"""
    return not any(c.status == FAIL for c in checks)


def as_json(checks: list[Check]) -> dict:
    from .. import __version__

    return {"inductor_prof": __version__, "python": sys.version.split()[0], "profile_ncu_ready": ready(checks),
            "checks": [asdict(c) for c in checks]}
