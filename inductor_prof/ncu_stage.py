"""ncu over each unique kernel of a run folder: every harvested Inductor kernel, plus the library kernels
(cuBLAS, cuDNN...) that take the most time, replayed from the ATen op that launched them.

Resumable (kernels with a report are skipped), a failure is recorded and the rest go on, Ctrl-C leaves
status.json and the parsed table consistent, and files written under sudo are given back to the user.
"""
from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd

from . import rundir
from .drivers import ncu as ncu_driver
from .drivers import proton as proton_driver
from .names import demangle
from .settings import Settings, find_ncu

REPLAYABLE_OPS = ("aten::addmm", "aten::mm", "aten::bmm", "aten::baddbmm", "aten::_cudnn_attention_forward",
                  "aten::_flash_attention_forward", "aten::_efficient_attention_forward",
                  "aten::_scaled_dot_product_cudnn_attention", "aten::_scaled_dot_product_flash_attention",
                  "aten::_scaled_dot_product_efficient_attention")


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
                                  "file": str((run.kernels_dir / k["file"]).resolve())}))
    if n_library > 0 and run.library_ops_csv.exists() and run.steps_hatchet.exists():
        ops = pd.read_csv(run.library_ops_csv, keep_default_na=False)
        ops = ops[ops["op"].isin(REPLAYABLE_OPS)].drop_duplicates("kernel").set_index("kernel")
        steps = proton_driver.parse(run.steps_hatchet)
        steps = steps[~steps["name"].str.startswith("triton_")]
        by_time = steps.groupby("name")["time_ns"].sum().sort_values(ascending=False)
        for i, name in enumerate(n for n in by_time.index if demangle(n) in ops.index):
            if i >= n_library:
                break
            op = ops.loc[demangle(name)]
            spec = {"type": "aten", "op": op["op"], "dims": json.loads(op["dims"]),
                    "strides": json.loads(op["strides"] or "[]"), "types": json.loads(op["types"] or "[]")}
            out.append(NcuTarget(name, _stem(name, i), "library", spec))
    return out


def _load_status(path: Path) -> dict:
    return json.loads(path.read_text()) if path.exists() else {}


def table(run: rundir.RunDir, status: dict) -> pd.DataFrame:
    """Parsed ncu metrics of every profiled kernel, plus a row for each failure with its reason."""
    rows = []
    for stem, st in status.items():
        row = {"name": st.get("name", stem), "stem": stem, "status": st["status"], "reason": st.get("reason", ""), "report": st.get("report", "")}
        if st["status"] == "ok":
            try:
                row.update({k: v for k, v in ncu_driver.parse_report(run.ncu_dir / st["report"]).items()
                            if k != "kernel"})
            except Exception as e:  # an unreadable report is a failure of that kernel, not of the table
                row.update(status="failed", reason=f"unreadable report: {e}")
        rows.append(row)
    return pd.DataFrame(rows)


def give_back(paths: list[Path], settings: Settings) -> None:
    """Files ncu wrote as root go back to the invoking user."""
    if not settings.sudo:
        return
    owner = f"{os.getuid()}:{os.getgid()}"
    subprocess.run([settings.sudo_path, "-n", "chown", "-R", owner, *map(str, paths)], check=False,
                   capture_output=True, timeout=120)


def run_ncu(run: rundir.RunDir, settings: Settings, log: Callable[[str], None] = print,
            on_kernel: Callable[[int, int, str], None] | None = None) -> dict:
    ncu = find_ncu(settings.ncu)
    run.ncu_dir.mkdir(parents=True, exist_ok=True)
    (run.ncu_dir / "specs").mkdir(exist_ok=True)
    (run.ncu_dir / "logs").mkdir(exist_ok=True)
    status_path = run.ncu_dir / "status.json"
    status = _load_status(status_path)
    todo = targets(run, settings.ncu_library_kernels)
    package_root = str(Path(__file__).resolve().parent.parent)
    env = ncu_driver.program_env({
        "TORCHINDUCTOR_CACHE_DIR": str(run.inductor_cache.resolve()),
        "TRITON_CACHE_DIR": str((run.inductor_cache / "triton").resolve()),
        "PYTHONPATH": os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH", "")) if p),
    })
    done = skipped = 0
    try:
        for i, t in enumerate(todo):
            if on_kernel:
                on_kernel(i, len(todo), t.name)
            report = run.ncu_dir / f"{t.stem}.ncu-rep"
            if status.get(t.stem, {}).get("status") == "ok" and report.exists():
                skipped += 1
                continue
            spec_path = run.ncu_dir / "specs" / f"{t.stem}.json"
            rundir.write_json(spec_path, t.spec)
            cmd = ncu_driver.build_cmd(settings, ncu, t.name, run.ncu_dir / t.stem,
                                       ncu_driver.python_program(spec_path), env)
            result = ncu_driver.run_one(cmd, env, settings.ncu_timeout, run.ncu_dir / "logs" / f"{t.stem}.log")
            if result.status == "ok" and not report.exists():
                result = ncu_driver.NcuResult("failed", "ncu wrote no report", result.seconds)
            status[t.stem] = {"name": t.name, "status": result.status, "reason": result.reason, "origin": t.origin,
                              "seconds": round(result.seconds, 2), "report": report.name}
            rundir.write_json(status_path, status)
            done += 1
            if result.status != "ok":
                log(f"[yellow]ncu {result.status}[/yellow] {t.name}: {result.reason}")
    finally:
        give_back([run.ncu_dir, run.inductor_cache], settings)
        rundir.write_json(status_path, status)
        df = table(run, status)
        df.to_csv(run.ncu_csv, index=False)
    ok = sum(1 for s in status.values() if s["status"] == "ok")
    return {"kernels": len(todo), "profiled": done, "skipped": skipped, "ok": ok,
            "failed": sum(1 for s in status.values() if s["status"] != "ok")}
