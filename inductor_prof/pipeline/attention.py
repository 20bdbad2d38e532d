"""Stage `attention`, and the `attention` command's one entry point: every attention backend at the model's
captured attention shapes (or shapes given by hand), results saved into the run folder.

The stage runs `work` in a worker process of its own (`python -m inductor_prof.worker SPEC`, an AttentionSpec
with the settings whole): torch.profiler holds this process's CUPTI, and a crash in a hand-written kernel must
not take the profile with it. With --ncu that process starts before ncu (`precompile`, `wait_for_go`): it
compiles the own kernels' configs while ncu measures, at a lower CPU priority (priority.py), then waits for the
stage to say go (its stdin), and runs the stage without a second start-up. It tells the profile what it did
as events (events.py): the phases `precompiled` and `went on`, its notes, the summary as its result; the
profile alone records it in the manifest.
Saved: attention.csv (one row per backend x shape), attention_tuning.csv (every tile config tried),
proton/attention.hatchet, and the FlexAttention kernels Inductor generated under attention/kernels/. The stage
leaves the teaching backends out (registry.TEACHING) unless the attention_teaching setting is on; the own
kernels' tuning goes through the user's tuning cache (attention/tuning_cache.py).
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable, Sequence

import pandas as pd

from .. import procs, rundir, runfiles
from ..analysis.roofline import judge_attention
from ..attention.benchmark.bench import FORWARD, TRAINING, BenchOptions, proton_pass, run as run_bench
from ..attention.benchmark.registry import TEACHING, backends as all_backends, stage_names
from ..attention.semantics.shapes import Shape, from_calls
from ..errors import UserError, one_line
from ..envinfo import require_cuda
from ..inductor.cache import isolated_cache
from ..inductor.output_code import harvest_texts, output_code_texts
from ..peaks import Peaks
from ..priority import at_lower_priority
from ..settings import Settings
from ..specs import AttentionSpec, CudaBuildSpec
from .attention_backward import grad_layouts, is_training, probe, qkv_layouts
from .harvest import this_process, write_kernels
from . import written

TIMEOUT_S = 1200   # the stage's process, from the stage's start
PRECOMPILE_TIMEOUT_S = 600   # its configs compiled ahead (about 13-17 s at FLUX's shape): stuck past this, it is ended
BUILD_TIMEOUT_S = 600   # the CUDA kernel's build: about 25 s on the H100 machine's 16 cores; a stuck nvcc ends here
BUILT_BY = "cuda_mma_fa2"   # the backend whose kernel is C++ built at first use (kernels/cuda_fa.py)
# the phases the stage's process says around the wait: what it compiled ahead, and that it went on
PRECOMPILED, WENT_ON = "precompiled", "went on after ncu"


def start_build(run_dir: rundir.RunDir, settings: Settings) -> procs.Worker | None:
    """The own CUDA kernel's build (once per machine, cached by cpp_extension; a no-op check after), started at
    the profile's start so that it overlaps the compile and the timed steps instead of adding to the attention
    stage; None when the stage will not run that backend or this machine has no CUDA toolkit to build it."""
    if BUILT_BY not in stage_names(settings.attention_teaching):
        return None
    import torch
    from torch.utils.cpp_extension import CUDA_HOME

    if CUDA_HOME is None or not torch.cuda.is_available():
        return None
    return procs.Worker(CudaBuildSpec(settings=settings), run_dir.attention_build_log, BUILD_TIMEOUT_S)


def build_early(ctx) -> tuple[dict, procs.Worker | None]:
    """The attention stage's Start at the run's start (stages.py): the own CUDA kernel's build."""
    return {}, start_build(ctx.run, ctx.opts.settings)


NO_CALLS = "no attention calls captured: skipped"


def no_calls(run_dir: rundir.RunDir) -> bool:
    """Whether the model ran no attention call: attention_shapes.json there and empty (missing or damaged: the
    stage runs and says why it cannot)."""
    try:
        return runfiles.attention_calls_file(run_dir.attention_shapes_json) == []
    except Exception:  # noqa: BLE001  the stage's own run says what is wrong with the file
        return False


def start_precompile(ctx) -> tuple[dict, procs.Worker | None]:
    """Stage `attention_precompile` (with --ncu): the attention stage's process started now (`precompile`,
    `wait_for_go`): it compiles the own kernels' tile configs (benchmark/precompile.py: nothing runs on the GPU)
    while ncu measures, then waits for the attention stage, after ncu, to say go."""
    if no_calls(ctx.run):
        return {"skipped": NO_CALLS}, None
    spec = AttentionSpec(settings=ctx.opts.settings, run=str(ctx.run.root), precompile=True, wait_for_go=True)
    child = procs.Worker(spec, ctx.run.attention_log, TIMEOUT_S, stdin=True)
    return {"log": str(ctx.run.attention_log.relative_to(ctx.run.root))}, child


