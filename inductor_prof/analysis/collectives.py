"""The NCCL kernels of one torch.profiler step (pure: trace events in, DataFrames out), each with the collective it
ran: name, message elements in and out, dtype and group size, as torch records them (`record_param_comms`; Kineto
copies the same args onto the NCCL kernel's own event), priced as nccl-tests prices collectives
(cost.collective_rates). Also every kernel as an interval on the GPU, NCCL or not, for overlap.py."""
from __future__ import annotations

import bisect
import re
from typing import Any

import pandas as pd

from ..aten import COMMS_DTYPE_BYTES
from ..cost import collective_bytes, collective_rates
from ..units import US_PER_MS

NCCL_KERNEL = re.compile(r"^nccl(Dev)?Kernel")
COMMS_OP = "record_param_comms"
NAME, IN, OUT, GROUP, DTYPE = "Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype"
PG, PG_RANKS = "Process Group Name", "Process Group Ranks"
# (text in the lower-cased name without underscores, the collective): torch's names (allreduce, _allgather_base,
# reduce_scatter_tensor_coalesced...) and NCCL's kernel names (ncclDevKernel_AllReduce_Sum_bf16_RING_LL...);
# the longer names first, as "reduce" is in three of them
_KINDS = (("allreduce", "all_reduce"), ("reducescatter", "reduce_scatter"), ("allgather", "all_gather"),
          ("alltoall", "all_to_all"), ("broadcast", "broadcast"), ("sendrecv", "send_recv"), ("send", "send_recv"),
          ("recv", "send_recv"), ("reduce", "reduce"))
# what a row's busbw is over: (all its calls matched, any matched)
TIMED_ON = {(True, True): "transfer", (False, False): "kernel (waiting included)",
            (False, True): "transfer where matched, else kernel"}
CALL_COLUMNS = ["kernel", "collective", "dtype", "in_elems", "out_elems", "group", "bytes", "start_us", "dur_us",
                "source", "pg", "pg_ranks"]


def is_nccl(name: str) -> bool:
    return bool(NCCL_KERNEL.match(str(name)))


def collective_kind(name: str) -> str:
    """all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send_recv, or other (barrier...)."""
    flat = str(name).lower().replace("_", "")
    return next((kind for text, kind in _KINDS if text in flat), "other")


def _enclosing(ops_by_tid: dict[Any, Any], starts: dict[Any, Any], launch: dict[str, Any]) -> dict[str, Any] | None:
    """The innermost record_param_comms on the launching thread around a kernel's launch call."""
    ops, ts = ops_by_tid.get(launch.get("tid"), []), launch.get("ts", 0)
    i = bisect.bisect_right(starts.get(launch.get("tid"), []), ts)
    for op in reversed(ops[:i]):
        if op["ts"] + op.get("dur", 0) >= ts + launch.get("dur", 0):
            return dict(op)
    return None


def _call(kernel: dict[str, Any], args: dict[str, Any], source: str) -> dict[str, Any]:
    name = kernel.get("name", "")
    size = COMMS_DTYPE_BYTES.get(args.get(DTYPE) or "")
    in_elems: int | None
    out_elems: int | None
    group: int | None
    try:
        in_elems, out_elems, group = int(args[IN]), int(args[OUT]), int(args[GROUP])
    except (KeyError, TypeError, ValueError):
        in_elems = out_elems = group = None
    nbytes = collective_bytes(in_elems, out_elems, size) if size and in_elems is not None and out_elems is not None else None
    return {"kernel": name, "collective": collective_kind(args.get(NAME) or name), "dtype": args.get(DTYPE),
            "in_elems": in_elems, "out_elems": out_elems, "group": group, "bytes": nbytes,
            "start_us": float(kernel.get("ts", 0)), "dur_us": float(kernel.get("dur", 0)), "source": source,
            "pg": None if args.get(PG) is None else str(args[PG]), "pg_ranks": _ranks(args.get(PG_RANKS))}


def _ranks(text: object) -> tuple[int, ...] | None:
    """'[0, 1]' (torch writes the group's global ranks as text) -> (0, 1); None when absent or unreadable."""
    try:
        return tuple(int(r) for r in str(text).strip("[] ").split(",") if r.strip()) if text is not None else None
    except ValueError:
        return None


