"""Stage `ncu`: Nsight Compute over each unique kernel of the run (drivers/ncu/stage.py does the work; the
`ncu` command runs the same over an existing run folder, recorded in its manifest like a stage)."""
from __future__ import annotations

from typing import Callable

from .. import rundir
from ..drivers.ncu import stage
from ..settings import Settings


def run(ctx) -> dict:
    ctx.log("Nsight Compute over each unique kernel")
    return stage.run_ncu(ctx.run, ctx.opts.settings, log=ctx.log, on_kernel=ctx.ncu_progress)


def on_existing_run(run_dir: rundir.RunDir, settings: Settings, log: Callable[[str], None],
                    on_kernel: Callable[[int, int, str], None] | None = None) -> dict:
    """`inductor-prof ncu RUN`: the stage again, its outcome (failure and interruption too) in the manifest."""
    with rundir.Manifest.of(run_dir).stage("ncu") as info:
        info.update(stage.run_ncu(run_dir, settings, log=log, on_kernel=on_kernel))
    return info
