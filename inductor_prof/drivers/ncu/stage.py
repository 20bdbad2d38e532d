"""ncu over each unique kernel of a run folder: every harvested Inductor kernel, plus the library kernels
(cuBLAS, cuDNN...) that take the most time, replayed from the ATen op that launched them.

Resumable (kernels with a report are skipped); a failure is recorded and the rest go on; status.json is
current after every batch, so an interrupted call loses only the batch in flight; files written under sudo
are given back to the user.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd

from ... import rundir
from ...aten import REPLAYABLE_OPS
from ...childenv import package_pythonpath
from ...errors import UserError, one_line
from ...inductor.cache import cache_env
from ...names import demangle
from ...settings import Settings
from .. import proton
from . import command
from .locate import find_ncu
from .replay import SKIPPED
from .report import parse_reports


@dataclass
class NcuTarget:
    name: str           # kernel name as CUPTI reports it (mangled for C++ kernels)
    stem: str           # file stem for spec/report/log
    origin: str
    spec: dict


def _stem(name: str, i: int) -> str:
    safe = "".join(c if c.isalnum() or c in "_-." else "_" for c in name)
    return safe[:120] if len(safe) <= 120 else f"{safe[:100]}_{i}"


def targets(run: rundir.RunDir, n_library: int) -> list[NcuTarget]:
    out: list[NcuTarget] = []
    if run.kernels_json.exists():
        for k in json.loads(run.kernels_json.read_text()):
            if k.get("launched") is False:
                continue
            out.append(NcuTarget(k["name"], Path(k["file"]).stem, "inductor",
                                 {"type": "inductor", "name": k["name"], "config": k.get("launch_config") or {},
                                  "file": str(run.kernel_file(k["file"]).resolve())}))
    if n_library > 0 and run.library_ops_csv.exists() and run.steps_hatchet.exists():
        ops = pd.read_csv(run.library_ops_csv, keep_default_na=False)
        ops = ops[ops["op"].isin(REPLAYABLE_OPS)].drop_duplicates("kernel").set_index("kernel")
        steps = proton.parse(run.steps_hatchet)
        steps = steps[~steps["name"].str.startswith("triton_")]
        by_time = steps.groupby("name")["time_ns"].sum().sort_values(ascending=False)
        for i, name in enumerate(n for n in by_time.index if demangle(n) in ops.index):
            if i >= n_library:
                break
            op = ops.loc[demangle(name)]
            spec = {"type": "aten", "op": op["op"], "dims": json.loads(op["dims"]),
                    "strides": json.loads(op["strides"] or "[]"), "types": json.loads(op["types"] or "[]"),
                    "scalars": json.loads(op["scalars"] or "[]")}
            out.append(NcuTarget(name, _stem(name, i), "library", spec))
    return out


def _load_status(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


CHOWN_TIMEOUT_S = 60


def table(run: rundir.RunDir, status: dict, parsed: dict[str, dict] | None = None) -> pd.DataFrame:
    """Parsed ncu metrics of every profiled kernel, plus a row for each failure with its reason.
    `parsed`: reports already read (path -> parse_reports entry); only the others are read here."""
    parsed = dict(parsed or {})
    reports = sorted({run.ncu_report(st["report"]) for st in status.values() if st["status"] == "ok"})
    parsed.update(parse_reports([r for r in reports if str(r) not in parsed]))
    rows = []
    for stem, st in status.items():
        row = {"name": st.get("name", stem), "stem": stem, "status": st["status"], "reason": st.get("reason", ""),
               "report": st.get("report", "")}
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


def give_back(paths: list[Path], settings: Settings, log: Callable[[str], None] = print) -> None:
    """Files ncu wrote as root go back to the invoking user; a failure is said, not hidden."""
    if not settings.sudo:
        return
    owner = f"{os.getuid()}:{os.getgid()}"
    cmd = [settings.sudo_path, "-n", "chown", "-R", owner, *map(str, paths)]
    try:
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=CHOWN_TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
        why = f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}" if proc.returncode else ""
    except (OSError, subprocess.SubprocessError) as e:
        why = one_line(e)
    if why:
        log(f"warning: could not give files ncu wrote as root back to you (chown {owner} "
            f"{' '.join(map(str, paths))}): {why}")


def _batches(todo: list[NcuTarget], size: int) -> list[list[NcuTarget]]:
    """Inductor and library kernels in separate batches of at most `size`."""
    out = []
    for origin in ("inductor", "library"):
        group = [t for t in todo if t.origin == origin]
        out += [group[i:i + size] for i in range(0, len(group), size)]
    return out


def _batch_report(batch: list[NcuTarget]) -> str:
    """Report file stem: the kernel's own for one, a content hash for several (stable across resumes)."""
    if len(batch) == 1:
        return batch[0].stem
    digest = hashlib.sha1("\n".join(t.stem for t in batch).encode()).hexdigest()[:10]
    return f"batch-{digest}"


