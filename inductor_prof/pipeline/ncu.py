"""Stage `ncu`: Nsight Compute over each unique kernel of the run: every harvested Inductor kernel, plus the
library kernels (cuBLAS, cuDNN...) that take the most time, replayed from the ATen op that launched them. The
`ncu` command runs the same over an existing run folder, recorded in its manifest like a stage. A run of several
input sizes gets each unique kernel once, at the first size: Inductor kernels with the sizes their file was
compiled for (with --dynamic the first size's), library kernels from their first size's op.

Results of an earlier run of the same GPU, versions, ncu settings and kernel are reused (ncu_reuse.py; `--fresh`:
none). Resumable (kernels with a report are skipped); a failure is recorded and the rest go on, until ncu fails the
same way three times in a row (drivers/ncu/batch.py: what a failure costs); status.json is current after every
batch, so an interrupted call loses only the batch in flight; ncu.csv is written once the call completes.
Under sudo ncu's HOME is inside the run, and everything it wrote is given back to the user.
"""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pandas as pd

from .. import rundir, runfiles
from ..analysis.call_label import call_label
from ..analysis.library_calls import replay_calls
from ..aten import REPLAYABLE_OPS
from ..drivers.ncu import command
from ..drivers.ncu.batch import BatchOutcome, NcuTarget, run_batch, run_queue
from ..drivers.ncu.locate import find_ncu
from ..drivers.ncu.report import parse_reports
from ..errors import StepFailed, UserError
from ..names import demangle
from ..runfiles.cells import json_cell
from ..settings import Settings
from ..specs import AtenCall, InductorCall
from . import ncu_reuse, written


NEEDS = "the ncu stage needs it"


def at_size(profile: dict) -> dict:
    """{"at_size": the first input size} for a run of several sizes (what the ncu numbers stand for), else {}."""
    sizes = list(profile.get("sizes") or {})
    return {"at_size": sizes[0]} if sizes else {}


class NothingProfiled(StepFailed):
    """ncu ran but no kernel of the run has a report: the stage failed, though nothing raised. `stage_info`:
    its counts, kept in the manifest beside the failure."""

    def __init__(self, info: dict):
        self.stage_info = info
        stopped = f" (stopped: {info['stopped']})" if info.get("stopped") else ""
        super().__init__(f"ncu profiled no kernel: {info['failed']} failed, {info['not_tried']} not tried{stopped}")


def profiled_any(info: dict) -> dict:
    """`info` (run_ncu's counts) when a kernel of the run has an ncu report, from this call or an earlier one,
    or there was none to profile; else NothingProfiled (was recorded "ok" with ok 0, failed 3, not tried 26)."""
    if info["kernels"] and not info["ok"] and not info["skipped"] and not info.get("reused"):
        raise NothingProfiled(info)
    return info


def run(ctx) -> dict:
    ctx.log("Nsight Compute over each unique kernel")
    info = run_ncu(ctx.run, ctx.opts.settings, log=ctx.log, on_kernel=ctx.ncu_progress)
    return profiled_any({**info, **at_size(ctx.profile)})


def on_existing_run(run_dir: rundir.RunDir, settings: Settings, log: Callable[[str], None],
                    on_kernel: Callable[[int, int, str], None] | None = None) -> dict:
    """`inductor-prof ncu RUN`: the stage again, its outcome (failure and interruption too) in the manifest.
    No ncu to run is bad input, not an outcome: it fails before the manifest is touched, so an earlier ncu
    stage's record (and the tables it made) still stands."""
    # found once, then in the settings whole; none is bad input, said before the manifest is touched
    settings = replace(settings, ncu=find_ncu(settings.ncu))
    manifest = rundir.Manifest.of(run_dir, runfiles.manifest(run_dir, NEEDS))
    with manifest.stage("ncu") as info:
        try:
            info.update(run_ncu(run_dir, settings, log=log, on_kernel=on_kernel))
            info.update(at_size(manifest.data.get("profile") or {}))
            profiled_any(info)
        finally:   # the reports ncu wrote, a failed call's too
            written.record(manifest, "ncu")
    return info


CALL_FIELDS = ("shape", "model_us", "model_bytes", "rank")   # a library call's, kept with its ncu row


def _stem(name: str, i: int) -> str:
    safe = "".join(c if c.isalnum() or c in "_-." else "_" for c in name)
    return safe[:120] if len(safe) <= 120 else f"{safe[:100]}_{i}"