def comm_calls(events: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per NCCL kernel: its collective and message, from the kernel's own args where Kineto put them,
    else from the record_param_comms around its launch (correlation -> launch call -> enclosing op), else the
    collective read from the kernel's name with no size (source: kernel args, record_param_comms, kernel name)."""
    kernels = [e for e in events if e.get("cat") == "kernel" and is_nccl(e.get("name", ""))]
    if not kernels:
        return pd.DataFrame(columns=CALL_COLUMNS)
    ops_by_tid: dict[Any, list[dict[str, Any]]] = {}   # by the launching thread's id
    for e in events:
        if e.get("name") == COMMS_OP and e.get("cat") == "cpu_op":
            ops_by_tid.setdefault(e.get("tid"), []).append(e)
    for ops in ops_by_tid.values():
        ops.sort(key=lambda e: e["ts"])
    starts = {tid: [o["ts"] for o in ops] for tid, ops in ops_by_tid.items()}
    launches = {(e.get("args") or {}).get("correlation"): e for e in events
                if e.get("cat") in ("cuda_runtime", "cuda_driver")}
    rows = []
    for k in kernels:
        args = k.get("args") or {}
        if NAME in args:
            rows.append(_call(k, args, "kernel args"))
            continue
        launch = launches.get(args.get("correlation"))
        op = _enclosing(ops_by_tid, starts, launch) if launch is not None else None
        rows.append(_call(k, op.get("args") or {}, COMMS_OP) if op is not None else _call(k, {}, "kernel name"))
    return pd.DataFrame(rows, columns=CALL_COLUMNS)


def collective_table(calls: pd.DataFrame, n_steps: int = 1) -> pd.DataFrame:
    """Calls grouped by collective, dtype, message bytes and group size: calls and ms per step (kernel time), of
    it ms waiting for other ranks, µs a call, algbw and busbw (GB/s, over the group's summed transfer time where
    its calls were matched across ranks (waits.match), else over its kernel time, waiting included: `timed_on`
    says which); the most time first. pct_of_link is left None here: link_reference.judged fills it against the
    reference of every rank (one place for that %)."""
    columns = ["collective", "dtype", "bytes", "group", "calls", "step_ms", "wait_ms", "avg_us", "algbw_gbps",
               "busbw_gbps", "pct_of_link", "timed_on"]
    if calls is None or not len(calls):
        return pd.DataFrame(columns=columns)
    keyed = calls.assign(bytes=calls["bytes"].fillna(-1), group=calls["group"].fillna(-1),
                         dtype=calls["dtype"].fillna(""))
    if "transfer_us" not in keyed:
        keyed = keyed.assign(transfer_us=float("nan"), wait_us=float("nan"))
    rows = []
    for (coll, dtype, nbytes, group), g in keyed.groupby(["collective", "dtype", "bytes", "group"], sort=False,
                                                       observed=True):
        total_us = float(g["dur_us"].sum())
        split = g["transfer_us"].notna()
        moving_us = float(g["transfer_us"].where(split, g["dur_us"]).sum())
        timed_on = TIMED_ON[(bool(split.all()), bool(split.any()))]
        known = nbytes >= 0 and group >= 1 and moving_us > 0
        algbw, busbw = collective_rates(coll, nbytes * len(g), int(group), moving_us / 1e6) if known else (None, None)
        rows.append({"collective": coll, "dtype": dtype or None, "bytes": int(nbytes) if nbytes >= 0 else None,
                     "group": int(group) if group >= 1 else None, "calls": len(g) / n_steps,
                     "step_ms": total_us / US_PER_MS / n_steps,
                     "wait_ms": float(g["wait_us"].sum()) / US_PER_MS / n_steps if split.any() else None,
                     "avg_us": total_us / len(g), "algbw_gbps": algbw, "busbw_gbps": busbw, "pct_of_link": None,
                     "timed_on": timed_on})
    return pd.DataFrame(rows, columns=columns).sort_values("step_ms", ascending=False, kind="stable") \
        .reset_index(drop=True)


def kernel_intervals(events: list[dict[str, Any]]) -> pd.DataFrame:
    """Every GPU kernel of the trace as (name, start_us, end_us, comm): comm for the NCCL ones."""
    rows = [(e.get("name", ""), float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0)), is_nccl(e.get("name", "")))
            for e in events if e.get("cat") == "kernel" and "ts" in e]
    return pd.DataFrame(rows, columns=["name", "start_us", "end_us", "comm"])
