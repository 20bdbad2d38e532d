"""Stage `ncu_source`: the source pass of Nsight Compute. For the kernels worth reading line by line (the
`ncu_source_kernels` with the most headroom per step, or those `inductor-prof ncu RUN --source KERNEL`
names), one ncu process each replays the kernel as the metric pass did, collecting only the sections of its
per-instruction counters, warp stalls, launch statistics and occupancy, with the kernel's source imported
(command.build_source_cmd) -> RUN/ncu/source/<stem>.ncu-rep, and beside it <stem>.counters.json: what `inspect`
and the HTML report read of it, so that they run on any machine without ncu-report.
RUN/ncu/source/status.json: stem -> kernel name, status, reason, report. Resumable: a kernel with a report is
skipped, unless named with --source.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pandas as pd

from .. import rundir, runfiles
from ..analysis.pick import kernel_names, pick_kernel
from ..drivers.ncu import command
from ..drivers.ncu.batch import NcuTarget
from ..drivers.ncu.command import give_back, replay_env
from ..drivers.ncu.locate import find_ncu
from ..drivers.ncu.replay import STEP
from ..drivers.ncu.source import read_reports as read_source_reports
from ..errors import StepFailed, UserError, one_line
from ..settings import Settings
from . import ncu as ncu_stage

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


def read_counters(report: Path) -> tuple[dict, str]:
    """(a source report's counters, read by ncu-report in a child process; why the report is of no use to
    `inspect`, "" when it is: unreadable, or no per-PC counters)."""
    counters = read_source_reports([report])[str(report)]
    if "error" in counters:
        return counters, f"unreadable report: {counters['error']}"
    if not any(p.get("samples") or p.get("inst") for p in counters.get("pcs") or []):
        return counters, "the report has no per-instruction counters (SourceCounters section missing?)"
    return counters, ""


def _save(report: Path, sidecar: Path, counters: dict) -> None:
    """What `inspect` reads of `report`, beside it (runfiles.source_counters_file reads it back)."""
    rundir.write_json(sidecar, {"report_bytes": report.stat().st_size, "counters": counters})


def write_run_counters(run: rundir.RunDir) -> dict[str, str]:
    """The counters file of every report the source pass recorded in `run` (status ok), written again from the
    report (runs recorded before the pass wrote them): stem -> why none was written ("" when it was)."""
    status = runfiles.if_present(run.ncu_source_status_json, runfiles.source_status_file, NEEDS) or {}
    out = {}
    for stem in (s for s, e in status.items() if e.get("status") == "ok"):
        report = run.ncu_source_report(stem)
        counters, out[stem] = read_counters(report) if report.is_file() else ({}, f"{report} is missing")
        if not out[stem]:
            _save(report, run.ncu_source_counters(stem), counters)
    return out


def _one(run: rundir.RunDir, settings: Settings, ncu: str, env: dict[str, str], t: NcuTarget) -> dict:
    """One ncu process over one kernel's replay; its status entry. A report of no use to `inspect` is not kept
    (an earlier one of the kernel stays)."""
    spec = run.ncu_spec(t.stem)
    rundir.write_json(spec, t.spec)
    report, partial = run.ncu_source_report(t.stem), run.ncu_source_report(f".{t.stem}.partial")
    sidecar = run.ncu_source_counters(t.stem)
    cmd = command.build_source_cmd(settings, ncu, t.name, partial.with_suffix(""), command.python_program(spec), env)
    why = "ncu wrote no report"
    try:
        result = command.run_one(cmd, env, settings.ncu_timeout, run.ncu_source_log(t.stem), progress_mark=STEP)
        if result.status == "ok" and partial.exists():
            counters, why = read_counters(partial)
            if not why:
                sidecar.unlink(missing_ok=True)   # the earlier report's, stale from the next line on
                os.replace(partial, report)
                _save(report, sidecar, counters)
    finally:
        if partial.exists():
            partial.unlink()
    entry = {"name": t.name, "status": result.status, "reason": result.reason, "origin": t.origin,
             "seconds": round(result.seconds, 2), "report": ""}
    if result.status == "ok":
        entry.update(status="failed" if why else "ok", reason=why, report=report.name if not why else "")
    return entry


def collect(run: rundir.RunDir, settings: Settings, chosen: list[NcuTarget], log: Log, on_kernel: Progress = None,
            again: bool = False) -> dict:
    """The source pass over `chosen`; `again`: also those with a report. Returns kernels, skipped, ok, failed,
    stems (of `chosen`)."""
    ncu = find_ncu(settings.ncu)
    for folder in (run.ncu_source_dir, run.ncu_specs_dir):
        folder.mkdir(parents=True, exist_ok=True)
    status = runfiles.if_present(run.ncu_source_status_json, runfiles.source_status_file,
                                 "delete it to collect the source counters again", state="unreadable") or {}
    todo = [t for t in chosen if again or not (status.get(t.stem, {}).get("status") == "ok"
                                               and run.ncu_source_report(t.stem).is_file())]
    env = replay_env(run.inductor_cache)
    if settings.sudo:
        run.ncu_home.mkdir(parents=True, exist_ok=True)
        env.update(command.sudo_home_env(run.ncu_home))
    done: dict[str, str] = {}
    try:
        for i, t in enumerate(todo):
            if on_kernel:
                on_kernel(len(chosen) - len(todo) + i, len(chosen), t.name)
            entry = _one(run, settings, ncu, env, t)
            kept = status.get(t.stem, {}).get("status") == "ok" and run.ncu_source_report(t.stem).is_file()
            if entry["status"] != "ok":
                log(f"ncu source pass {entry['status']} {t.name}: {entry['reason']}"
                    + ("; the earlier report is kept" if kept else ""))
            if entry["status"] == "ok" or not kept:
                status[t.stem] = entry
            done[t.stem] = entry["status"]
            rundir.write_json(run.ncu_source_status_json, status)
    except BaseException:
        try:
            give_back([run.ncu_dir, run.inductor_cache], settings, log)
        except BaseException as e:  # noqa: BLE001  (a second Ctrl-C): the first error is the one to show
            log(f"warning: files not given back after the interruption: {one_line(e)}")
        raise
    give_back([run.ncu_dir, run.inductor_cache], settings, log)
    if on_kernel:
        on_kernel(len(chosen), len(chosen), "done")
    ok = sum(1 for s in done.values() if s == "ok")
    return {"kernels": len(chosen), "skipped": len(chosen) - len(todo), "ok": ok, "failed": len(done) - ok,
            "stems": [t.stem for t in chosen]}


def recorded_any(info: dict) -> dict:
    """`info` when a chosen kernel has its report (from this call or an earlier one); else StepFailed."""
    if info["kernels"] and not info["ok"] and not info["skipped"]:
        raise StepFailed(f"the ncu source pass recorded no kernel: {info['failed']} failed")
    return info


def automatic(run: rundir.RunDir, settings: Settings) -> list[NcuTarget]:
    """What the stage collects: the replays of the `ncu_source_kernels` kernels the metric pass profiled with
    the most headroom per step."""
    have = replays(run, settings, profiled_only=True)
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


def run(ctx) -> dict:
    """The stage, after `ncu`: the kernels with the most headroom, when the metric pass went through."""
    settings = ctx.opts.settings
    entry = (ctx.manifest.data.get("stages") or {}).get("ncu") or {}
    if entry.get("status") != "ok":
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
    find_ncu(settings.ncu)
    manifest = rundir.Manifest.of(run_dir, runfiles.manifest(run_dir, NEEDS))
    with manifest.stage("ncu_source") as info:
        info.update(collect(run_dir, settings, chosen, log, on_kernel, again=bool(queries)))
        recorded_any(info)
    return info