def targets(run: rundir.RunDir, n_library: int, min_share: float = 1.0) -> list[NcuTarget]:
    """Every launched Inductor kernel, then the library calls that take the time (library_calls.replay_calls):
    the costliest call of each of the `n_library` library kernels with the most time, first, and its other
    calls holding `min_share` % of the step."""
    out: list[NcuTarget] = []
    for k in runfiles.if_present(run.kernels_json, runfiles.kernel_list, NEEDS) or []:
        if k.get("launched") is False or not k.get("file"):   # never launched, or no file to replay
            continue
        out.append(NcuTarget(k["name"], Path(k["file"]).stem, "inductor",
                             InductorCall(k["name"], str(run.kernel_file(k["file"]).resolve()),
                                          k.get("launch_config") or {}).as_json()))
    if n_library > 0 and run.library_ops_csv.exists() and run.steps_hatchet.exists():
        ops = runfiles.required(run.library_ops_csv, runfiles.library_ops_file, NEEDS)
        steps = runfiles.required(run.steps_hatchet, lambda p: runfiles.hatchet_rows(p, run.steps_launches)[0], NEEDS)
        steps = steps[~steps["name"].str.startswith("triton_")]
        by_time = steps.groupby("name", observed=True)["time_ns"].sum().sort_values(ascending=False)
        proton_name = {demangle(n): n for n in by_time.index}
        calls = replay_calls(ops, [demangle(n) for n in by_time.index], n_library, min_share, REPLAYABLE_OPS)
        seen: dict[str, int] = {}
        for i, c in enumerate(calls):
            j = seen[c["kernel"]] = seen.get(c["kernel"], -1) + 1   # the kernel's j-th call: its own report
            stem = _stem(proton_name[c["kernel"]], i)
            stem = stem if j == 0 else f"{stem[:115]}__{j}"
            spec = AtenCall(c["op"], json_cell(c["dims"]), json_cell(c["strides"] or "[]"),
                            json_cell(c["types"] or "[]"), json_cell(c["scalars"] or "[]")).as_json(
                shape=call_label(c["op"], c["dims"]), model_us=c["us_per_call"], model_bytes=c["bytes"],
                calls=c["calls"], rank=j)
            out.append(NcuTarget(proton_name[c["kernel"]], stem, "library", spec))
    return out


def _load_status(path: Path) -> dict:
    """status.json (kernel stem -> entry); a damaged one is said, naming it, rather than overwritten."""
    return runfiles.if_present(path, runfiles.ncu_status_file, "delete it to profile every kernel again",
                               state="unreadable") or {}


def table(run: rundir.RunDir, status: dict, parsed: dict[str, dict] | None = None) -> pd.DataFrame:
    """Parsed ncu metrics of every profiled kernel, plus a row for each failure with its reason.
    `parsed`: reports already read (path -> parse_reports entry); only the others are read here."""
    parsed = dict(parsed or {})
    reports = sorted({run.ncu_report(st["report"]) for st in status.values() if st["status"] == "ok"})
    parsed.update(parse_reports([r for r in reports if str(r) not in parsed]))
    rows = []
    for stem, st in status.items():
        row = {"name": st.get("name", stem), "stem": stem, "status": st["status"], "reason": st.get("reason", ""),
               "report": st.get("report", ""), **{k: st.get(k) for k in CALL_FIELDS},
               ncu_reuse.ORIGIN: st.get(ncu_reuse.ORIGIN) or ""}
        if st["status"] == "ok":
            rep = parsed.get(str(run.ncu_report(st["report"])), {})
            results = rep.get("results", [])
            idx = st.get("index") or 0
            if idx < len(results):
                row.update({k: v for k, v in results[idx].items() if k != "kernel"})
            else:  # an unreadable report is a failure of its kernels, not of the table
                row.update(status="failed", reason=f"unreadable report: {rep.get('error', 'no such result')}")
        rows.append(row)
    return pd.DataFrame(rows)


