"""What a run recorded by an earlier inductor-prof lacks that the advice now uses (pure): the report renders it
all the same, with one warning naming the missing measurements and what the report does without them."""
from __future__ import annotations

from typing import Any

from ..runfiles.sections import sections

# (what was not measured, what the report does without it), in the order the warning names them
PLAIN_STEP = ("the plain step", "no launch gap is given (under Proton it would count the profiler's own cost)")
TELEMETRY = ("the SM clock and power", "the summary cannot say whether compute-bound kernels are power-limited")
GEMM_REPLAYS = ("replays of its GEMM calls", "each GEMM is judged against the roofline, not its shape's best time")


def lacking(manifest: dict[str, Any], has_gemm_calls: bool) -> list[tuple[str, str]]:
    """The measurements this run's manifest lacks: the plain (unprofiled) step, the NVML samples taken through
    it, and (with the ceilings stage run and GEMM calls traced) the ceilings stage's replays of those calls."""
    m = sections(manifest)
    ceilings = m.ceilings
    out = []
    if m.profile.plain_step_ms is None:
        out.append(PLAIN_STEP)
    if not m.profile.has_telemetry:
        out.append(TELEMETRY)
    if has_gemm_calls and ceilings is not None and not any(
            isinstance(g, dict) and g.get("op") for g in ceilings.get("gemms") or []):
        out.append(GEMM_REPLAYS)
    return out


def warning(where: str, missing: list[tuple[str, str]]) -> str | None:
    """One line naming what is missing and what follows, or None when nothing is."""
    if not missing:
        return None
    return (f"{where} was recorded before inductor-prof measured " + ", ".join(m for m, _ in missing) + ": "
            + "; ".join(c for _, c in missing) + " (profile again to have them)")
