"""A training step's communication phase on one rank of several (pure): the NCCL kernels' time per step (Proton,
phases.phase_summary) said as waiting for another rank and moving data, how much of it compute hid, the messages'
bytes, and the bus bandwidth of the collective that took the most time, over its transfer time only.

An NCCL kernel's time includes the wait for the last rank to arrive (docs/multi-gpu.md): counted as the
collective's cost, that misjudged the link 18x once. And DDP's gradient all-reduce runs beside backward's compute:
the time compute hid is not step time. So the row keeps the kernels' whole time (`ms_per_step`, what the kernel
table sums) and says apart what of it was waiting, what moved data, and what was exposed: the step's time with
communication and no compute beside it, from the rank's torch.profiler step (step_split.split)."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..units import GB, MB
from .step_split import exposed_comm_ms

TOP_KEYS = ("collective", "dtype", "bytes", "group", "calls", "busbw_gbps", "pct_of_link", "timed_on")


def _number(v: Any) -> float | None:
    return None if v is None or (isinstance(v, float) and v != v) else float(v)


def communication_phase(row: dict[str, Any], rank: dict[str, Any], collectives: pd.DataFrame | None,
                        proton_wait_ms: float) -> dict[str, Any]:
    """The communication row of phase_summary with the rank's split added.

    row: phase_summary's communication row (ms_per_step: Proton's NCCL kernel time per step, waiting included).
    rank: the rank's row of ranks.load_ranks (its torch.profiler step: transfer_ms, unsplit_ms, wait_ms with no
    compute beside them; hidden_pct of the NCCL kernels' time). collectives: its collective_table (one traced
    step). proton_wait_ms: Proton's NCCL time per step that was waiting (step_split.proton_wait_ms).

    Adds: wait_ms_per_step, moving_ms_per_step (the rest of the kernels' time), exposed_ms_per_step (moving with
    no compute beside it: what the link added to the step, step_split.exposed_comm_ms), exposed_wait_ms_per_step
    (waiting with no compute beside it), hidden_pct, message_gb_per_step (the collectives' message bytes,
    nccl-tests' S, one traced step; gb_per_step stays the NCCL kernels' own bytes, as every phase's) and
    top_collective (the one with the most kernel time, its busbw over its transfer time).

    Where some of the rank's calls were not matched across ranks (unsplit_ms > 0: a rank's trace missing or
    unreadable), the transfer times that split Proton's NCCL time are missing or partial: wait_ms_per_step and
    moving_ms_per_step are None (not split, said so) and exposed_unsplit_ms_per_step holds the unmatched calls'
    exposed time, waiting or moving unknown: never counted as moving data."""
    out = dict(row)
    unsplit = _number(rank.get("unsplit_ms")) or 0.0
    if unsplit > 0:
        out["wait_ms_per_step"] = out["moving_ms_per_step"] = None
        out["exposed_unsplit_ms_per_step"] = unsplit
    else:
        wait = min(max(0.0, float(proton_wait_ms)), float(row["ms_per_step"]))   # never more than the kernels' time
        out["wait_ms_per_step"] = wait
        out["moving_ms_per_step"] = float(row["ms_per_step"]) - wait
    out["exposed_ms_per_step"] = exposed_comm_ms(rank)
    out["exposed_wait_ms_per_step"] = _number(rank.get("wait_ms"))
    out["hidden_pct"] = _number(rank.get("hidden_pct"))
    table = collectives if collectives is not None else pd.DataFrame()
    if len(table):
        known = table[table["bytes"].notna()]
        out["message_gb_per_step"] = float((known["bytes"] * known["calls"]).sum()) / GB
        top = table.iloc[0]   # collective_table: the most kernel time first
        out["top_collective"] = {k: (top[k] if isinstance(top[k], str) else _number(top[k])) for k in TOP_KEYS}
    return out


def communication_line(p: dict[str, Any]) -> str:
    """The row's split in words, for the summary's communication line ('' without a split)."""
    if "wait_ms_per_step" not in p:
        return ""
    if p["wait_ms_per_step"] is None:
        parts = ["waiting and moving not split (NCCL calls not matched across ranks)"]
    else:
        parts = [f"waiting {p['wait_ms_per_step']:.2f}, moving {p['moving_ms_per_step']:.2f} ms"]
    if p.get("hidden_pct") is not None:
        parts.append(f"{p['hidden_pct']:.0f}% hidden under compute")
    if p.get("exposed_ms_per_step") is not None:
        parts.append(f"exposed {p['exposed_ms_per_step']:.2f} ms moving"
                     + (f" + {p['exposed_wait_ms_per_step']:.2f} ms waiting"
                        if p.get("exposed_wait_ms_per_step") is not None else "")
                     + (f" + {p['exposed_unsplit_ms_per_step']:.2f} ms not split"
                        if p.get("exposed_unsplit_ms_per_step") else ""))
    if p.get("message_gb_per_step") is not None:
        parts.append(f"messages {p['message_gb_per_step']:.2f} GB")
    top = p.get("top_collective")
    if top and top.get("busbw_gbps") is not None:
        link = f", {top['pct_of_link']:.0f}% of the link" if top.get("pct_of_link") is not None else ""
        size = f" {top['bytes'] / MB:.1f} MB" if top.get("bytes") is not None else ""
        parts.append(f"{top['collective']}{size}: busbw {top['busbw_gbps']:.0f} GB/s over {top['timed_on']}{link}")
    launched = p.get("launched_in") or {}
    if launched:
        parts.append("launched in " + ", ".join(f"{k} {v:.2f} ms" for k, v in launched.items()))
    return "; ".join(parts)


def communication_item(p: dict[str, Any], wrapper: str | None) -> dict[str, Any] | None:
    """The training item of the communication phase (as training_advice.items writes them): the collectives' data
    moving with no compute beside it, which overlapping with backward could hide; None where none was exposed.
    wrapper: the manifest's target.data_parallel wrapper (DDP's knobs are named when the tool or the factory used
    it)."""
    exposed = p.get("exposed_ms_per_step")
    if not exposed or exposed <= 0:
        return None
    top = p.get("top_collective") or {}
    name = top.get("collective") or "collectives"
    rate = (f"; {name} at busbw {top['busbw_gbps']:.0f} GB/s over its transfer"
            + (f", {top['pct_of_link']:.0f}% of the link" if top.get("pct_of_link") is not None else "")
            if top.get("busbw_gbps") is not None else "")
    hidden = f", {p['hidden_pct']:.0f}% of the NCCL time hidden" if p.get("hidden_pct") is not None else ""
    do = ("overlap it with backward: smaller gradient buckets (DDP's bucket_cap_mb) start the first all-reduce "
          "sooner; regional compile gives each block's gradients as its backward ends (one whole-model backward "
          "graph gives them all at its end); fewer bytes: DDP's bf16_compress_hook"
          if wrapper == "DistributedDataParallel" else
          "overlap it with compute (prefetch the next collective, smaller buckets), or move fewer bytes")
    split = p.get("moving_ms_per_step") is not None
    waiting = (f"waiting for other ranks ({p['wait_ms_per_step']:.2f} ms under Proton) is not counted" if split else
               f"calls not matched across ranks ({p.get('exposed_unsplit_ms_per_step') or 0.0:.2f} ms exposed, "
               "waiting or moving unknown) are not counted")
    return {"phase": "communication", "what": f"{name} exposed: data moving with no compute beside it",
            # the kernels' time moving data; not split: their whole time (waiting included)
            "ms_per_step": float(p["moving_ms_per_step"] if split else p["ms_per_step"]),
            "headroom_ms_per_step": float(exposed), "do": do,
            "why": f"{exposed:.2f} ms of the step only moving data (torch.profiler step){hidden}{rate}; {waiting}"}