def run(ctx) -> dict:
    if no_calls(ctx.run):   # a model without attention (a convolutional net, an MLP stack): nothing to time
        ctx.log(f"attention: {NO_CALLS}")
        return {"skipped": NO_CALLS}
    info = {}
    build = ctx.started.get("cuda_build")
    if build is not None:   # cpp_extension's lock would make the stage wait anyway: said here
        done = build.wait()
        info["cuda_build"] = f"{done.finished.seconds:.1f} s, overlapping the earlier stages" if done.ok else \
            f"failed ({done.why()}; {ctx.run.attention_build_log}): the stage builds it again"
    ctx.log("benchmarking attention backends at the model's attention shapes (own process)")
    done = None
    if ctx.started.get("attention_precompile") is not None:
        done = went_on(ctx.run, ctx.started["attention_precompile"], info)
    if done is None:
        done = in_subprocess(ctx.run, ctx.opts.settings)
    summary = done.pop("summary", {})
    for line in done["notes"]:
        ctx.log(line)
    return {**summary, **info, **done}


def went_on(run_dir: rundir.RunDir, child: procs.Worker, info: dict) -> dict | None:
    """The stage run by the process started before ncu (start_precompile): told to go on, waited for; what it
    compiled ahead goes into `info`. None when it ended before it went on (a crash, the configs' compiles
    stuck): said in `info`, its log kept as precompile.log, and the stage is run in a fresh process."""
    # still compiling: its compiles get their time, and no more
    stuck = not child.wait_for("phase", PRECOMPILE_TIMEOUT_S, name=PRECOMPILED) and child.proc.poll() is None
    if stuck:
        child.end()   # the fresh process below compiles what it needs
    child.go()
    done = child.wait(TIMEOUT_S)
    ahead = [str(e.get("detail", "")) for e in done.seen("phase") if e.get("name") == PRECOMPILED]
    if ahead:
        info["precompile"] = ahead[-1][:300]
    if any(e.get("name") == WENT_ON for e in done.seen("phase")):
        return outcome(run_dir, done)
    assert child.log_path is not None   # start_precompile keeps its output (attention.log)
    if child.log_path.exists():
        os.replace(child.log_path, run_dir.attention_precompile_log)
    why = f"no configs compiled after {PRECOMPILE_TIMEOUT_S} s, ended" if stuck else done.why()
    info["precompile"] = f"failed ({why}; {run_dir.attention_precompile_log}): the stage ran in a fresh process"
    return None


# the stage's notes as `profile` shows them, and its log keeps them
NOTE = "attention: "


def in_subprocess(run_dir: rundir.RunDir, settings: Settings | None = None) -> dict:
    """`work` in a fresh worker process; its output kept in attention/attention.log. A hang, Ctrl-C or SIGTERM
    ends it with its process group (its compile workers too)."""
    spec = AttentionSpec(settings=settings or Settings(), run=str(run_dir.root))
    return outcome(run_dir, procs.run_worker(spec, run_dir.attention_log, TIMEOUT_S))


def outcome(run_dir: rundir.RunDir, done: procs.WorkerOutcome) -> dict:
    """The stage's process, ended as `done` says: its summary (what the manifest keeps of the stage), notes
    and last line, or the failure (RuntimeError): its error, or how it ended and the log's last lines."""
    if not done.ok:
        raise RuntimeError(f"attention benchmark: {done.failure()}")
    value = done.result or {}
    assert done.log_path is not None   # the stage's worker keeps its output (attention.log)
    return {"summary": value.get("summary") or {}, "log": str(done.log_path.relative_to(run_dir.root)),
            "last_line": str(value.get("last_line", ""))[:300], "notes": [NOTE + n[:500 - len(NOTE)] for n in done.notes]}


def run_shapes(run_dir: rundir.RunDir, extra: Sequence[Shape] = ()) -> list[tuple[Shape, int, str]]:
    """The run's captured shapes (calls per step, the op the model used), then `extra` ones not among them."""
    shapes = runfiles.if_present(run_dir.attention_shapes_json, lambda p: from_calls(runfiles.attention_calls_file(p)),
                                 "profile the model again, or benchmark shapes alone (`attention --shape ...`, no "
                                 "run folder)") or []
    shapes += [(s, 0, "") for s in extra if s not in {x for x, _, _ in shapes}]
    if not shapes:
        raise UserError(f"{run_dir.root} has no captured attention calls ({run_dir.attention_shapes_json.name}) "
                        "and no --shape was given")
    return shapes


