"""Stages `plain_steps`, `proton_steps` and `annotated_step`: the compiled model timed plainly, under Proton
(CUPTI, no launch hook: a scope per step and per block), and one step with the launch hook (flops/bytes).

The annotated step is a pass of its own because Proton's launch hook costs host time on every launch, while
the timed steps run at the plain speed. Each Proton stage then stores its hatchet's kernel rows as a launches
table, which `report` reads instead of the hatchet.

Two step times, plain and under Proton alike: `*_step_ms`, the wall time of a step with a host sync before
and after (what the report shows), and `*_back_to_back_ms`, GPU time per step with the steps queued back to
back (CUDA events, as a model runs in a loop), where host time per launch hides while the CPU runs ahead.
The back-to-back steps under Proton run in a discarded session: the kept hatchet holds the timed steps only."""
from __future__ import annotations

import statistics

from ..drivers import proton


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def plain(ctx) -> dict:
    ctx.log(f"timing {ctx.opts.steps} plain steps")
    ms = proton.timed_steps(ctx.target, ctx.opts.steps, on_step=ctx.step_progress)
    b2b = proton.back_to_back_steps(ctx.target, ctx.opts.steps)
    ctx.profile.update(plain_step_ms=_median(ms), plain_back_to_back_ms=_median(b2b))
    return {"step_ms": ms, "back_to_back_ms": b2b}


def under_proton(ctx) -> dict:
    ctx.log(f"profiling {ctx.opts.steps} steps under Proton")
    with proton.session(ctx.run.steps_hatchet, hook=None):
        ms = proton.timed_steps(ctx.target, ctx.opts.steps, scope_prefix="step_", on_step=ctx.step_progress)
    proton.launches.write(ctx.run.steps_hatchet, ctx.run.steps_launches)
    with proton.discarded_session():
        b2b = proton.back_to_back_steps(ctx.target, ctx.opts.steps, scope_prefix="step_")
    ctx.profile.update(proton_step_ms=_median(ms), proton_over_plain=_median(ms) / ctx.profile["plain_step_ms"],
                       proton_back_to_back_ms=_median(b2b),
                       proton_over_plain_back_to_back=_median(b2b) / ctx.profile["plain_back_to_back_ms"])
    ctx.manifest.set("profile", ctx.profile)
    return {"step_ms": ms, "back_to_back_ms": b2b}


def annotated(ctx) -> dict:
    ctx.log("profiling one annotated step (flops/bytes per launch)")
    with proton.session(ctx.run.annotated_hatchet, hook="triton"):
        ms = proton.timed_steps(ctx.target, 1, scope_prefix="annotated_step_")[0]
    proton.launches.write(ctx.run.annotated_hatchet, ctx.run.annotated_launches)
    ctx.profile["annotated_step_ms"] = ms
    ctx.manifest.set("profile", ctx.profile)
    return {"step_ms": ms}
