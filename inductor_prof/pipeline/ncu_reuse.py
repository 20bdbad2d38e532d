"""ncu results reused from earlier runs (measure_store.py): a kernel replayed by an earlier run with the same
facts (the GPU, driver, CUDA, torch, triton, ncu's version and settings, inductor-prof's ncu driver code, and the
kernel: an Inductor kernel's file, which holds its source and its arguments' shapes, dtypes and strides, and its
launch config; a library call's op and arguments) takes that run's result instead of a new ncu process.

The run stays whole: the earlier report is copied into RUN/ncu (`reused-<digest>.ncu-rep`, checked against its
digest), the kernel's status entry points to it and names the run that measured it (`origin_run_id`), and ncu.csv
carries that column beside this run's own `run_id`. `--fresh` (the `fresh` setting) reuses nothing; the results
measured are stored either way.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable

from .. import rundir, runfiles
from ..drivers.ncu.batch import NcuTarget
from ..measure_store import MeasureStore, code_fingerprint, folder, gpu_facts
from ..settings import Settings

ORIGIN = "origin_run_id"   # a status entry's and ncu.csv's column: the run that measured a reused result
METRIC, SOURCE = "ncu", "ncu-source"   # the store's kinds: the metric pass, the source pass
DRIVER_DIR = Path(__file__).resolve().parent.parent / "drivers" / "ncu"
_CALL_KEYS = ("op", "dims", "strides", "types", "scalars")   # a library replay's call; the rest is this run's


@functools.lru_cache(maxsize=None)
def driver_fingerprint() -> str:
    """inductor-prof's ncu driver (command line, replay program, metric table, report readers): a change to how a
    kernel is measured or read measures it again."""
    return code_fingerprint(*DRIVER_DIR.glob("*.py"))


@functools.lru_cache(maxsize=None)
def ncu_version(ncu: str) -> str:
    from ..doctor.host import ncu_version as probe

    found, why = probe(ncu)
    return found or f"unknown ({why})"


def machine_facts(env: dict, settings: Settings, ncu: str,
                  version: Callable[[str], str] = ncu_version) -> dict | None:
    """What every ncu number of a run depends on besides the kernel: the GPU, driver and versions (gpu_facts: None
    when the manifest names no GPU or driver), ncu's version and the settings that change what it measures."""
    gpu = gpu_facts(env)
    if gpu is None:
        return None
    return {**gpu, "ncu": version(ncu), "ncu_set": settings.ncu_set, "ncu_args": list(settings.ncu_args),
            "clock_control": settings.clock_control, "driver_code": driver_fingerprint()}


def kernel_facts(t: NcuTarget) -> dict:
    """What one replay measures: an Inductor kernel's file (source, `get_args`' shapes, strides and dtypes) and
    launch config; a library call's op and arguments."""
    if t.spec.get("type") == "inductor":
        # no file: None, measured (and failing) as before, never served another's result
        source = runfiles.file_digest(Path(t.spec["file"]))
        return {"kind": "inductor", "name": t.name, "source": source, "config": t.spec.get("config") or {}}
    return {"kind": "library", "name": t.name, **{k: t.spec.get(k) for k in _CALL_KEYS}}


def store_for(settings: Settings) -> MeasureStore:
    return MeasureStore(folder(settings.measure_store))


def recorded(run: rundir.RunDir, key: str) -> Any:
    """The manifest's `key` (`env`: GPU, driver, versions; `run_id`), {} or "" when it has none (a run recorded
    before ids, no manifest)."""
    found = runfiles.manifest_or_empty(run).get(key)
    empty: Any = "" if key == rundir.RUN_ID else {}
    return found if isinstance(found, type(empty)) else empty


def _copied(store: MeasureStore, sha: str, dest: Path, copies: dict[str, bool]) -> bool:
    """The stored report `sha` at `dest` in the run (copied once per call)."""
    if sha not in copies:
        copies[sha] = dest.is_file() or store.copy_file(sha, ".ncu-rep", dest)
    return copies[sha]


def _value(entry: dict | None) -> dict | None:
    """A stored ncu measurement's value when it has what a reuse needs."""
    v = (entry or {}).get("value")
    if isinstance(v, dict) and isinstance(v.get("report"), str) and isinstance(v.get("index"), int) \
            and isinstance(v.get("result"), dict):
        return v
    return None


def take(store: MeasureStore, machine: dict, todo: list[NcuTarget], report_path: Callable[[str], Path],
         kind: str = METRIC) -> tuple[list[NcuTarget], dict[str, dict]]:
    """(the targets still to measure, stem -> what was reused: its origin run id, its report copied into the run
    by `report_path(name)`, the kernel's index there, its result as read from the report)."""
    reused: dict[str, dict] = {}
    rest: list[NcuTarget] = []
    copies: dict[str, bool] = {}
    for t in todo:
        found = store.get(kind, {"machine": machine, "kernel": kernel_facts(t)})
        v = _value(found)
        if found is not None and v is None:
            store.warnings.append(f"measurement store: a {kind} entry of {t.name} without its report: measured again")
        dest = report_path(f"reused-{v['report'][:16]}") if v else None
        if v and found and dest is not None and _copied(store, v["report"], dest, copies):
            reused[t.stem] = {ORIGIN: found["run_id"], "report": dest, "index": v["index"], "result": v["result"]}
        else:
            rest.append(t)
    return rest, reused


def keep(store: MeasureStore, machine: dict, targets: list[NcuTarget], run_id: str,
         measured: dict[str, tuple[Path, int, dict]], kind: str = METRIC) -> None:
    """Stores each of `targets` measured in this call (stem -> its report, index there, result), its report once."""
    shas: dict[Path, str | None] = {}
    for t in targets:
        if t.stem not in measured:
            continue
        report, index, result = measured[t.stem]
        if report not in shas:
            shas[report] = store.put_file(report)
        if shas[report]:
            store.put(kind, {"machine": machine, "kernel": kernel_facts(t)}, run_id,
                      {"report": shas[report], "index": index, "result": result})


def status_entry(t: NcuTarget, reused: dict) -> dict:
    """A reused kernel's status.json entry: ok, its copied report and index, the run that measured it."""
    call = {k: t.spec[k] for k in ("shape", "model_us", "model_bytes", "rank") if k in t.spec}
    return {"name": t.name, "status": "ok", "reason": "", "origin": t.origin, "seconds": 0.0,
            "report": reused["report"].name, "index": reused["index"], ORIGIN: reused[ORIGIN], **call}


def parsed_reports(reused: dict[str, dict]) -> dict[str, dict]:
    """The copied reports as parse_reports gives them (path -> {"results": [...]}), from the stored results: the
    table reads them without ncu-report (positions no reused kernel holds stay empty)."""
    out: dict[str, dict[str, Any]] = {}
    for r in reused.values():
        results = out.setdefault(str(r["report"]), {"results": []})["results"]
        results.extend({} for _ in range(r["index"] + 1 - len(results)))
        results[r["index"]] = {"kernel": r["result"].get("kernel", ""), **r["result"]}
    return out
