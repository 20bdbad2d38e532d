"""Stage `ncu_source`: the source pass of Nsight Compute. For the kernels worth reading line by line (the
`ncu_source_kernels` with the most headroom per step, or those `inductor-prof ncu RUN --source KERNEL`
names), one ncu process (up to the ncu_batch setting) replays them as the metric pass did, collecting only the
sections of their per-instruction counters, warp stalls, launch statistics and occupancy, with the kernels'
source imported (command.build_source_cmd) -> one report, RUN/ncu/source/<stem>.ncu-rep for a kernel alone,
batch-<hash>.ncu-rep for several. Once that report is checked, each kernel's result in it is written to
<stem>.counters.json (per kernel, also from a shared report): what `inspect` and the HTML report read, so that
they run on any machine without ncu-report. RUN/ncu/source/status.json: stem -> kernel name, status, reason,
report, index (its result in the report). Resumable: a kernel with a report is skipped, unless named with
--source.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

import pandas as pd

from .. import rundir, runfiles
from ..analysis.pick import kernel_names, pick_kernel
from ..drivers.ncu import command
from ..drivers.ncu.batch import BatchOutcome, NcuTarget, Pass, batch_report, run_pass, run_queue
from ..drivers.ncu.locate import find_ncu
from ..drivers.ncu import source as source_reader
from ..drivers.ncu.source import kernel_at
from ..errors import StepFailed, UserError
from ..settings import Settings
from . import ncu as ncu_stage
from . import ncu_reuse, written

NEEDS = "the ncu source pass needs it"
Log = Callable[[str], None]
Progress = Callable[[int, int, str], None] | None


def most_headroom(kernels: pd.DataFrame, n: int) -> list[str]:
    """The names of the `n` kernels with the most headroom per step (the report's kernel table); kernels
    without a speed of light come after, by time."""
    if n <= 0 or not len(kernels):
        return []
    headroom = kernels["headroom_ms_per_step"] if "headroom_ms_per_step" in kernels else pd.Series(float("nan"),
                                                                                                  index=kernels.index)
    order = kernels.assign(_h=headroom.fillna(-1.0)).sort_values(["_h", "total_ns"], ascending=False, kind="stable")
    return order["name"].head(n).tolist()


def replays(run: rundir.RunDir, settings: Settings, profiled_only: bool) -> dict[str, list[NcuTarget]]:
    """Kernel name -> what ncu replays for it: an Inductor kernel's file (a name Inductor gave two kernels: both),
    a library kernel's costliest call. `profiled_only`: those the metric pass profiled (status ok)."""
    status = {}
    if profiled_only:
        status = runfiles.if_present(run.ncu_status_json, runfiles.ncu_status_file, NEEDS) or {}
    out: dict[str, list[NcuTarget]] = {}
    for t in ncu_stage.targets(run, settings.ncu_library_kernels, settings.ncu_library_min_share):
        if t.spec.get("rank", 0) == 0 and (not profiled_only or status.get(t.stem, {}).get("status") == "ok"):
            out.setdefault(t.name, []).append(t)
    return out


def usable(counters: dict) -> str:
    """Why a kernel's counters, as read from its source report, are of no use to `inspect` ("" when they are):
    unreadable, or no per-PC counters."""
    if "error" in counters:
        return f"unreadable report: {counters['error']}"
    if not any(p.get("samples") or p.get("inst") for p in counters.get("pcs") or []):
        return "the report has no per-instruction counters (SourceCounters section missing?)"
    return ""


def read_counters(report: Path, index: int = 0) -> tuple[dict, str]:
    """(the counters of a source report's index-th result, read by ncu-report in a child process; usable's why)."""
    read = source_reader.read_all([report]).get(str(report), {"error": f"{report} was not read"}) \
        if report.is_file() else {"error": f"{report} is missing"}
    counters = kernel_at(read, index)
    return counters, usable(counters)


def check_report(run: rundir.RunDir, stem: str, entry: dict) -> str:
    """Why a kernel's source report (`entry`: its status, naming the report and the kernel's index) is of no use
    to `inspect` ("" when it is)."""
    return read_counters(*runfiles.source_report(run, stem, entry))[1]


def save_counters(run: rundir.RunDir, stem: str, report: Path, index: int, counters: dict) -> None:
    """Kernel `stem`'s counters file: its result (`index`) in `report`, with what keys it to that report
    (runfiles.source_counters_file reads it back; a kernel of a shared report has its own file)."""
    rundir.write_json(run.ncu_source_counters(stem), {"report": report.name, "index": index,
                                                      "report_bytes": report.stat().st_size, "counters": counters})


def write_run_counters(run: rundir.RunDir) -> dict[str, str]:
    """The counters file of every kernel the source pass recorded in `run` (status ok), written again from its
    result in its report (status.json: report, index; runs recorded before the pass wrote them): stem -> why
    none was written ("" when it was). A report several kernels share is read once."""
    status = runfiles.if_present(run.ncu_source_status_json, runfiles.source_status_file, NEEDS) or {}
    where = {s: runfiles.source_report(run, s, e) for s, e in status.items() if e.get("status") == "ok"}
    read = source_reader.read_all(sorted({p for p, _ in where.values() if p.is_file()}))
    out = {}
    for stem, (report, index) in where.items():
        counters = kernel_at(read[str(report)], index) if str(report) in read else {"error": f"{report} is missing"}
        out[stem] = usable(counters)
        if not out[stem]:
            save_counters(run, stem, report, index, counters)
    return out


def source_pass(run: rundir.RunDir, settings: Settings, ncu: str, env: dict[str, str],
                reads: dict[str, dict], made: list[Path]) -> Pass:
    """The source pass: one report for the kernels of a process, under a name not in use (a kernel's own name
    when it is alone and free), so no report a status entry points to is overwritten, by one that may prove of no
    use either. Each report is read once, into `reads` (path -> source.read_all's entry); `made`: the reports'
    paths, in order."""
    def report(batch: list[NcuTarget]) -> Path:
        stem = batch[0].stem if len(batch) == 1 else batch_report(batch)
        path, n = run.ncu_source_report(stem), 1
        while path.exists():
            n += 1
            path = run.ncu_source_report(f"{stem}-{n}")
        made.append(path)
        return path

    def names(report: Path) -> list[str] | None:
        reads.update(source_reader.read_all([report]))
        read = reads.get(str(report), {"error": "not read"})
        return None if "error" in read else [k.get("kernel", "") for k in read.get("kernels") or []]
    return Pass(build=lambda kernels, out, program, count: command.build_source_cmd(
                    settings, ncu, kernels, out, program, env, count=count),
                report=report, log=lambda rep: run.ncu_source_log(rep.name.removesuffix(".ncu-rep")), names=names,
                spec=run.ncu_source_spec)   # its own folder: the metric pass may run beside it


def _checked(run: rundir.RunDir, stem: str, entry: dict, reads: dict[str, dict]) -> tuple[dict, dict]:
    """(a settled entry of the source pass, failed where its result has no per-instruction counters; those
    counters, {} when failed)."""
    entry = {k: v for k, v in entry.items() if k not in ("shape", "model_us", "model_bytes", "rank")}
    counters: dict = {}
    if entry["status"] == "ok":
        report, index = runfiles.source_report(run, stem, entry)
        counters = kernel_at(reads.get(str(report), {"error": f"{report} was not read"}), index)
    why = usable(counters) if entry["status"] == "ok" else entry["reason"]
    if why:   # no report to point to: a failed entry never names one
        entry.update(status="failed", reason=why, report="", index=None)
        counters = {}
    return entry, counters


def _drop_unnamed(run: rundir.RunDir, status: dict, reports: set[Path]) -> None:
    """Removes those of `reports` no status entry names: replaced by a kernel's new report, or holding no result
    of use."""
    named = {runfiles.source_report(run, s, e)[0] for s, e in status.items() if e.get("status") == "ok"}
    for report in reports - named:
        report.unlink(missing_ok=True)


def collect(run: rundir.RunDir, settings: Settings, chosen: list[NcuTarget], log: Log, on_kernel: Progress = None,
            again: bool = False) -> dict:
    """The source pass over `chosen`, in as few ncu processes as the ncu_batch setting allows (one report each,
    status.json naming each kernel's report and index); a failure costs the kernel in flight, as in the metric
    pass (drivers/ncu/batch.py). `again`: also those with a report. Returns kernels, skipped, ok, failed,
    stems (of `chosen`), seconds_by_phase (where its processes' time went) if timed."""
    ncu = find_ncu(settings.ncu)
    for folder in (run.ncu_source_dir, run.ncu_source_specs_dir):
        folder.mkdir(parents=True, exist_ok=True)
    status = runfiles.if_present(run.ncu_source_status_json, runfiles.source_status_file,
                                 "delete it to collect the source counters again", state="unreadable") or {}

    def has_report(stem: str) -> bool:
        return status.get(stem, {}).get("status") == "ok" and \
            runfiles.source_report(run, stem, status.get(stem))[0].is_file()
    todo = [t for t in chosen if again or not has_report(t.stem)]
    done_before = len(chosen) - len(todo)
    store = ncu_reuse.store_for(settings)
    run_id = ncu_reuse.recorded(run, rundir.RUN_ID)   # none (a run recorded before ids): nothing reused or kept
    machine = ncu_reuse.machine_facts(ncu_reuse.recorded(run, "env"), settings, ncu) if store.root and run_id \
        else None
    reused: dict[str, dict] = {}
    if machine and run_id and not settings.fresh and not again:   # --source KERNEL: measured again, as asked
        todo, reused = ncu_reuse.take(store, machine, todo, run.ncu_source_report, kind=ncu_reuse.SOURCE)
        for t in chosen:
            if t.stem in reused:
                r = reused[t.stem]
                entry = ncu_reuse.status_entry(t, r)
                status[t.stem] = {k: v for k, v in entry.items() if k not in ("shape", "model_us", "model_bytes",
                                                                                  "rank")}
                save_counters(run, t.stem, r["report"], r["index"], r["result"])
        if reused:
            rundir.write_json(run.ncu_source_status_json, status)
            log(f"ncu source pass: {len(reused)} kernels reused from run "
                f"{', '.join(sorted({r[ncu_reuse.ORIGIN] for r in reused.values()}))}")
    measured: dict[str, tuple[Path, int, dict]] = {}   # stem -> its report, index, counters (for the store)
    env = command.pass_env(run.inductor_cache, settings, run.ncu_home)
    reads: dict[str, dict] = {}
    made: list[Path] = []
    how = source_pass(run, settings, ncu, env, reads, made)
    done: dict[str, str] = {}
    earlier: set[Path] = set()   # the reports of a batch's kernels before it ran

    def run_one(batch: list[NcuTarget]) -> BatchOutcome:
        outcome = run_pass(run, settings, env, batch, how)
        earlier.clear()
        earlier.update(runfiles.source_report(run, s, status[s])[0] for s in outcome.settled if has_report(s))
        return outcome

    def settle(outcome: BatchOutcome, stopped: str, rest: list[NcuTarget]) -> None:
        for stem, entry in outcome.settled.items():
            entry, counters = _checked(run, stem, entry, reads)
            kept = has_report(stem)
            if entry["status"] != "ok":
                log(f"ncu source pass {entry['status']} {entry['name']}: {entry['reason']}"
                    + ("; the earlier report is kept" if kept else ""))
            else:   # its own counters file, its result in the (shared) report checked above
                report, index = runfiles.source_report(run, stem, entry)
                save_counters(run, stem, report, index, counters)
                measured[stem] = (report, index, counters)
            if entry["status"] == "ok" or not kept:
                status[stem] = entry
            done[stem] = entry["status"]
        if stopped:
            log(f"ncu source pass stopped: {stopped}; {len(rest)} kernels not tried")
        rundir.write_json(run.ncu_source_status_json, status)
        _drop_unnamed(run, status, earlier | set(made[-1:]))
        reads.clear()

    spent: dict[str, float] = {}
    with command.giving_back([run.ncu_dir, run.inductor_cache], settings, log):
        run_queue(todo, settings.ncu_batch, run_one, settle, on_kernel, done_before=len(chosen) - len(todo),
                  total=len(chosen), spent=spent)
    if machine and run_id:   # only those whose report is still the one status.json names
        ncu_reuse.keep(store, machine, chosen, run_id,
                       {s: m for s, m in measured.items() if has_report(s) and runfiles.source_report(
                           run, s, status[s])[0] == m[0]}, kind=ncu_reuse.SOURCE)
    for line in store.warnings:
        log(line)
    if on_kernel:
        on_kernel(len(chosen), len(chosen), "done")
    ok = sum(1 for s in done.values() if s == "ok")
    return {"kernels": len(chosen), "skipped": done_before,
            **({"reused": len(reused), "reused_from": sorted({r[ncu_reuse.ORIGIN] for r in reused.values()})}
               if reused else {}),
            "ok": ok, "failed": len(done) - ok,
            "stems": [t.stem for t in chosen], **({"seconds_by_phase": spent} if spent else {})}


def recorded_any(info: dict) -> dict:
    """`info` when a chosen kernel has its report (from this call or an earlier one); else StepFailed."""
    if info["kernels"] and not info["ok"] and not info["skipped"] and not info.get("reused"):
        raise StepFailed(f"the ncu source pass recorded no kernel: {info['failed']} failed")
    return info


def automatic(run: rundir.RunDir, settings: Settings, profiled_only: bool = True) -> list[NcuTarget]:
    """What the stage collects: the replays of the `ncu_source_kernels` kernels with the most headroom per step,
    among those the metric pass profiled (`profiled_only`: the pass beside it chooses before it has run)."""
    have = replays(run, settings, profiled_only=profiled_only)
    if settings.ncu_source_kernels <= 0 or not have:
        return []
    from ..analysis import load_run_tables

    kernels = load_run_tables(run.root).kernels
    names = most_headroom(kernels[kernels["name"].isin(have)], settings.ncu_source_kernels)
    return [t for name in names for t in have[name]]


def requested(run: rundir.RunDir, settings: Settings, queries: list[str]) -> list[NcuTarget]:
    """The replays of the kernels `queries` name (a name, a unique part of one, or a replay's file stem)."""
    from ..analysis import load_run_tables

    have = replays(run, settings, profiled_only=False)
    by_stem = {t.stem: t for ts in have.values() for t in ts}
    kernels = kernel_names(load_run_tables(run.root).kernels)
    out: list[NcuTarget] = []
    for q in queries:
        if q in by_stem:
            out.append(by_stem[q])
            continue
        name = pick_kernel(q, kernels, str(run.root))
        if name not in have:
            raise UserError(f"{name}: ncu replays no call of this kernel in {run.root} (it replays the Inductor "
                            "kernels harvested and the {ncu_library_kernels} library kernels with the most time)",
                            ("ncu_library_kernels",))
        out += have[name]
    return list({t.stem: t for t in out}.values())


def metric_pass_ok(ctx) -> bool:
    """Whether the profile's `ncu` stage (the metric pass) went through."""
    return ((ctx.manifest.data.get("stages") or {}).get("ncu") or {}).get("status") == "ok"


def run(ctx) -> dict:
    """The stage, after `ncu`: the kernels with the most headroom, when the metric pass went through."""
    settings = ctx.opts.settings
    if not metric_pass_ok(ctx):
        return {"kernels": 0, "skipped_because": "stage ncu did not succeed"}
    chosen = automatic(ctx.run, settings)
    if not chosen:
        return {"kernels": 0}
    ctx.log(f"Nsight Compute source counters of {len(chosen)} kernels (the most headroom)")
    return recorded_any(collect(ctx.run, settings, chosen, ctx.log, ctx.ncu_progress))


def on_existing_run(run_dir: rundir.RunDir, settings: Settings, queries: list[str], log: Log,
                    on_kernel: Progress = None) -> dict | None:
    """`inductor-prof ncu RUN` (the kernels with the most headroom, after the metric pass) and `inductor-prof ncu
    RUN --source KERNEL` (those named, again if they have a report), recorded in the manifest as a stage.
    None, and nothing recorded, when there is nothing to collect. Bad input fails before the manifest is
    touched."""
    chosen = requested(run_dir, settings, queries) if queries else automatic(run_dir, settings)
    if not chosen:
        return None
    # found once, then in the settings whole; none is bad input, said before the manifest is touched
    settings = replace(settings, ncu=find_ncu(settings.ncu))
    manifest = rundir.Manifest.of(run_dir, runfiles.manifest(run_dir, NEEDS))
    with manifest.stage("ncu_source") as info:
        try:
            info.update(collect(run_dir, settings, chosen, log, on_kernel, again=bool(queries)))
            recorded_any(info)
        finally:   # the reports ncu wrote, a failed call's too
            written.record(manifest, "ncu_source")
    return info
