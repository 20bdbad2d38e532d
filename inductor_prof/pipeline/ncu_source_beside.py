"""The source pass beside the metric pass (`profile --ncu`): stage `ncu_source_start` starts a worker
(`python -m inductor_prof.worker SPEC`, an NcuSourceBesideSpec with the settings whole, `work`) before the metric
pass; that process chooses the kernels with the most headroom from the timed steps (the metric pass has not run
yet) and runs the source pass (ncu_source.collect), its outcome its result event, its lines note events. Stage
`ncu_source` waits for it.

Two ncu processes at once: ncu serialises the kernel launches of every process it profiles, across its
instances (its lock file), so no kernel of one runs inside another's measurement; their start-up, loading and
report writing (~9 s of the source pass's ~12 s on the H100) overlap. A process that fails leaves the stage to
run the pass again, after the metric pass, in the profile's own process (resumable: what it recorded is kept).
"""
from __future__ import annotations

from .. import procs, rundir
from ..settings import Settings
from ..specs import NcuSourceBesideSpec
from . import ncu_source

NOTE = "ncu_source: "   # the lines of its log the profile shows too


def timeout_s(settings: Settings) -> float:
    """How long the process may take: each of its kernels' load and profile steps, and its start, get the
    per-kernel ncu timeout (a name Inductor gave two kernels has two replays)."""
    return settings.ncu_timeout * (2 * 2 * max(1, settings.ncu_source_kernels) + 1)


def start(ctx) -> tuple[dict, procs.Worker | None]:
    """Stage `ncu_source`'s Start `ncu_source_start` (stages.py): the source pass's process, started before the
    metric pass."""
    settings = ctx.opts.settings
    if settings.ncu_source_kernels <= 0 or not settings.ncu_source_beside:
        return {"started": False}, None   # the stage runs the pass after the metric pass
    spec = NcuSourceBesideSpec(settings=settings, run=str(ctx.run.root))
    child = procs.Worker(spec, ctx.run.ncu_source_beside_log, timeout_s(settings))
    return {"log": str(ctx.run.ncu_source_beside_log.relative_to(ctx.run.root))}, child


def run(ctx) -> dict:
    """Stage `ncu_source`: the outcome of the process started beside the metric pass; the pass in this process
    when none was started, or it failed (said in `beside`). Skipped, the process ended, when the metric pass
    failed (ncu_source.run says so)."""
    child = ctx.started.get("ncu_source_start")
    if child is None or not ncu_source.metric_pass_ok(ctx):
        if child is not None:
            child.end()
        return ncu_source.run(ctx)
    done = child.wait()
    for line in done.notes:
        ctx.log(line)
    relative = str(ctx.run.ncu_source_beside_log.relative_to(ctx.run.root))
    if not done.ok or not isinstance(done.result, dict):
        why = f"{done.why()}; {relative}"
        ctx.log(f"the source pass beside the metric pass failed ({why}): running it now")
        return {**ncu_source.run(ctx), "beside": f"failed ({why}): ran after the metric pass"}
    outcome = done.result
    return ncu_source.recorded_any({**outcome, "beside": "ran beside the metric pass", "log": relative})


def work(spec: NcuSourceBesideSpec, events) -> dict:
    """The process (worker.py, kind `ncu_source_beside`): the kernels chosen, the pass run, its outcome returned.
    Bad input (no ncu, no permission, a damaged run file) is a UserError: one line and exit 2."""
    run_dir = rundir.open_run(spec.run)

    def note(line: str) -> None:
        print(NOTE + line, flush=True)   # the log keeps them too
        events.note(line)
    chosen = ncu_source.automatic(run_dir, spec.settings, profiled_only=False)
    note(f"Nsight Compute source counters of {len(chosen)} kernels (the most headroom), beside the metric pass")
    return ncu_source.collect(run_dir, spec.settings, chosen, note) if chosen else {"kernels": 0}
