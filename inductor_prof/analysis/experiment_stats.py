"""The numbers of an experiment (pure): the run's configuration and the changed one timed side by side, whether the
change is faster beyond the noise, whether its outputs stay within the dtype's tolerance, and which kernels moved.

Noise: each side's steps spread between their 10th and 90th percentiles; the change is faster (or slower) only
when the medians differ by more than half the wider of the two spreads. Outputs: the largest difference from the
run's configuration over the largest magnitude of its output (so a model's scale does not matter), against four
machine epsilons of the output's dtype (fp32 outputs at TF32's, the precision Inductor's matmuls may run in).
"""
from __future__ import annotations

import math
from typing import Any

FASTER, SLOWER, NOISE = "faster", "slower", "within noise"
# 4 x machine epsilon: bf16 (8 significant bits) 2^-7, fp16 and TF32 (11) 2^-10, fp8 e4m3 (4) 2^-3
TOLERANCE = {"bfloat16": 4 * 2 ** -7, "float16": 4 * 2 ** -10, "float32": 4 * 2 ** -10, "float64": 4 * 2 ** -10,
             "float8_e4m3fn": 4 * 2 ** -3, "float8_e5m2": 4 * 2 ** -2}


def quantile(values: list[float], q: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default)."""
    s = sorted(values)
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def step_stats(ms: list[float]) -> dict[str, Any]:
    """{"n", "median_ms", "p10_ms", "p90_ms", "spread_pct": (p90 - p10) / median}."""
    med = quantile(ms, 0.5)
    p10, p90 = quantile(ms, 0.1), quantile(ms, 0.9)
    return {"n": len(ms), "median_ms": med, "p10_ms": p10, "p90_ms": p90,
            "spread_pct": 100 * (p90 - p10) / med if med else float("nan")}


def side_by_side(before_ms: list[float], after_ms: list[float]) -> dict[str, Any]:
    """{"before", "after" (step_stats), "ratio": after/before medians, "saved_ms", "noise_ms", "verdict"}."""
    b, a = step_stats(before_ms), step_stats(after_ms)
    saved = b["median_ms"] - a["median_ms"]
    noise = max(b["p90_ms"] - b["p10_ms"], a["p90_ms"] - a["p10_ms"]) / 2
    verdict = FASTER if saved > noise else SLOWER if -saved > noise else NOISE
    return {"before": b, "after": a, "ratio": a["median_ms"] / b["median_ms"], "saved_ms": saved,
            "noise_ms": noise, "verdict": verdict}


CONFIRMED, REFUTED, INCONCLUSIVE = "confirmed", "refuted", "inconclusive"


def advice_verdict(verdict: str, noise_ms: float, predicted_ms: float | None) -> str:
    """What the experiment says of the advice it answers: a step faster beyond the noise confirms it, a slower one
    refutes it; no change beyond the noise refutes it only where the saving the advice predicted (`predicted_ms`,
    the headroom of the items it answers) is larger than the noise, so it would have been seen."""
    if verdict == FASTER:
        return CONFIRMED
    if verdict == SLOWER:
        return REFUTED
    return REFUTED if predicted_ms is not None and predicted_ms > noise_ms else INCONCLUSIVE


def output_check(leaves: list[dict[str, Any]], dtype: str) -> dict[str, Any]:
    """leaves: per output tensor {"max_abs_diff", "ref_max_abs", "nan_mismatch"} (the changed model against the
    run's configuration). {"error": largest difference over the largest reference magnitude, "tolerance", "ok",
    "why" when not ok}."""
    tol = TOLERANCE.get(dtype, TOLERANCE["float32"])
    if not leaves:
        return {"error": float("nan"), "tolerance": tol, "ok": False, "why": "the model returned no tensor"}
    if any(leaf["nan_mismatch"] for leaf in leaves):
        return {"error": float("nan"), "tolerance": tol, "ok": False,
                "why": "NaN or inf where the run's configuration has a number"}
    scale = max(leaf["ref_max_abs"] for leaf in leaves)
    diff = max(leaf["max_abs_diff"] for leaf in leaves)
    error = diff / scale if scale > 0 else (0.0 if diff == 0 else float("inf"))
    out = {"error": error, "tolerance": tol, "ok": error <= tol}
    if not out["ok"]:
        out["why"] = f"outputs differ by {error:.3g} of their largest magnitude, beyond {dtype}'s {tol:.3g}"
    return out


def kernels_moved(before: dict[str, float], after: dict[str, float], top: int = 10) -> list[dict[str, Any]]:
    """Kernels whose µs per step changed most: {"name", "before_us", "after_us", "delta_us"} (a kernel only on one
    side has 0 on the other), largest |delta| first."""
    rows: list[dict[str, Any]] = [{"name": n, "before_us": before.get(n, 0.0), "after_us": after.get(n, 0.0),
             "delta_us": after.get(n, 0.0) - before.get(n, 0.0)} for n in set(before) | set(after)]
    rows = [r for r in rows if r["delta_us"] != 0]
    rows.sort(key=lambda r: (-abs(r["delta_us"]), r["name"]))
    return rows[:top]


OK, FAILED, OOM, DIFFER = "ok", "failed", "out of memory", "outputs differ"


def judge(raw: dict[str, Any] | None, why: str = "", predicted_ms: float | None = None) -> dict[str, Any]:
    """An experiment's record from its process's result (worker.run; None: it said none, `why` says how it
    ended): {"status", "reason"} and, where it got that far, "timing" (side_by_side), "outputs" (output_check),
    "advice_verdict" (confirmed or refuted; None where its outputs differ or it failed), "kernels" (count and µs
    per step of each side) and "kernels_moved"."""
    if raw is None:
        return {"status": FAILED, "reason": why, "advice_verdict": None}
    if "error" in raw:
        return {"status": OOM if raw.get("oom") else FAILED, "reason": f"{raw['stage']}: {raw['error']}",
                "advice_verdict": None}
    att = raw.get("attention_calls")
    if att is not None and not att.get("routed"):   # the change never ran: its timing would measure nothing
        kept = "; ".join(f"{n} with {why}" for why, n in sorted((att.get("kept") or {}).items())) or "none seen"
        return {"status": FAILED, "reason": f"no attention call reached the backend (calls left on SDPA: {kept})",
                "advice_verdict": None}
    timing = side_by_side(raw["before_ms"], raw["after_ms"])
    outputs = output_check(raw["leaves"], raw["dtype"])
    kb, ka = raw["kernels_before"], raw["kernels_after"]
    out = {"status": OK if outputs["ok"] else DIFFER, "reason": outputs.get("why", ""), "timing": timing,
           "outputs": {**outputs, "dtype": raw["dtype"]},
           "advice_verdict": advice_verdict(timing["verdict"], timing["noise_ms"], predicted_ms) if outputs["ok"]
           else None, "predicted_ms": predicted_ms, "device": raw.get("device"),
           "kernels": {"before": len(kb), "after": len(ka), "before_us": sum(kb.values()),
                       "after_us": sum(ka.values())},
           "kernels_moved": kernels_moved(kb, ka),
           **({"attention_calls": att} if att is not None else {})}
    return out
