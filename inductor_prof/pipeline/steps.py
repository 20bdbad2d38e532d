"""Stages `plain_steps`, `proton_steps` and `annotated_step`: the compiled model timed plainly, under Proton
(CUPTI, no launch hook: a scope per step and per block), and one step with the launch hook (flops/bytes).

The annotated step is a pass of its own because Proton's launch hook costs host time on every launch, while
the timed steps run at the plain speed. Each Proton stage then stores its hatchet's kernel rows as a launches
table, which `report` reads instead of the hatchet.

Two step times, plain and under Proton alike: `*_step_ms`, the wall time of a step with a host sync before
and after (what the report shows), and `*_back_to_back_ms`, GPU time per step with the steps queued back to
back (CUDA events, as a model runs in a loop), where host time per launch hides while the CPU runs ahead.
The back-to-back steps under Proton run in a discarded session: the kept hatchet holds the timed steps only.

A run of several input sizes times each size in turn, under a Proton scope named after it (above step_<i>);
its "step" is then one pass over every size: the manifest keeps the sum of the sizes' medians, and each
size's own under profile.sizes."""
from __future__ import annotations

import time

from ..analysis import telemetry
from ..analysis.experiment_plan import uses_cuda_graphs
from ..drivers import proton
from ..drivers.nvml import Telemetry
from ..steptime import median_ms, step_ms

Times = dict  # size name (None: a run of one size) -> wall ms per step
TELEMETRY_S = 1.0       # the clock and power window: back-to-back steps for at least this long ...
TELEMETRY_ROUNDS = 50   # ... in at most this many more rounds of --steps steps


def timed(ctx, n: int, scope_prefix: str | None = None, progress: bool = True,
          back_to_back: bool = False) -> Times:
    """n timed steps at each size, under its size scope when Proton scopes are asked for; back to back: GPU
    ms per step with no host sync between steps (proton.back_to_back_steps)."""
    sizes = ctx.target.each_size()
    out: Times = {}
    for k, (size, step) in enumerate(sizes):
        on_step = None
        if progress and ctx.step_progress:   # the bar counts n steps over all sizes
            def on_step(i, k=k):
                ctx.step_progress((k * n + i) // len(sizes))
        with proton.size_scope(size if scope_prefix is not None else None):
            if back_to_back:
                out[size] = proton.back_to_back_steps(step, n, scope_prefix=scope_prefix)
            else:
                out[size] = proton.timed_steps(step, n, scope_prefix=scope_prefix, on_step=on_step)
    return out


def record(ctx, key: str, times: Times) -> dict:
    """profile[key]: the median step (a pass over every size); per size under profile["sizes"]. Returns the
    stage's manifest entry: the steps (per pass), and per size."""
    ctx.profile[key] = step_ms(times)
    if None in times:
        return {"step_ms": times[None]}
    for size, ms in times.items():
        ctx.profile.setdefault("sizes", {}).setdefault(size, {})[key] = median_ms(ms)
    return {"step_ms": [sum(step) for step in zip(*times.values())], "step_ms_by_size": times}


def any_rank(wants_more: bool) -> bool:
    """Whether any rank of a --nproc run wants another round (one process: its own wish). Each rank times its own
    window: a rank going on alone would issue a step's collectives (DDP's gradient all-reduce, FSDP's gathers) that
    no other rank meets, and hang. Every rank calls it once a round, so the ranks agree on each round together."""
    from .link import world_size

    if world_size() < 2:
        return wants_more
    import torch
    import torch.distributed as dist

    flag = torch.tensor([int(wants_more)], device="cuda" if torch.cuda.is_available() else "cpu")
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    return bool(flag.item())


def plain(ctx) -> dict:
    ctx.log(f"timing {ctx.opts.steps} plain steps")
    info = record(ctx, "plain_step_ms", timed(ctx, ctx.opts.steps))
    # clock and power sampled while the steps run back to back (the GPU busy, as in a model's loop); a sampling
    # thread beside the synchronised steps would take host time from their launches
    with Telemetry() as gpu:
        start = time.perf_counter()
        b2b = record(ctx, "plain_back_to_back_ms", timed(ctx, ctx.opts.steps, progress=False, back_to_back=True))
        # NVML's power reading trails by about a second and its energy counter steps coarsely (it did not move
        # over MoE's 45 ms of steps on an H200): the same steps again until the window is long enough to read
        for _ in range(TELEMETRY_ROUNDS):
            if not any_rank(time.perf_counter() - start < TELEMETRY_S):
                break
            timed(ctx, ctx.opts.steps, progress=False, back_to_back=True)
    ctx.profile["gpu_telemetry"] = telemetry.summarize(gpu.samples, gpu.power_limit_w, gpu.max_sm_mhz, gpu.error,
                                                       gpu.energy_w)
    return {**info, "back_to_back_ms": b2b["step_ms"]}


def under_proton(ctx) -> dict:
    ctx.log(f"profiling {ctx.opts.steps} steps under Proton")
    with proton.session(ctx.run.steps_hatchet, hook=None):
        times = timed(ctx, ctx.opts.steps, scope_prefix="step_")
    proton.launches.write(ctx.run.steps_hatchet, ctx.run.steps_launches)
    info = record(ctx, "proton_step_ms", times)
    with proton.discarded_session():
        b2b = record(ctx, "proton_back_to_back_ms",
                     timed(ctx, ctx.opts.steps, scope_prefix="step_", progress=False, back_to_back=True))
    ctx.profile["proton_over_plain"] = ctx.profile["proton_step_ms"] / ctx.profile["plain_step_ms"]
    ctx.profile["proton_over_plain_back_to_back"] = (ctx.profile["proton_back_to_back_ms"]
                                                     / ctx.profile["plain_back_to_back_ms"])
    ctx.manifest.set("profile", ctx.profile)
    return {**info, "back_to_back_ms": b2b["step_ms"]}


def annotated(ctx) -> dict:
    ctx.log("profiling one annotated step (flops/bytes per launch)")
    graphs = uses_cuda_graphs(ctx.opts.compile.mode)
    with proton.session(ctx.run.annotated_hatchet, hook="triton"):
        times = timed(ctx, 1, scope_prefix="annotated_step_", progress=False)
    proton.launches.write(ctx.run.annotated_hatchet, ctx.run.annotated_launches)
    info = record(ctx, "annotated_step_ms", times)
    ctx.manifest.set("profile", ctx.profile)
    return {"step_ms": info["step_ms"][0], **({"cuda_graphs": GRAPH_REPLAYS_UNANNOTATED} if graphs else {})}


# Measured on an H200 (reduce-overhead, the decoder and the UNet, 2026-11-28): a graph replay launches no kernel
# through Triton's launcher, so its launch hook never gives the Inductor kernels' flops and bytes (0% of their
# time annotated); forgetting the graph trees first so the step ran as their warm-up failed the stage and the
# next ("Running CUDAGraph after shutdown"). Proton's times and block scopes and torch.profiler's library calls
# were right in the replays (scripts/check_graph_attribution.py). So the warm-up records the launches' work before
# the graphs replay (inductor/launch_record.py) and the report attaches it (analysis/graph_prices.py); this text is
# the warning of a run without that record.
GRAPH_REPLAYS_UNANNOTATED = ("CUDA graph replays launch no kernel through Triton's launcher: the Inductor kernels "
                             "have no flops or bytes unless priced from the launches recorded before the replays "
                             "(proton/recorded_launches.json)")
