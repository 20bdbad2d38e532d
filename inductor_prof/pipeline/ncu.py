"""Stage `ncu`: Nsight Compute over each unique kernel of the run (drivers/ncu/stage.py does the work; the
`ncu` command runs the same over an existing run folder, recorded in its manifest like a stage). A run of
several input sizes gets each unique kernel once, at the first size: Inductor kernels with the sizes their
file was compiled for (with --dynamic the first size's), library kernels from their first size's op."""
from __future__ import annotations

from typing import Callable

from .. import rundir
from ..drivers.ncu import stage
from ..drivers.ncu.locate import find_ncu
from ..settings import Settings


def at_size(profile: dict) -> dict:
    """{"at_size": the first input size} for a run of several sizes (what the ncu numbers stand for), else {}."""
    sizes = list(profile.get("sizes") or {})
    return {"at_size": sizes[0]} if sizes else {}


def run(ctx) -> dict:
    ctx.log("Nsight Compute over each unique kernel")
    info = stage.run_ncu(ctx.run, ctx.opts.settings, log=ctx.log, on_kernel=ctx.ncu_progress)
    return {**info, **at_size(ctx.profile)}


def on_existing_run(run_dir: rundir.RunDir, settings: Settings, log: Callable[[str], None],
                    on_kernel: Callable[[int, int, str], None] | None = None) -> dict:
    """`inductor-prof ncu RUN`: the stage again, its outcome (failure and interruption too) in the manifest.
    No ncu to run is bad input, not an outcome: it fails before the manifest is touched, so an earlier ncu
    stage's record (and the tables it made) still stands."""
    find_ncu(settings.ncu)
    with rundir.Manifest.of(run_dir).stage("ncu") as info:
        info.update(stage.run_ncu(run_dir, settings, log=log, on_kernel=on_kernel))
        info.update(at_size(run_dir.read_manifest().get("profile") or {}))
    return info
