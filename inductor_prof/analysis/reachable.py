"""Headroom to a limit that can be reached (pure): a kernel's time above the point where the unit ncu found
binding it (binding.py) would be 100% busy, beside the roofline's headroom (the distance to the roof its bytes and
flops imply). A kernel at 84% of its SM's issue rate can gain at most 16% of its time however few bytes it
moves; one at 30% of DRAM but 76% busy in L1/shared at most 24%. The reachable headroom is never above the
roofline's (the roofline is a limit too), and where ncu did not profile a kernel, or its headroom was measured
(a replay, a benchmark, the launch floor), the two are the same."""
from __future__ import annotations

import pandas as pd

from . import binding as bind


def busy_of_unit(unit: str, sm_pct: float, memory_pct: float, tensor_pct: float, dram_pct: float,
                 l2_pct: float) -> float:
    """How busy (% of its peak) the binding unit was: SM SOL for the SM's instructions, the tensor pipes', DRAM's and
    L2's bytes against their measured peaks, memory SOL for L1/shared (the memory unit ncu found busiest, with no
    measured peak here), and the busier of SM and memory SOL where no unit is busy (latency). NaN: not known."""
    pct = {bind.SM: sm_pct, bind.TENSOR: tensor_pct, bind.DRAM: dram_pct, bind.L2: l2_pct,
           bind.L1: memory_pct}.get(unit)
    if unit in (bind.LATENCY, bind.NONE) and bind._known(sm_pct, memory_pct):
        pct = max(sm_pct, memory_pct)
    if not bind._known(pct):
        return float("nan")
    assert pct is not None   # _known: not None, not NaN
    return float(pct)


def busy_unit_label(unit: str) -> str:
    """The unit busy_of_unit measured, in words: where none binds (or latency does), the busier of SM and memory."""
    return "the busier of SM and memory" if unit in (bind.LATENCY, bind.NONE) else unit


def reachable_headroom(step_ms: float, roofline_headroom: float, busy_pct: float) -> float:
    """ms/step above the time at which the binding unit, `busy_pct` busy now, would be 100% busy with the same
    work (step_ms x (1 - busy/100); a unit counted above its measured peak: 0), capped at the roofline's headroom;
    the roofline's headroom where busy_pct is not known."""
    if not bind._known(busy_pct):
        return roofline_headroom
    return min(roofline_headroom, step_ms * max(0.0, 1 - busy_pct / 100))


def add_reachable(df: pd.DataFrame) -> pd.DataFrame:
    """The kernel table (after advice.with_counters) with `binding_busy_pct` and `reachable_headroom_ms_per_step`:
    the headroom to the binding unit for a kernel judged on the roofline (`headroom_by` "roofline") that ncu
    profiled, its headroom unchanged for every other."""
    df = df.copy()
    nan = pd.Series(float("nan"), index=df.index)
    if "binding_unit" in df.columns:
        df["binding_busy_pct"] = [busy_of_unit(*v) for v in zip(*(c.tolist() for c in (
            df["binding_unit"], df["sol_compute_pct"], df["sol_memory_pct"], df.get("tensor_pipe_pct", nan),
            df["ncu_dram_pct"], df["ncu_l2_pct"])))]
    else:
        df["binding_busy_pct"] = nan
    on_roofline = df["headroom_by"] == "roofline"
    df["reachable_headroom_ms_per_step"] = [
        reachable_headroom(t, h, b) if r else h for t, h, b, r in
        zip(df["step_ms"], df["headroom_ms_per_step"], df["binding_busy_pct"], on_roofline)]
    lower = on_roofline & (df["reachable_headroom_ms_per_step"] < df["headroom_ms_per_step"])
    if lower.any():   # the item says what its headroom is measured against
        df.loc[lower, "headroom_vs"] = [
            f"{vs}; headroom to {busy_unit_label(unit)} fully busy ({busy:.0f}% now), {h:.2f} ms/step on the roofline"
            for vs, unit, busy, h in zip(df.loc[lower, "headroom_vs"], df.loc[lower, "binding_unit"],
                                         df.loc[lower, "binding_busy_pct"], df.loc[lower, "headroom_ms_per_step"])]
    return df


def reachable_sol_step_ms(df: pd.DataFrame, sol_step_ms: float) -> float:
    """The step's speed of light from the reachable limits: the roofline's (headroom.headroom's sol_step_ms) plus,
    per kernel, what its binding unit keeps of its roofline headroom (roofline minus reachable headroom)."""
    if "reachable_headroom_ms_per_step" not in df.columns or not len(df):
        return sol_step_ms
    known = df["sol_ms_per_step"].notna()
    kept = df.loc[known, "headroom_ms_per_step"] - df.loc[known, "reachable_headroom_ms_per_step"]
    return sol_step_ms + float(kept.sum())
