"""Where to look next in a training step (pure), beside the kernel list of advice.py: one item per phase
question a training step raises, each with the ms per step it concerns and what it is measured against.

- backward: its share against the forward's (a GEMM's backward is two GEMMs of the forward's size, dgrad and
  wgrad, and attention's is 2.5 forwards: about 2x the forward is what a step of them costs), and the
  backward kernel with the most headroom;
- optimizer: its launches and time per step; many launches (an eager optimizer: a few foreach kernels per
  parameter group and step, a per-tensor loop without foreach) say compile it or use a fused implementation;
- activations: the bytes the forward leaves allocated for backward (allocated at the forward's end minus its
  start, the loss aside), written in forward and read back in backward: at least 2 x that many bytes of DRAM
  traffic a step, whose time at the DRAM roof is the item's ms.
"""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..units import GB, MS_PER_S
from ..peaks import Peaks

MANY_OPTIMIZER_LAUNCHES = 50   # per step: past this the optimizer's launches, not its bytes, are the question
BACKWARD_OVER_FORWARD = 2.0    # what a step of GEMMs costs (dgrad + wgrad per forward GEMM)


def _backward_kernel(df: pd.DataFrame) -> dict[str, Any] | None:
    """The kernel that ran in backward with the most headroom per step."""
    if not len(df) or "phase" not in df.columns or "headroom_ms_per_step" not in df.columns:
        return None
    back = df[df["phase"].astype(str).str.contains("backward") & df["headroom_ms_per_step"].notna()]
    if back.empty:
        return None
    r = back.loc[back["headroom_ms_per_step"].idxmax()]
    both = "+" in str(r["phase"])
    return {"phase": "backward", "what": f"backward kernel {r['display']}", "ms_per_step": float(r["step_ms"]),
            "headroom_ms_per_step": float(r["headroom_ms_per_step"]), "do": str(r.get("do") or ""),
            "why": str(r.get("headroom_vs") or "") + (" (the kernel also runs in forward: time of both)" if both
                                                      else "")}


def items(df: pd.DataFrame, phases: dict[str, Any], peaks: Peaks,
          optimizer_compiled: str | None) -> list[dict[str, Any]]:
    """The training items: {"phase", "what", "ms_per_step", "headroom_ms_per_step" (None: not a gap to a roof),
    "do", "why"}."""
    out = []
    fwd, bwd, opt = phases.get("forward"), phases.get("backward"), phases.get("optimizer")
    if fwd and bwd and fwd["ms_per_step"] > 0:
        ratio = bwd["ms_per_step"] / fwd["ms_per_step"]
        heavy = ratio > BACKWARD_OVER_FORWARD
        out.append({"phase": "backward", "what": f"backward {bwd['ms_per_step']:.2f} ms/step, {ratio:.2f}x the "
                                                 f"forward's {fwd['ms_per_step']:.2f}",
                    "ms_per_step": bwd["ms_per_step"], "headroom_ms_per_step": None,
                    "do": ("its kernels below: more than the GEMMs' 2x says a backward kernel of its own costs"
                           if heavy else "as expected of GEMMs (dgrad + wgrad): its largest kernels below"),
                    "why": f"{BACKWARD_OVER_FORWARD:.0f}x the forward (a GEMM's backward is two of its size)"})
    kernel = _backward_kernel(df)
    if kernel:
        out.append(kernel)
    if opt:
        launches = opt["launches_per_step"]
        many = launches > MANY_OPTIMIZER_LAUNCHES
        if not optimizer_compiled:
            do = "torch.compile the optimizer step (Inductor's foreach kernels), or fused=True"
        elif many:
            do = "fewer, larger launches: fused=True, or fewer parameter tensors"
        else:
            do = "already a few launches: its time is the bytes of parameters, gradients and states"
        dram = peaks.get("dram_gbps")
        floor = opt["gb_per_step"] * GB / (dram * GB) * MS_PER_S if dram and opt["gb_per_step"] else None
        out.append({"phase": "optimizer", "what": f"optimizer {launches:.0f} launches, "
                                                  f"{opt['ms_per_step']:.2f} ms/step",
                    "ms_per_step": opt["ms_per_step"],
                    "headroom_ms_per_step": None if floor is None else max(opt["ms_per_step"] - floor, 0.0),
                    "do": do,
                    "why": (f"{opt['gb_per_step']:.2f} GB at the DRAM roof: {floor:.2f} ms" if floor is not None
                            else "its kernels carry no bytes (no annotated step)")
                    + f"; {'compiled' if optimizer_compiled else 'eager'}"})
    saved = (fwd or {}).get("saved_bytes")
    dram = peaks.get("dram_gbps")
    if saved and dram:
        ms = 2 * saved / (dram * GB) * MS_PER_S
        out.append({"phase": "forward+backward", "what": f"activations kept for backward: {saved / 2**30:.2f} GiB",
                    "ms_per_step": ms, "headroom_ms_per_step": None,
                    "do": "activation checkpointing (recompute instead of keeping), fewer saved tensors",
                    "why": "written in forward, read in backward: 2x its bytes at the DRAM roof"})
    return out