def machine_peaks(ceilings: dict | None = None) -> Peaks:
    """This machine's peaks (peaks.run_peaks: computed from its GPU's own facts), with a run's measured
    ceilings where given: what the run's report judges its attention rows against."""
    from ..envinfo import device_facts
    from ..peaks import run_peaks

    return run_peaks(device_facts(), ceilings)


def benchmark(run_dir: rundir.RunDir | None, shapes: list[Shape], opts: BenchOptions,
              on_backend: Callable[[int, int, str], None] | None = None,
              model_op: str = "", settings: Settings | None = None) -> tuple[pd.DataFrame, dict]:
    """(one row per backend x shape, summary). With a run folder: at its captured shapes plus `shapes`, saved
    there; without: at `shapes` alone, nothing saved, speed-ups over the backend of `model_op` (default SDPA)."""
    if run_dir is None:
        if not shapes:
            raise UserError("give a run folder (its captured shapes) or at least one --shape B,H,S,D")
        result = run_bench([(s, 0, model_op) for s in shapes], opts, on_backend)
        # % of peak by the one rule (roofline.judge_attention), against this machine's peaks
        return judge_attention(pd.DataFrame(result.rows), machine_peaks()), {"rows": len(result.rows), "ok": sum(bool(r["ok"]) for r in result.rows),
                                           "tuning": result.tuning, **_notes(result, opts)}
    manifest = runfiles.manifest(run_dir, "the attention stage needs it")
    opts.reuse = False   # the command times again what it is asked to (and stores it); the stage reuses
    live = rundir.Manifest.of(run_dir, manifest)
    with live.stage("attention") as info:   # its outcome in the run, a failure too
        try:
            opts.qkv_layouts = qkv_layouts(run_dir)   # every row runs q, k, v as the model's call had them
            training(manifest, run_dir, opts, settings)
            rows, summary = _into_run(run_dir, shapes, opts, on_backend, machine_peaks(manifest.get("ceilings")))
        finally:   # Proton's hatchet, the FlexAttention kernels' list, a failed call's too
            written.record(live, "attention")
        info.update(summary)
    return rows, summary


def training(manifest: dict, run_dir: rundir.RunDir, opts: BenchOptions, settings: Settings | None) -> bool:
    """A training run's stage also times forward+backward (attention_backward.py), each backend's call probed
    in a process apart first: `opts` set so; whether it is one."""
    if not is_training(manifest):
        return False
    opts.backward = True
    captured = runfiles.if_present(run_dir.attention_shapes_json,
                                   lambda p: from_calls(runfiles.attention_calls_file(p)),
                                   "the forward+backward comparison") or []
    opts.grad_layouts = grad_layouts(run_dir, [s for s, _, _ in captured])
    if opts.probe is None and opts.device == "cuda":
        opts.probe = lambda shape, names: probe(run_dir, settings or Settings(), shape, names)
    return True


def _into_run(run_dir: rundir.RunDir, shapes: list[Shape], opts: BenchOptions,
              on_backend: Callable[[int, int, str], None] | None, peaks: Peaks) -> tuple[pd.DataFrame, dict]:
    todo = run_shapes(run_dir, shapes)
    opts.proton_path = run_dir.attention_hatchet
    run_id = runfiles.manifest(run_dir, "the attention stage needs it").get(rundir.RUN_ID)
    opts.run_id = run_id if isinstance(run_id, str) else ""   # none: timings neither reused nor kept
    cache = flex_cache(todo, opts.compile_cache)
    cache.seed(run_dir.attention_cache)   # FlexAttention compiled by an earlier run at these shapes
    marks = [time.perf_counter()]
    with isolated_cache(run_dir.attention_cache):
        result = run_bench(todo, opts, on_backend)
        # judged as the report judges the run's kernels: against its measured ceilings, the same function
        rows = judge_attention(pd.DataFrame(result.rows), peaks)
        rundir.write_csv(run_dir.attention_csv, rows)   # kept even if what follows fails
        if result.tuning:
            rundir.write_csv(run_dir.attention_tuning_csv, pd.DataFrame(result.tuning))
        marks.append(time.perf_counter())
        proton = ""
        try:
            proton_pass(todo, all_backends(opts.backends), result, opts)
        except Exception as e:  # CUPTI already taken (e.g. by torch.profiler in this process): say so, keep the rest
            proton = one_line(e)
        marks.append(time.perf_counter())
    flex = harvest_flex(run_dir, bool(cache.seeded))
    cache.store(run_dir.attention_cache, [])
    marks.append(time.perf_counter())
    return rows, {"shapes": len(todo), "rows": len(rows), "ok": int(rows["ok"].sum()) if len(rows) else 0,
                  **({"passes": [FORWARD, TRAINING]} if opts.backward else {}),
                  "flex_kernels": flex, "proton": proton or str(run_dir.attention_hatchet.relative_to(run_dir.root)),
                  **_notes(result, opts), "compile_cache": cache.summary(),
                  **({"compile_cache_warnings": cache.warnings} if cache.warnings else {}),
                  "seconds_by_phase": phases(marks, sum(result.seconds.values()))}


