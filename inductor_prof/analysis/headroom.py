"""Speed of light and headroom per step (pure): where the step's time goes beyond what the ceilings allow, by
category, the gap between GPU-busy time and the plain step, and the ranked "where to look next" list
(advice.py)."""
from __future__ import annotations

from typing import Any

import pandas as pd

from . import advice, attention_training
from .kernels import CATEGORIES
from .reachable import reachable_sol_step_ms


def attention_saving(attention: pd.DataFrame | None, kernels: dict[str, list[str]] | None = None,
                     backward_kernels: dict[str, str] | None = None,
                     backward_calls: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Per captured attention shape: the best backend that passed its check against the one the model used,
    the ms per step it would save (calls per step x the difference per call), and the model's own kernels for
    it (`kernels`: shape label -> kernel names, advice.kernels_by_shape). A training run's (forward+backward
    rows): judged on those, the saving split between the call's forward and backward kernels
    (attention_training.savings; `backward_kernels`: attention_training.backward_kernels_by_shape,
    `backward_calls`: backward_calls_by_shape)."""
    if attention is None or attention.empty:
        return []
    if attention_training.is_training(attention):
        return attention_training.savings(attention, kernels or {}, backward_kernels or {}, backward_calls)
    attention = attention[attention_training.passes(attention) == attention_training.FORWARD]
    out = []
    # "sdpa" is PyTorch's own choice: the model's kernel again, not an alternative
    ok = attention[attention["ok"].astype(bool) & (attention["backend"] != "sdpa")]
    for shape, rows in ok.groupby("shape", observed=True):
        model = rows[rows["backend"] == rows["model_backend"].iloc[0]]
        if model.empty:
            continue
        best = rows.loc[rows["ms"].idxmin()]
        calls = float(model["calls_per_step"].iloc[0] or 0)
        saving = (float(model["ms"].iloc[0]) - float(best["ms"])) * calls
        out.append({"shape": shape, "model_backend": model["backend"].iloc[0], "best_backend": best["backend"],
                    "model_ms": float(model["ms"].iloc[0]), "best_ms": float(best["ms"]),
                    "calls_per_step": calls, "saving_ms_per_step": max(saving, 0.0),
                    "kernels": (kernels or {}).get(shape, [])})
    return out


# GPU busy (under Proton) and the plain step are timed in different steps; GPU busy past the plain step by at most
# this share of the plain step is their noise. Rank 1 of llama-train-ddp-h200x2 is 0.067 ms past 36.248 (0.18%);
# 1% leaves room for such noise and still catches waiting left in GPU busy (9.3 ms of 36.2, 26%, where its
# calls could not be matched across ranks)
NOISE_SHARE = 0.01


def launch_gap(step_ms_plain: float | None, busy: float, waiting_out: bool,
               nccl: bool = False) -> tuple[float | None, str | None]:
    """(the launch/idle gap: the plain step minus GPU-busy time, never below 0; why it is 0 where GPU busy came out
    longer). The two are timed in different steps (plain, and under Proton), so GPU busy can exceed the plain step
    by their noise (NOISE_SHARE of the plain step): no time is off the GPU, not a negative amount. waiting_out:
    Proton's NCCL waiting was taken out of `busy` (some of it at least); nccl: the rank ran NCCL kernels. Beyond
    the noise on such a rank GPU busy holds NCCL waiting not taken out (calls not matched across ranks)."""
    if not step_ms_plain:
        return None, None
    gap = step_ms_plain - busy
    if gap >= 0:
        return gap, None
    said = (f"GPU busy {busy:.3f} ms/step{' (waiting at collectives taken out)' if waiting_out else ''} exceeds "
            f"the plain step {step_ms_plain:.3f} ms by {-gap:.3f}")
    if -gap <= NOISE_SHARE * step_ms_plain:
        return 0.0, (f"{said}: they are timed in different steps (under Proton and plain), so this is their noise; "
                     "no launch gap is left")
    if nccl:
        return 0.0, (f"{said}, more than the {NOISE_SHARE:.0%} of noise between the steps: GPU busy holds NCCL "
                     "waiting for other ranks not taken out (calls not matched across ranks); the launch gap is "
                     "not known")
    return 0.0, (f"{said}, more than the {NOISE_SHARE:.0%} of noise between the steps: the kernels ran longer under "
                 "Proton than in the plain step; the launch gap is not known")


def headroom(df: pd.DataFrame, step_ms_plain: float | None, attention: list[dict[str, Any]] | None = None,
             comm: dict[str, Any] | None = None, in_model: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Speed-of-light step time, headroom by category, the launch/idle gap (the plain step, unprofiled, minus
    GPU-busy time: Proton's own cost is not the model's), and where to look next. df: the kernel table after
    advice.per_shape; attention: attention_saving rows; comm: a rank of several (ranks.rank_comm): its NCCL
    kernels' waiting (`proton_wait_ms`) is not GPU-busy time, and the waits, exposed transfer and imbalance
    join the list; in_model: in_model.items (calls slower in the model than alone), items of their own."""
    busy = float(df["step_ms"].sum()) if len(df) else 0.0
    if comm:
        busy -= comm["proton_wait_ms"]
    known = df["sol_ms_per_step"].notna() if len(df) else pd.Series(dtype=bool)
    # kernels with neither flops nor bytes have no speed of light: counted at their measured time (an NCCL
    # kernel's without its waiting: not work, and already an item of its own)
    sol = float(df.loc[known, "sol_ms_per_step"].sum() + df.loc[~known, "step_ms"].sum()) if len(df) else 0.0
    if comm:
        sol -= comm["proton_wait_ms"]
    by_cat = {cat: float(df.loc[df["category"] == cat, "headroom_ms_per_step"].sum()) for cat in CATEGORIES
              if len(df) and (df["category"] == cat).any()}
    # waiting was taken out only where some was found (proton_wait_ms > 0: calls matched across ranks)
    gap, gap_note = launch_gap(step_ms_plain, busy, (comm or {}).get("proton_wait_ms", 0) > 0, bool(comm))
    attention = attention or []
    return {"gpu_busy_ms_per_step": busy, "sol_step_ms": sol, "reachable_sol_step_ms": reachable_sol_step_ms(df, sol),
            "step_ms_plain": step_ms_plain,
            "launch_gap_ms_per_step": gap, **({"launch_gap_note": gap_note} if gap_note else {}),
            "kernels_without_sol": int((~known).sum()) if len(df) else 0,
            "by_category": by_cat, "attention": attention,
            "in_model": in_model or [],
            "next": advice.rank(df, gap, attention, comm=comm, apart=in_model) if len(df) else [],
            **({"comm": comm} if comm else {})}
