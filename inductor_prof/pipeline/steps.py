"""Stages `plain_steps`, `proton_steps` and `annotated_step`: the compiled model timed plainly, under Proton
(CUPTI, no launch hook: a scope per step and per block), and one step with the launch hook (flops/bytes).

The annotated step is a pass of its own because Proton's launch hook costs host time on every launch, while
the timed steps run at the plain speed. Each Proton stage then stores its hatchet's kernel rows as a launches
table, which `report` reads instead of the hatchet."""
from __future__ import annotations

import statistics

from ..drivers import proton


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def plain(ctx) -> dict:
    ctx.log(f"timing {ctx.opts.steps} plain steps")
    ms = proton.timed_steps(ctx.target, ctx.opts.steps, on_step=ctx.step_progress)
    ctx.profile["plain_step_ms"] = _median(ms)
    return {"step_ms": ms}


def under_proton(ctx) -> dict:
    ctx.log(f"profiling {ctx.opts.steps} steps under Proton")
    with proton.session(ctx.run.steps_hatchet, hook=None):
        ms = proton.timed_steps(ctx.target, ctx.opts.steps, scope_prefix="step_", on_step=ctx.step_progress)
    proton.launches.write(ctx.run.steps_hatchet, ctx.run.steps_launches)
    ctx.profile.update(proton_step_ms=_median(ms), proton_over_plain=_median(ms) / ctx.profile["plain_step_ms"])
    ctx.manifest.set("profile", ctx.profile)
    return {"step_ms": ms}


def annotated(ctx) -> dict:
    ctx.log("profiling one annotated step (flops/bytes per launch)")
    with proton.session(ctx.run.annotated_hatchet, hook="triton"):
        ms = proton.timed_steps(ctx.target, 1, scope_prefix="annotated_step_")[0]
    proton.launches.write(ctx.run.annotated_hatchet, ctx.run.annotated_launches)
    ctx.profile["annotated_step_ms"] = ms
    ctx.manifest.set("profile", ctx.profile)
    return {"step_ms": ms}