def run_ncu(run: rundir.RunDir, settings: Settings, log: Callable[[str], None] = print,
            on_kernel: Callable[[int, int, str], None] | None = None,
            clock: Callable[[], float] = time.monotonic) -> dict:
    """ncu over every target of the run not yet profiled; status.json is brought up to date after each batch.
    Returns what happened in this call: kernels (in the run), skipped (done before), reused (from an earlier
    run: ncu_reuse.py; reused_from: those runs' ids), tried, ok, failed, not_tried (after a stop), stopped (why, or
    ""), measure_store (its line), seconds_by_phase (where its processes' time went) if timed.
    `clock`: what the per-kernel timeout is counted by."""
    if settings.ncu_batch < 1:
        raise UserError(f"{{ncu_batch}} must be at least 1, not {settings.ncu_batch}", ("ncu_batch",))
    ncu = find_ncu(settings.ncu)
    for folder in (run.ncu_dir, run.ncu_specs_dir, run.ncu_logs_dir):
        folder.mkdir(parents=True, exist_ok=True)
    status = _load_status(run.ncu_status_json)
    targets_all = targets(run, settings.ncu_library_kernels, settings.ncu_library_min_share)
    todo = [t for t in targets_all if not (status.get(t.stem, {}).get("status") == "ok"
                                           and run.ncu_report(status[t.stem].get("report", "")).is_file())]
    done_before = len(targets_all) - len(todo)   # with a report in this run already
    env = command.pass_env(run.inductor_cache, settings, run.ncu_home)
    parsed: dict[str, dict] = {}   # report path -> its parsed results, read once
    this_call: dict[str, str] = {}  # stem -> status given in this call
    store = ncu_reuse.store_for(settings)
    run_id = ncu_reuse.recorded(run, rundir.RUN_ID)   # none (a run recorded before ids): nothing reused or kept
    machine = ncu_reuse.machine_facts(ncu_reuse.recorded(run, "env"), settings, ncu) if store.root and run_id \
        else None
    reused: dict[str, dict] = {}
    if machine and run_id and not settings.fresh:
        todo, reused = ncu_reuse.take(store, machine, todo, run.ncu_report)
        for t in targets_all:
            if t.stem in reused:
                status[t.stem] = ncu_reuse.status_entry(t, reused[t.stem])
        parsed.update(ncu_reuse.parsed_reports(reused))
        if reused:
            rundir.write_json(run.ncu_status_json, status)
            origins = sorted({r[ncu_reuse.ORIGIN] for r in reused.values()})
            log(f"ncu: {len(reused)} kernels reused from run {', '.join(origins)} (--fresh measures them again)")

    def settle(outcome: BatchOutcome, stopped: str, rest: list[NcuTarget]) -> None:
        for stem, entry in outcome.settled.items():
            status[stem], this_call[stem] = entry, entry["status"]
            if entry["status"] != "ok":
                log(f"ncu {entry['status']} {entry['name']}: {entry['reason']}")
        if outcome.again:
            log(f"profiling the other {len(outcome.again)} kernels of that ncu process again")
        if stopped:
            log(f"ncu stopped: {stopped}; {len(rest)} kernels not tried (`inductor-prof ncu RUN` tries them)")
            for t in rest:
                status[t.stem] = {"name": t.name, "status": "not_tried", "reason": f"not tried: {stopped}",
                                  "origin": t.origin}
                this_call[t.stem] = "not_tried"
        rundir.write_json(run.ncu_status_json, status)

    spent: dict[str, float] = {}
    # status.json holds every finished batch (`inductor-prof ncu RUN` resumes from it)
    with command.giving_back([run.ncu_dir, run.inductor_cache], settings, log):
        stopped = run_queue(todo, settings.ncu_batch, lambda batch: run_batch(run, settings, ncu, env, batch,
                                                                              parsed, clock),
                            settle, on_kernel, done_before=len(targets_all) - len(todo), total=len(targets_all),
                            spent=spent)
    rundir.write_csv(run.ncu_csv, table(run, status, parsed))
    if machine and run_id:
        ncu_reuse.keep(store, machine, targets_all, run_id, _measured(run, status, this_call, parsed))
    for line in store.warnings:
        log(line)
    if on_kernel:
        on_kernel(len(targets_all), len(targets_all), "done")
    counts = {s: sum(1 for v in this_call.values() if v == s) for s in ("ok", "not_tried")}
    return {"kernels": len(targets_all), "skipped": done_before, "tried": len(this_call) -
            counts["not_tried"], "ok": counts["ok"], "failed": len(this_call) - counts["ok"] - counts["not_tried"],
            "not_tried": counts["not_tried"], "stopped": stopped,
            **({"reused": len(reused), "measure_store": store.summary(len(reused), counts["ok"])} if machine else {}),
            **({"reused_from": sorted({r[ncu_reuse.ORIGIN] for r in reused.values()})} if reused else {}),
            **({"seconds_by_phase": spent} if spent else {})}


def _measured(run: rundir.RunDir, status: dict, this_call: dict[str, str],
              parsed: dict[str, dict]) -> dict[str, tuple[Path, int, dict]]:
    """stem -> (its report, index, result) of each kernel this call measured and read."""
    out = {}
    for stem, st in status.items():
        if this_call.get(stem) != "ok" or st.get(ncu_reuse.ORIGIN):
            continue
        report = run.ncu_report(st.get("report", ""))
        results = parsed.get(str(report), {}).get("results") or []
        idx = st.get("index")
        if isinstance(idx, int) and idx < len(results) and results[idx]:
            out[stem] = (report, idx, results[idx])
    return out
