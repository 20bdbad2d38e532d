"""One step in time, as a Chrome/Perfetto trace (pure): the torch.profiler step's GPU kernels at their real start
times (Proton's hatchet is a tree without timestamps), each carrying the report's numbers for its kernel, inside
the step's Proton scopes (size, step_<i>, repeated blocks) placed where the trace's compiled regions ran.

Where each field comes from:
- times: the torch.profiler trace of one step that the library_ops stage records (a separate execution of the
  same compiled step as Proton's; the builder checks that it launched the same kernels);
- kernel numbers (flops, bytes, TFLOP/s, % of ceiling, category, module): the report's kernel table, Proton's
  means over all timed steps (per launch: the table's totals over its launches);
- block slices: the trace's GPU ranges of each compiled region call (`## Call CompiledFxGraph ... ##`), named by
  the Proton block scope of step_<i> that holds the same kernels (same names, same counts). Regions of one
  class hold the same kernels, so they are named in call order by the number in the scope's name (double_0,
  double_1...: the order the model defines and calls its blocks).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..names import demangle
from ..units import NS_PER_US

GPU_PID, HOST_PID = 1, 2
GPU_CATS = ("kernel", "gpu_memset", "gpu_memcpy")
HOST_CATS = ("cpu_op", "user_annotation", "cuda_runtime", "cuda_driver")
REGION = "gpu_user_annotation"   # the GPU range of a compiled region call
TIME_SOURCE = "torch.profiler step (library_ops stage)"
NUMBERS_SOURCE = "report kernel table (Proton, mean over the run's timed steps)"

# the args of a kernel slice: label -> the report's kernel table column (per launch where it says so)
FLOPS, BYTES = "flops per launch", "bytes per launch"
REPORT_ARGS = {"TFLOP/s": "tflops", "GB/s": "gbps", "% of ceiling": "pct_of_peak", "ceiling": "ceiling",
               "bound": "bound", "category": "category", "kind": "kind", "origin": "origin", "module": "module",
               "report avg us": "avg_us", "launches per step": "calls_per_step",
               "training phases of the kernel": "phase"}   # a training run: the slice lies in its own phase scope
GAP = "gap before (us)"   # idle time of the stream since its previous GPU activity ended
OVERLAPS = "overlaps the one before (us)"
OVERLAP = 1_000_000   # track of a stream's kernels that start before the one before them ended: stream + this
TRACE_ARGS = ("grid", "block", "registers per thread", "shared memory", "stream", "correlation")


@dataclass
class Timeline:
    events: list[dict[str, Any]]                 # the Chrome trace's traceEvents
    warnings: list[str] = field(default_factory=list)
    blocks_placed: int = 0             # Proton block scopes placed on a compiled region
    kernels: int = 0                   # kernel launches of the step (each one slice)

    def document(self) -> dict[str, Any]:
        return {"traceEvents": self.events, "displayTimeUnit": "ns"}


def _ns(ts: float) -> int:
    return round(float(ts) * NS_PER_US)


def _us(ns: int) -> float:
    """Trace time: microseconds (the format's unit), exact to the nanosecond the profiler recorded."""
    return ns / NS_PER_US


def _natural(name: str) -> list[Any]:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _plain(v: Any) -> Any:
    """A table cell as JSON: numpy scalars to Python, NaN and None to None."""
    if v is None or (isinstance(v, float) and v != v):
        return None
    if hasattr(v, "item"):
        v = v.item()
        return None if isinstance(v, float) and v != v else v
    return v


def kernel_args(row: pd.Series) -> dict[str, Any]:
    """The report's numbers of one kernel, as a slice shows them."""
    calls = float(row["calls"]) or 1.0
    args = {"kernel": row["name"], FLOPS: _plain(row["flops"]) and row["flops"] / calls,
            BYTES: _plain(row["bytes"]) and row["bytes"] / calls}
    args.update({label: _plain(row[col]) for label, col in REPORT_ARGS.items() if col in row.index})
    return {k: _plain(v) for k, v in args.items()}


def steps_of(launches: pd.DataFrame, size: str | None = None) -> list[str]:
    """The step scopes (step_<i>) Proton recorded, of `size` in a run of several, in order."""
    parts = launches["path"].astype(str).str.split("/")
    at = 1 if size else 0
    steps = {p[at] for p in parts if len(p) > at and (not size or p[0] == size) and p[at].startswith("step_")}
    return sorted(steps, key=_natural)


def scope_kernels(launches: pd.DataFrame, prefix: str) -> dict[str, Counter[Any]]:
    """Proton scope path (at `prefix` and the scopes right below it) -> its kernels (demangled name -> launches);
    `prefix` itself holds every launch of the step."""
    out: dict[str, Counter[Any]] = {prefix: Counter()}
    for name, path, calls in zip(launches["name"], launches["path"].astype(str), launches["calls"]):
        if path != prefix and not path.startswith(prefix + "/"):
            continue
        out[prefix][demangle(name)] += int(calls)
        if path != prefix:
            child = path[:len(prefix) + 1 + len(path[len(prefix) + 1:].split("/")[0])]
            out.setdefault(child, Counter())[demangle(name)] += int(calls)
    return out


def _slice(name: str, cat: str, pid: int, tid: Any, start: int, end: int, t0: int, args: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "cat": cat, "ph": "X", "pid": pid, "tid": tid, "ts": _us(start - t0),
            "dur": _us(end - start), "args": args}


def build(trace: dict[str, Any], kernels: pd.DataFrame, launches: pd.DataFrame, step: str,
          size: str | None = None) -> Timeline:
    """The Chrome trace of the torch.profiler step of `trace`, under the Proton scopes `size`/`step`.

    kernels: the report's kernel table (of that size); launches: Proton's kernel rows (name, path, calls,
    time_ns); step: the step's scope name (step_<i>)."""
    prefix = f"{size}/{step}" if size else step
    raw = [e for e in trace["traceEvents"] if e.get("ph") == "X" and "ts" in e]
    gpu = sorted((e for e in raw if e.get("cat") in GPU_CATS), key=lambda e: float(e["ts"]))
    regions = sorted((e for e in raw if e.get("cat") == REGION), key=lambda e: float(e["ts"]))
    host = [e for e in raw if e.get("cat") in HOST_CATS]
    if not any(e.get("cat") == "kernel" for e in gpu):
        return Timeline([], ["the torch.profiler trace holds no kernel events"])
    def span(e: dict[str, Any]) -> tuple[int, int]:
        return _ns(e["ts"]), _ns(e["ts"]) + _ns(e.get("dur", 0))
    t0 = min(span(e)[0] for e in gpu + regions + host)
    warnings: list[str] = []
    scopes = scope_kernels(launches, prefix)
    by_name = {demangle(n): row for n, row in zip(kernels["name"], (r for _, r in kernels.iterrows()))}

    # --- blocks: each compiled region's GPU range, named by the Proton block scope holding the same kernels
    in_region: list[list[dict[str, Any]]] = [[] for _ in regions]
    region_spans = [span(r) for r in regions]
    for e in gpu:
        start, end = span(e)
        for i, (rs, re_) in enumerate(region_spans):
            if rs <= start < re_ and e.get("tid") == regions[i].get("tid"):
                in_region[i].append(e)
                if end > re_:
                    warnings.append(f"kernel {e['name'][:60]} ends {(end - re_)} ns after its compiled region")
                break
    free = sorted((p for p in scopes if p != prefix), key=lambda p: _natural(p[len(prefix) + 1:]))
    block_name: list[tuple[str, str | None]] = []
    for i, r in enumerate(regions):
        held = Counter(e["name"] for e in in_region[i] if e.get("cat") == "kernel")
        match = next((p for p in free if scopes[p] == held), None)
        if match is not None:
            free.remove(match)
        block_name.append((match.rsplit("/", 1)[-1] if match else r["name"].strip("# "), match))
    placed = sum(1 for _, m in block_name if m)
    if free:
        warnings.append(f"{len(free)} Proton block scope(s) of {prefix} not placed in time (no compiled region of "
                        f"the trace holds the same kernels): {', '.join(p.rsplit('/', 1)[-1] for p in free[:5])}")
    if placed < len(regions):
        warnings.append(f"{len(regions) - placed} compiled region(s) match no Proton block scope; shown under "
                        "their torch.profiler name")

    # --- the step against Proton's: the same launches?
    traced = Counter(e["name"] for e in gpu if e.get("cat") == "kernel")
    if traced != scopes[prefix]:
        only_t, only_p = traced - scopes[prefix], scopes[prefix] - traced
        warnings.append(f"the torch.profiler step ran {sum(traced.values())} kernel launches, Proton's {prefix} "
                        f"{sum(scopes[prefix].values())} ({sum(only_t.values())} only in the trace, "
                        f"{sum(only_p.values())} only in Proton)")

    events: list[dict[str, Any]] = []
    scope_of: dict[int, str] = {}   # id(gpu event) -> the scope path of the slice that encloses it
    step_start = min(span(e)[0] for e in gpu + regions)
    step_end = max(span(e)[1] for e in gpu + regions)
    streams = sorted({e.get("tid") for e in gpu + regions}, key=str)
    outer = ([(size, size)] if size else []) + [(step, prefix)]
    for tid in streams:
        for name, outer_path in outer:
            events.append(_slice(name, "scope", GPU_PID, tid, step_start, step_end, t0, {
                "proton scope": outer_path, "kernel launches": sum(traced.values()),
                "proton launches": sum(scopes[prefix].values()),
                "source": f"time: {TIME_SOURCE}; name: Proton scope {outer_path} (hatchet: no timestamps)"}))
    for i, r in enumerate(regions):
        name, path = block_name[i]
        start, end = region_spans[i]
        paths = launches["path"].astype(str)
        proton_ns = (launches.loc[(paths == path) | paths.str.startswith(f"{path}/"), "time_ns"].sum()
                     if path else None)
        spans = [span(e) for e in in_region[i] if e.get("cat") == "kernel"]   # as Proton counts: no memsets
        args = {"proton scope": path, "compiled region": r["name"].strip("# "), "kernel launches": len(spans),
                "kernel time (us)": _us(sum(end - start for start, end in spans)),
                "proton kernel time (us)": None if proton_ns is None else _us(int(proton_ns)),
                "source": f"time: {TIME_SOURCE} (its GPU range of the compiled region call); " +
                          (f"name: Proton scope {path} (same kernels and counts)" if path else
                           "name: torch.profiler (no Proton scope holds the same kernels)")}
        events.append(_slice(name, "scope", GPU_PID, r.get("tid"), start, end, t0, args))
        for e in in_region[i]:
            scope_of[id(e)] = path or f"{prefix}/{name}"

    # --- the kernels (and memsets, copies): real start times; gaps are the stream's idle time
    last_end: dict[Any, int] = {}
    overlapping: set[Any] = set()
    for e in gpu:
        start, end = span(e)
        tid = stream = e.get("tid")
        gap = start - last_end[stream] if stream in last_end else None
        last_end[stream] = max(end, last_end.get(stream, end))
        a = e.get("args") or {}
        args = {"scope": scope_of.get(id(e), prefix), GAP: None if gap is None else _us(max(gap, 0))}
        if gap is not None and gap < 0:   # it started before the one before it ended (programmatic dependent
            tid = OVERLAP + stream        # launch): a track of its own, as a track shows no partial overlap
            overlapping.add(stream)
            args[OVERLAPS] = _us(-gap)
        if e.get("cat") == "kernel":
            row = by_name.get(e["name"])
            if row is None:
                warnings.append(f"kernel {e['name'][:60]} is not in the report's kernel table")
                args["source"] = f"time: {TIME_SOURCE}; not in the report"
            else:
                args.update(kernel_args(row))
                args["source"] = f"time, grid, block: {TIME_SOURCE}; numbers: {NUMBERS_SOURCE}"
        else:
            args["source"] = TIME_SOURCE
        args.update({k: a[k] for k in TRACE_ARGS if k in a})
        cat = (args.get("category") or "kernel") if e.get("cat") == "kernel" else e["cat"]
        events.append(_slice(e["name"], cat, GPU_PID, tid, start, end, t0, args))

    # --- the host: ops, compiled region calls and the launches whose latency the gaps show
    for e in host:
        start, end = span(e)
        a = e.get("args") or {}
        events.append(_slice(e["name"], e["cat"], HOST_PID, e.get("tid"), start, end, t0,
                             {k: a[k] for k in ("correlation", "Input Dims") if k in a}))
    flows = {(e.get("args") or {}).get("correlation") for e in gpu}
    for e in trace["traceEvents"]:
        if e.get("cat") == "ac2g" and e.get("ph") in ("s", "f") and e.get("id") in flows:
            pid = GPU_PID if e["ph"] == "f" else HOST_PID
            events.append({**e, "pid": pid, "ts": _us(_ns(e["ts"]) - t0)})
    events += _names(streams, {e.get("tid") for e in host}, sorted(overlapping, key=str))
    return Timeline(events, warnings, placed, sum(traced.values()))


def _names(streams: list[Any], threads: set[Any], overlapping: list[Any]) -> list[dict[str, Any]]:
    """The tracks' names: the GPU's streams above the host's threads."""
    meta = [{"ph": "M", "pid": GPU_PID, "name": "process_name", "args": {"name": "GPU (kernels, Proton scopes)"}},
            {"ph": "M", "pid": GPU_PID, "name": "process_sort_index", "args": {"sort_index": 0}},
            {"ph": "M", "pid": HOST_PID, "name": "process_name", "args": {"name": "host (ops, launches)"}},
            {"ph": "M", "pid": HOST_PID, "name": "process_sort_index", "args": {"sort_index": 1}}]
    meta += [{"ph": "M", "pid": GPU_PID, "tid": t, "name": "thread_name", "args": {"name": f"stream {t}"}}
             for t in streams]
    meta += [{"ph": "M", "pid": GPU_PID, "tid": OVERLAP + t, "name": "thread_name",
              "args": {"name": f"stream {t}: kernels overlapping the one before"}} for t in overlapping]
    meta += [{"ph": "M", "pid": HOST_PID, "tid": t, "name": "thread_name", "args": {"name": f"thread {t}"}}
             for t in sorted(threads, key=str)]
    return meta
