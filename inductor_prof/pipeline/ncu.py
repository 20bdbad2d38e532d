"""Stage `ncu`: Nsight Compute over each unique kernel of the run (drivers/ncu/stage.py does the work; the
`ncu` command runs the same over an existing run folder)."""
from __future__ import annotations

from ..drivers.ncu.stage import run_ncu


def run(ctx) -> dict:
    ctx.log("Nsight Compute over each unique kernel")
    return run_ncu(ctx.run, ctx.opts.settings, log=ctx.log, on_kernel=ctx.ncu_progress)