def phases(marks: list[float], checks_s: float) -> dict[str, float]:
    """Where the benchmark's seconds went, from its four marks (start, rows saved, Proton pass done, FlexAttention
    kernels harvested and cached) and the backends' checks and tuning (inside the first span)."""
    start, saved, proton, end = marks
    return {"checks and tuning": round(checks_s, 2), "timing": round(saved - start - checks_s, 2),
            "proton": round(proton - saved, 2), "harvest and cache": round(end - proton, 2)}


def precompiled(run_dir: rundir.RunDir, opts: BenchOptions) -> str:
    """The own kernels' configs compiled at the run's shapes into the stage's Triton cache (precompile.py); a
    line saying what was compiled, and in how long."""
    from ..attention.benchmark.precompile import precompile

    t0 = time.perf_counter()
    todo = run_shapes(run_dir)
    # seeded first, as the stage would (its compiles then fill the folder): the stage finds it seeded, and says so
    flex_cache(todo, opts.compile_cache).seed(run_dir.attention_cache)
    with isolated_cache(run_dir.attention_cache):   # below ncu's processes: only the cores they leave
        seconds = at_lower_priority(lambda: precompile(todo, opts))
    return f"{time.perf_counter() - t0:.1f} s, compiled ahead: " + (
        ", ".join(f"{b} {t:.1f} s" for b, t in seconds.items()) or
        "nothing (no own kernel to compile at these shapes and masks)")


def _release_gpu_memory() -> None:
    import torch

    torch.cuda.empty_cache()


def told_to_go() -> bool:
    """The parent's word on stdin: `go` (True), or the pipe's end (False: the profile that started this process
    is gone, no stage will come)."""
    return sys.stdin.readline().strip() == "go"


