"""Speed of light and headroom per step (pure): where the step's time goes beyond what the ceilings allow, by
category, the gap between GPU-busy time and the wall step, and a ranked "where to look next" list."""
from __future__ import annotations

import pandas as pd

from .kernels import CATEGORIES

TOP = 10


def attention_saving(attention: pd.DataFrame | None) -> list[dict]:
    """Per captured attention shape: the best backend that passed its check against the one the model used,
    and the ms per step it would save (calls per step x the difference per call)."""
    if attention is None or attention.empty:
        return []
    out = []
    # "sdpa" is PyTorch's own choice: the model's kernel again, not an alternative
    ok = attention[attention["ok"].astype(bool) & (attention["backend"] != "sdpa")]
    for shape, rows in ok.groupby("shape"):
        model = rows[rows["backend"] == rows["model_backend"].iloc[0]]
        if model.empty:
            continue
        best = rows.loc[rows["ms"].idxmin()]
        calls = float(model["calls_per_step"].iloc[0] or 0)
        saving = (float(model["ms"].iloc[0]) - float(best["ms"])) * calls
        out.append({"shape": shape, "model_backend": model["backend"].iloc[0], "best_backend": best["backend"],
                    "model_ms": float(model["ms"].iloc[0]), "best_ms": float(best["ms"]),
                    "calls_per_step": calls, "saving_ms_per_step": max(saving, 0.0)})
    return out


def headroom(df: pd.DataFrame, step_ms_wall: float | None, n_steps: int,
             attention: pd.DataFrame | None = None) -> dict:
    """Speed-of-light step time, headroom by category, the launch/idle gap, and where to look next."""
    busy = float(df["step_ms"].sum()) if len(df) else 0.0
    known = df["sol_ms_per_step"].notna() if len(df) else pd.Series(dtype=bool)
    # kernels with neither flops nor bytes have no speed of light: counted at their measured time
    sol = float(df.loc[known, "sol_ms_per_step"].sum() + df.loc[~known, "step_ms"].sum()) if len(df) else 0.0
    by_cat = {cat: float(df.loc[df["category"] == cat, "headroom_ms_per_step"].sum()) for cat in CATEGORIES
              if len(df) and (df["category"] == cat).any()}
    gap = (step_ms_wall - busy) if step_ms_wall else None
    attn = attention_saving(attention)
    ranked = [{"what": r["display"], "category": r["category"], "headroom_ms_per_step": float(r["headroom_ms_per_step"]),
               "why": f"{r['pct_of_peak']:.0f}% of {r['ceiling']}" if r["ceiling"] else ""}
              for _, r in df[known].iterrows() if r["headroom_ms_per_step"] > 0]
    if gap and gap > 0:
        ranked.append({"what": "launch overhead and idle (wall step - GPU busy)", "category": "host",
                       "headroom_ms_per_step": gap, "why": "CUDA graphs, fewer launches"})
    for a in attn:
        if a["saving_ms_per_step"] > 0:
            ranked.append({"what": f"attention {a['shape']}: {a['best_backend']} instead of {a['model_backend']}",
                           "category": "attention", "headroom_ms_per_step": a["saving_ms_per_step"],
                           "why": f"{a['best_ms']:.3f} vs {a['model_ms']:.3f} ms per call, measured in this run"})
    ranked.sort(key=lambda r: r["headroom_ms_per_step"], reverse=True)
    return {"gpu_busy_ms_per_step": busy, "sol_step_ms": sol, "step_ms_wall": step_ms_wall,
            "launch_gap_ms_per_step": gap, "kernels_without_sol": int((~known).sum()) if len(df) else 0,
            "by_category": by_cat, "attention": attn, "next": ranked[:TOP]}
