"""A run of several ranks (`profile --nproc N`: RUN/ranks.json, RUN/rank<i>/), read through runfiles/ and
summarised: each rank's step times (its own manifest's), their spread with the slowest rank named, and from each
rank's torch.profiler step its compute and communication time, the communication hidden under compute, and its
collectives priced by bus bandwidth. A rank folder missing or damaged is one warning and the others are shown."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from .. import runfiles
from ..errors import UserError
from ..rundir import RankedRun, RunDir
from .collectives import collective_table, comm_calls, kernel_intervals
from .comm_phase import communication_item, communication_phase
from .headroom import headroom
from .link_reference import judged, reference
from .overlap import comm_compute
from .phases import COMMUNICATION
from .sizes import size_names
from .step_split import PARTS, hidden_transfer_ms, proton_wait_ms, split, transfer_per_call
from .straggler import straggler
from .waits import match

if TYPE_CHECKING:
    from .load import RunTables

STEP_KEYS = {"plain_step_ms": "plain_step_ms", "proton_step_ms": "proton_step_ms"}
TRACE_LACKING = "its compute and communication times and collectives are not shown"


@dataclass
class RanksView:
    ranked: RankedRun
    top: dict[str, Any] | None                       # ranks.json as read (None: missing or damaged, warned)
    rows: list[dict[str, Any]]                       # one per rank: exit, step times, compute/communication
    spread: dict[str, Any] | None                    # step_spread of the plain steps
    collectives: dict[int, pd.DataFrame] = field(default_factory=dict)   # rank -> collective_table
    intact: list[int] = field(default_factory=list)   # ranks whose run folder reads
    warnings: list[str] = field(default_factory=list)
    straggler: dict[str, Any] | None = None          # straggler.straggler: the rank the others wait for, and why
    transfer_us: dict[int, dict[str, Any]] = field(default_factory=dict)   # rank -> NCCL kernel -> µs a call moving data
    matched: int = 0                       # collective instances matched across the ranks
    link: dict[int, dict[str, Any] | None] = field(default_factory=dict)   # rank -> link_reference.reference
    hidden_transfer_ms: dict[int, float] = field(default_factory=dict)   # rank -> NCCL moving data beside compute


def step_spread(steps: dict[int, float | None]) -> dict[str, Any] | None:
    """max/min of the ranks' step times and who holds each end (the lower rank on a tie); None without two
    ranks' times. spread_pct: how much longer the slowest rank's step is than the fastest's."""
    known = {r: float(v) for r, v in steps.items() if v is not None and v == v}
    if len(known) < 2:
        return None
    slow = max(known, key=lambda r: (known[r], -r))
    fast = min(known, key=lambda r: (known[r], r))
    lo, hi = known[fast], known[slow]
    return {"slowest_rank": slow, "fastest_rank": fast, "max_ms": hi, "min_ms": lo,
            "ratio": hi / lo if lo else None, "spread_pct": 100 * (hi - lo) / lo if lo else None,
            "ranks": len(known)}


def _trace_path(run: RunDir, manifest: dict[str, Any]) -> Path:
    sizes = size_names(manifest)   # a run of several sizes: its first (default) size's step
    return run.torch_trace_gz_at(sizes[0]) if sizes else run.torch_trace_gz


def _exit_line(record: dict[str, Any] | None) -> str:
    """' (the rank failed: why)' for a rank ranks.json says did not end well; '' when it ended well or says
    nothing (a record without its status)."""
    if not record or record.get("status") in (None, "ok"):
        return ""
    return f" (the rank {record['status']}: {record.get('why') or 'no reason recorded'})"