def assign_results(batch: list[NcuTarget], profiled: list[str], log_text: str) -> dict[str, tuple[int | None, str]]:
    """stem -> (index of its result in the report, reason if none). Results come in launch order, which is
    batch order, so two kernels sharing a name map to their own results."""
    used: set[int] = set()
    out = {}
    for t in batch:
        idx = next((i for i, n in enumerate(profiled) if n == t.name and i not in used), None)
        if idx is None:
            mark = f"{SKIPPED} {t.spec.get('name') or t.spec.get('op')}:"
            why = next((ln.split(mark, 1)[1].strip() for ln in log_text.splitlines() if mark in ln),
                       "no result for this kernel in the report (not launched?)")
            out[t.stem] = (None, why)
        else:
            used.add(idx)
            out[t.stem] = (idx, "")
    return out


def replay_env(inductor_cache: Path) -> dict[str, str]:
    """The environment of the replay program ncu runs: this package importable, Inductor's cache given."""
    return command.program_env({
        **cache_env(inductor_cache),
        "TORCHINDUCTOR_COMPILE_THREADS": "1",  # no compile workers for ncu to follow into
        "PYTHONPATH": package_pythonpath(),
    })


def run_ncu(run: rundir.RunDir, settings: Settings, log: Callable[[str], None] = print,
            on_kernel: Callable[[int, int, str], None] | None = None) -> dict:
    """ncu over every target of the run not yet profiled; status.json is brought up to date after each batch."""
    if settings.ncu_batch < 1:
        raise UserError(f"ncu batch size must be at least 1, not {settings.ncu_batch}")
    ncu = find_ncu(settings.ncu)
    for folder in (run.ncu_dir, run.ncu_specs_dir, run.ncu_logs_dir):
        folder.mkdir(parents=True, exist_ok=True)
    status = _load_status(run.ncu_status_json)
    targets_all = targets(run, settings.ncu_library_kernels)
    todo = [t for t in targets_all if not (status.get(t.stem, {}).get("status") == "ok"
                                           and run.ncu_report(status[t.stem].get("report", "")).is_file())]
    skipped = len(targets_all) - len(todo)
    env = replay_env(run.inductor_cache)
    progress = {"done": skipped}
    parsed: dict[str, dict] = {}   # report path -> its parsed results, read once

    def profile_batch(batch: list[NcuTarget]) -> None:
        if on_kernel:
            on_kernel(progress["done"], len(targets_all), batch[0].name if len(batch) == 1 else
                      f"{len(batch)} kernels: {batch[0].name}, ...")
        specs = []
        for t in batch:
            specs.append(run.ncu_spec(t.stem))
            rundir.write_json(specs[-1], t.spec)
        stem = _batch_report(batch)
        report = run.ncu_report(stem)
        cmd = command.build_cmd(settings, ncu, [t.name for t in batch], report.with_suffix(""),
                                command.python_program(specs), env, count=len(batch))
        log_path = run.ncu_log(stem)
        result = command.run_one(cmd, env, settings.ncu_timeout * len(batch), log_path)
        log_text = log_path.read_text(errors="replace") if log_path.exists() else ""
        # the replay program exits 3 when it skipped a kernel it could not load; the others' results count
        usable = report.exists() and (result.status == "ok" or SKIPPED in log_text)
        if not usable and len(batch) > 1:
            log(f"ncu batch of {len(batch)} {result.status} ({result.reason[:200]}); "
                "profiling its kernels one by one")
            for t in batch:
                profile_batch([t])
            return
        per_kernel = result.seconds / len(batch)
        if usable:
            parsed.update(parse_reports([report]))
            names = [m["kernel"] for m in parsed[str(report)].get("results", [])]
            assigned = assign_results(batch, names, log_text)
        else:
            assigned = {t.stem: (None, result.reason or "ncu wrote no report") for t in batch}
        for t in batch:
            idx, why = assigned[t.stem]
            st = "ok" if idx is not None else (result.status if result.status != "ok" else "failed")
            status[t.stem] = {"name": t.name, "status": st, "reason": why, "origin": t.origin,
                              "seconds": round(per_kernel, 2), "report": report.name, "index": idx,
                              "batch": len(batch)}
            if st != "ok":
                log(f"ncu {st} {t.name}: {why}")
        rundir.write_json(run.ncu_status_json, status)
        progress["done"] += len(batch)

    try:
        for batch in _batches(todo, settings.ncu_batch):
            profile_batch(batch)
    except BaseException:
        # status.json already holds every finished batch (`inductor-prof ncu RUN` resumes from it). Hand the
        # files back, but let nothing here replace the error, Ctrl-C included, or wait on a report parser.
        try:
            give_back([run.ncu_dir, run.inductor_cache], settings, log)
        except BaseException as e:  # noqa: BLE001  (a second Ctrl-C, say): the first error is the one to show
            log(f"warning: files not given back after the interruption: {one_line(e)}")
        raise
    give_back([run.ncu_dir, run.inductor_cache], settings, log)
    rundir.write_csv(run.ncu_csv, table(run, status, parsed))
    if on_kernel:
        on_kernel(len(targets_all), len(targets_all), "done")
    ok = sum(1 for s in status.values() if s["status"] == "ok")
    return {"kernels": len(targets_all), "profiled": len(todo), "skipped": skipped, "ok": ok,
            "failed": sum(1 for s in status.values() if s["status"] != "ok")}