def flex_cache(todo: list[tuple[Shape, int, str]], setting: str | None):
    """The compile cache entry of the stage's FlexAttention compiles: keyed by the shapes and the versions, so
    a seeded cache holds the graphs of these shapes only (harvest_flex keeps those this process loaded)."""
    import torch

    from ..envinfo import driver_version, package_version
    from ..inductor.compile_cache import CompileCache, folder

    facts = {"stage": "attention", "shapes": sorted(repr(s) for s, _, _ in todo), "torch": torch.__version__,
             "triton": package_version("triton"), "driver": driver_version(),
             "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None}
    return CompileCache(folder(setting), facts)


def _notes(result, opts: BenchOptions) -> dict:
    """What the summary says besides the counts: the tuning cache's outcome and warnings where it was used, the
    shapes checked at a reduced length."""
    notes: dict[str, Any] = {}
    cache = opts.cache
    if cache is not None and (cache.hits or cache.misses or cache.warnings or cache.not_written):
        notes["tuning_cache"] = cache.summary()
        if cache.warnings:
            notes["tuning_cache_warnings"] = cache.warnings
    if result.checked:
        notes["checked_at"] = result.checked
    if result.probed:   # a training run's backends whose forward+backward failed in a probe worker
        notes["backward_probe_failed"] = result.probed
    if result.reused:   # shape label -> the run its timings came from (attention/benchmark/reuse.py)
        notes["reused_from"] = result.reused
    store = opts.store
    if store is not None and (store.warnings or store.not_written):
        notes["measure_store_warnings"] = store.warnings + (
            [f"measurement store {store.root}: not written ({store.not_written})"] if store.not_written else [])
    if result.seconds:   # where the stage's time goes (first use: compiles, a build, tuning)
        notes["check_and_tune_s"] = {b: round(t, 1) for b, t in sorted(result.seconds.items(), key=lambda x: -x[1])}
    return notes


def note_lines(summary: dict) -> list[str]:
    """The summary's notes as lines for a person: the tuning cache's warnings first."""
    lines = list(summary.get("tuning_cache_warnings", [])) + list(summary.get("compile_cache_warnings", [])) + \
        list(summary.get("measure_store_warnings", []))
    for label, origin in (summary.get("reused_from") or {}).items():
        lines.append(f"{label}: timings reused from run {origin} (--fresh measures them again)")
    if summary.get("tuning_cache"):
        lines.append(f"tuning cache {summary['tuning_cache']}")
    for full, reduced in summary.get("checked_at", {}).items():
        lines.append(f"{full} checked against float64 at {reduced} (the full length's reference is costly; "
                     "timed at full length)")
    for shape, failed in summary.get("backward_probe_failed", {}).items():
        lines += [f"{shape} forward+backward: {name} failed in a process apart, kept out of the stage's ({why[:200]})"
                  for name, why in failed.items()]
    slowest = list((summary.get("check_and_tune_s") or {}).items())[:3]
    if slowest:
        lines.append("checks and tuning took longest: " + ", ".join(f"{b} {t:g} s" for b, t in slowest))
    return lines


def options(settings: Settings, backends: list[str] | None = None, **kw) -> BenchOptions:
    """BenchOptions with the settings' tuning cache (its folder, retune)."""
    from ..attention.tuning_cache import TuningCache, folder

    from ..measure_store import MeasureStore, folder as store_folder

    return BenchOptions(backends=backends, cache=TuningCache(folder(settings.tuning_cache), settings.retune),
                        compile_cache=settings.compile_cache, store=MeasureStore(store_folder(settings.measure_store)),
                        reuse=not settings.fresh, **kw)


def harvest_flex(run_dir: rundir.RunDir, seeded: bool = False) -> int:
    """FlexAttention's generated Triton kernels, harvested like the model's own Inductor kernels (from a seeded
    cache: those of the graphs this process loaded)."""
    wrappers = output_code_texts(run_dir.attention_cache)
    records = harvest_texts(this_process(run_dir.attention_cache, wrappers) if seeded else wrappers)
    if not records:
        return 0
    out = run_dir.attention_kernels_dir
    rundir.write_json(out / "kernels.json", write_kernels(records, out))
    return len(records)


def work(spec: AttentionSpec, events) -> dict:
    """The stage's own process (worker.py, kind `attention`): the backends (the teaching ones with the
    attention_teaching setting) at the run's captured shapes, on the GPU (a run's attention.csv holds GPU timings
    only). With `precompile` the own kernels' configs are compiled first, with `wait_for_go` it then waits for
    the parent's go. Returns {"summary", "last_line"}: the parent records the summary. Its notes (the tuning
    cache, reduced checks) are note events, and lines starting with NOTE in its log."""
    settings = spec.settings
    names = stage_names(settings.attention_teaching)
    run_dir = rundir.open_run(spec.run)
    require_cuda("attention")
    if spec.precompile:
        try:
            ahead = precompiled(run_dir, options(settings, names))
        except Exception as e:  # noqa: BLE001  (the stage compiles them as it goes)
            ahead = f"failed: {one_line(e)}"
        print(f"{PRECOMPILED}: {ahead}", flush=True)
        events.phase(PRECOMPILED, ahead)
        if not spec.wait_for_go:
            return {"summary": {}, "last_line": ""}
        _release_gpu_memory()   # what the compiles allocated: ncu's replays run meanwhile
        if not told_to_go():
            raise UserError("the profile that started this process is gone")
        print(WENT_ON, flush=True)
        events.phase(WENT_ON)
    manifest = runfiles.manifest(run_dir, "the attention stage needs it")
    opts = options(settings, names)
    training(manifest, run_dir, opts, settings)
    _, summary = _into_run(run_dir, [], opts, None, machine_peaks(manifest.get("ceilings")))
    left_out = [n for n in TEACHING if n not in names]
    teaching = [f"left out: {', '.join(left_out)} (teaching backends; the attention_teaching setting, or "
                "`inductor-prof attention RUN`, runs them)"] if left_out else []
    for line in note_lines(summary) + teaching:
        print(NOTE + line)
        events.note(line)
    last = f"saved to {run_dir.attention_csv} ({summary['ok']} of {summary['rows']} ok)"
    print(last, flush=True)
    return {"summary": summary, "last_line": last}