def load_ranks(path: str | os.PathLike[str]) -> RanksView:
    ranked = RankedRun(Path(path))
    warnings: list[str] = []
    top = None
    if ranked.ranks_json.exists():
        try:
            top = runfiles.ranks_file(ranked.ranks_json)
        except Exception as e:  # any damage: the rank folders still tell their own story
            warnings.append(f"{ranked.ranks_json} is damaged ({runfiles.what(e)}); each rank's exit is not shown")
    records = {r["rank"]: r for r in (top or {}).get("ranks", [])}
    expected = range(top["nproc"]) if top else ranked.rank_folders()
    if top and top.get("status") not in ("ok", None):
        warnings.append(f"the profile {top['status']}: {top.get('why') or 'see ' + str(ranked.ranks_json)}")
    rows, collectives, intact = [], {}, []
    calls, intervals, bases, links = {}, {}, {}, {}
    for i in expected:
        run, record = ranked.rank(i), records.get(i)
        row: dict[str, Any] = {"rank": i, "status": (record or {}).get("status"), "exit": (record or {}).get("exit"),
               "why": (record or {}).get("why"), **{k: None for k in STEP_KEYS},
               "compute_ms": None, "comm_ms": None, "hidden_ms": None, "exposed_ms": None, "hidden_pct": None,
               **{p: None for p in PARTS}, "span_ms": None}
        rows.append(row)
        if not run.root.is_dir():
            warnings.append(f"{run.root} is missing{_exit_line(record)}; rank {i} is left out")
            continue
        try:
            manifest = runfiles.manifest(run, f"rank {i} is left out")
        except UserError as e:
            warnings.append(str(e) + _exit_line(record))
            continue
        prof = manifest.get("profile") or {}
        row.update({k: prof.get(v) for k, v in STEP_KEYS.items()})
        if not run.steps_hatchet.exists():   # its profile stopped before the timed steps: no kernel table
            stopped = manifest.get("stopped_at")
            how = f"its profile failed at stage {stopped}" if stopped else "its profile did not get that far"
            warnings.append(f"{run.root} has no Proton steps ({how}){_exit_line(record)}; "
                            f"rank {i}'s kernels cannot be shown")
        else:
            intact.append(i)
        reader = runfiles.Reader(run, manifest)
        trace = reader.optional(_trace_path(run, manifest), runfiles.torch_trace_file, f"rank {i}: {TRACE_LACKING}",
                                "library_ops")
        warnings.extend(reader.warnings)
        if trace is None:
            continue
        events = trace["traceEvents"]
        intervals[i], calls[i] = kernel_intervals(events), comm_calls(events)
        bases[i] = trace.get("baseTimeNanoseconds")
        row.update(comm_compute(intervals[i]))
        links[i] = manifest.get("ceilings") or {}
    matched = match(calls, bases)
    warnings += [matched.warning] if matched.warning else []
    by_rank = {r["rank"]: r for r in rows}
    for i, own in matched.calls.items():
        by_rank[i].update(split(intervals[i], own))
        collectives[i] = collective_table(own)
    # each rank's % of the link against its own measurement, or the best rate any rank's calls reached above it
    refs = {i: reference(links[i], collectives) for i in collectives}
    collectives = {i: judged(t, refs[i]) for i, t in collectives.items()}
    spread = step_spread({r["rank"]: r["plain_step_ms"] for r in rows})
    return RanksView(ranked, top, rows, spread, collectives, intact, warnings,
                     straggler(matched.calls, intervals) if matched.instances else None,
                     {i: transfer_per_call(own) for i, own in matched.calls.items()}, matched.instances, refs,
                     {i: hidden_transfer_ms(intervals[i], own) for i, own in matched.calls.items()})


def rank_comm(view: RanksView, shown: int, kernels: pd.DataFrame) -> dict[str, Any] | None:
    """What headroom.headroom needs of rank `shown` of several: Proton's NCCL time spent waiting (`kernels`: its
    kernel table, each NCCL row beyond its calls at their transfer time in the torch.profiler step), that step's exposed
    wait and transfer, its NCCL moving data beside compute (advice.comm_items), the straggler and the step spread. None without that rank's trace."""
    row = next((r for r in view.rows if r["rank"] == shown), None)
    if row is None or row.get("span_ms") is None:
        return None
    return {"rank": shown, "proton_wait_ms": proton_wait_ms(kernels, view.transfer_us.get(shown, {})),
            "wait_ms": row["wait_ms"], "transfer_ms": row["transfer_ms"],
            "hidden_transfer_ms": view.hidden_transfer_ms.get(shown, 0.0), "straggler": view.straggler,
            "spread": view.spread}


def rank_advice(tables: RunTables, view: RanksView, shown: int) -> None:
    """Rank `shown`'s headroom (tables.summary["headroom"]) again with its communication (rank_comm): GPU busy
    without its waiting, and the waits, exposed transfer and imbalance among where to look next; a training
    step's communication phase split into waiting, moving and exposed (comm_phase)."""
    phases = tables.summary.get("phases") or {}
    row = next((r for r in view.rows if r["rank"] == shown), None)
    if COMMUNICATION in phases and row is not None and row.get("span_ms") is not None:   # a training step's
        phases[COMMUNICATION] = communication_phase(phases[COMMUNICATION], row, view.collectives.get(shown),
                                                    proton_wait_ms(tables.kernels, view.transfer_us.get(shown, {})))
        wrapper = (((tables.manifest.get("target") or {}).get("data_parallel")) or {}).get("wrapper")
        item = communication_item(phases[COMMUNICATION], wrapper)
        if item is not None and "training" in tables.summary:   # beside the phase items of training_advice
            tables.summary["training"].append(item)
    h = tables.summary.get("headroom")
    comm = rank_comm(view, shown, tables.kernels) if h else None
    if comm:
        assert h is not None   # comm is computed only where there is a headroom
        tables.summary["headroom"] = headroom(tables.kernels, h["step_ms_plain"], h["attention"], comm,
                                              h.get("in_model"))


def pick_rank(view: RanksView, asked: int | None) -> tuple[int, str | None]:
    """(the rank whose kernels the report shows, a warning when it is not the one meant): `--rank K` must be an
    intact rank; by default rank 0, else the first intact one."""
    if not view.intact:
        raise UserError(f"no rank folder of {view.ranked.root} can be read: " + "; ".join(view.warnings[:3]))
    if asked is not None:
        if asked in view.intact:
            return asked, None
        held = ", ".join(map(str, view.intact))
        raise UserError(f"{{rank}} {asked}: {view.ranked.root} has no readable rank {asked} (readable: {held})",
                        ("rank",))
    if 0 in view.intact:
        return 0, None
    return view.intact[0], f"rank 0 cannot be read; the kernel tables are rank {view.intact[0]}'s"


def spread_change(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """The step spread of two multi-rank runs side by side (`diff`): each run's max/min and slowest rank, and
    how the spread moved in percentage points; None when neither run has one."""
    if a is None and b is None:
        return None
    pct_a, pct_b = (s["spread_pct"] if s else None for s in (a, b))
    moved = pct_b - pct_a if pct_a is not None and pct_b is not None else None
    return {"a": a, "b": b, "delta_points": moved}
