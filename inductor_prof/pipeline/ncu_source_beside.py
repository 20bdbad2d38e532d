"""The source pass beside the metric pass (`profile --ncu`): stage `ncu_source_start` starts
`python -m inductor_prof.pipeline.ncu_source_beside RUN --settings JSON` before the metric pass; that process
chooses the kernels with the most headroom from the timed steps (the metric pass has not run yet) and runs the
source pass (ncu_source.collect), its outcome in RUN/ncu/source/beside.json. Stage `ncu_source` waits for it.

Two ncu processes at once: ncu serialises the kernel launches of every process it profiles, across its
instances (its lock file), so no kernel of one runs inside another's measurement; their start-up, loading and
report writing (~9 s of the source pass's ~12 s on the H100) overlap. A process that fails leaves the stage to
run the pass again, after the metric pass, in the profile's own process (resumable: what it recorded is kept).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from .. import procs, rundir, runfiles
from ..childenv import child_env
from ..signals import sigterm_as_interrupt
from ..errors import EXIT_USER, UserError
from ..settings import Settings
from . import ncu_source

NOTE = "ncu_source: "   # the lines of its log the profile shows too


def timeout_s(settings: Settings) -> float:
    """How long the process may take: each of its kernels' load and profile steps, and its start, get the
    per-kernel ncu timeout (a name Inductor gave two kernels has two replays)."""
    return settings.ncu_timeout * (2 * 2 * max(1, settings.ncu_source_kernels) + 1)


def start(ctx) -> dict:
    """Stage `ncu_source_start`: the source pass's process, started before the metric pass."""
    settings = ctx.opts.settings
    if settings.ncu_source_kernels <= 0 or not settings.ncu_source_beside:
        return {"started": False}   # the stage runs the pass after the metric pass
    ctx.run.ncu_source_beside_json.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", __name__, str(ctx.run.root), "--settings", json.dumps(asdict(settings))]
    ctx.ncu_source_beside = procs.Background(cmd, child_env(), ctx.run.ncu_source_beside_log, timeout_s(settings))
    ctx.on_exit(ctx.ncu_source_beside.end)
    return {"log": str(ctx.run.ncu_source_beside_log.relative_to(ctx.run.root))}


def run(ctx) -> dict:
    """Stage `ncu_source`: the outcome of the process started beside the metric pass; the pass in this process
    when none was started, or it failed (said in `beside`). Skipped, the process ended, when the metric pass
    failed (ncu_source.run says so)."""
    child = ctx.ncu_source_beside
    if child is None or not ncu_source.metric_pass_ok(ctx):
        if child is not None:
            child.end()
        return ncu_source.run(ctx)
    done = child.wait()
    log_path = ctx.run.ncu_source_beside_log
    text = log_path.read_text(errors="replace") if log_path.exists() else ""
    for line in text.splitlines():
        if line.startswith(NOTE):
            ctx.log(line[len(NOTE):])
    outcome = runfiles.if_present(ctx.run.ncu_source_beside_json, runfiles.json_object,
                                  "the source pass beside the metric pass wrote it") if done.ok else None
    relative = str(log_path.relative_to(ctx.run.root))
    if outcome is None:
        why = f"{done.why(timeout_s(ctx.opts.settings))}; {relative}" if not done.ok else f"no outcome; {relative}"
        ctx.log(f"the source pass beside the metric pass failed ({why}): running it now")
        return {**ncu_source.run(ctx), "beside": f"failed ({why}): ran after the metric pass"}
    return ncu_source.recorded_any({**outcome, "beside": "ran beside the metric pass", "log": relative})


def main(argv: list[str]) -> int:
    """The process: the kernels chosen, the pass run, its outcome written. Bad input (no ncu, no permission, a
    damaged run file) is one line and exit 2; SIGTERM ends its ncu like Ctrl-C."""
    parser = argparse.ArgumentParser(prog=f"python -m {__name__}")
    parser.add_argument("run")
    parser.add_argument("--settings", required=True, help="the profile's settings, as JSON")
    args = parser.parse_args(argv[1:])
    settings = Settings(**json.loads(args.settings))
    with sigterm_as_interrupt():
        try:
            run_dir = rundir.open_run(args.run)
            chosen = ncu_source.automatic(run_dir, settings, profiled_only=False)
            print(f"{NOTE}Nsight Compute source counters of {len(chosen)} kernels (the most headroom), "
                  "beside the metric pass", flush=True)
            outcome = ncu_source.collect(run_dir, settings, chosen, lambda line: print(NOTE + line, flush=True)) \
                if chosen else {"kernels": 0}
        except UserError as e:
            print(f"error: {e}", file=sys.stderr)
            return EXIT_USER
    rundir.write_json(run_dir.ncu_source_beside_json, outcome)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
