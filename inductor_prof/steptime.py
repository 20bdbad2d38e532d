"""What "the step" of a run is, in one place: the profile stage records it (pipeline/steps.py), `report` shows
it, and `diff` compares and gates it and takes kernel shares of it.

A step is one pass over every input size. Each size is timed in a loop of its own, so the i-th step of one
size and the i-th of another were not taken together: the step is the sum of each size's median, not the
median of per-pass sums (which depends on how the sizes' steps happen to pair up)."""
from __future__ import annotations

import statistics

NAN = float("nan")


def median_ms(ms: list[float]) -> float:
    return statistics.median(ms) if ms else NAN


def step_ms(times: dict) -> float:
    """times: size (None: a run of one size) -> wall ms of each timed step at that size."""
    return sum(median_ms([float(x) for x in ms]) for ms in times.values()) if times else NAN


def stage_times(stage: dict | None) -> dict | None:
    """A timing stage's manifest entry (`step_ms`, and `step_ms_by_size` in a run of several sizes) as
    step_ms's `times`; None when it holds no steps."""
    stage = stage or {}
    by_size = stage.get("step_ms_by_size")
    if isinstance(by_size, dict) and by_size and all(isinstance(v, list) and v for v in by_size.values()):
        return by_size
    ms = stage.get("step_ms")
    return {None: ms} if isinstance(ms, list) and ms else None


def stage_steps(manifest: dict, stage: str) -> list[float] | None:
    """A timing stage's steps (one pass over every size each), for their spread."""
    ms = ((manifest.get("stages") or {}).get(stage) or {}).get("step_ms")
    return [float(x) for x in ms] if isinstance(ms, list) and ms else None


# the manifest's timing stages, as `diff` labels their step; the plain one first: the step a user's model takes
TIMING_STAGES = (("plain_steps", "step (plain)"), ("proton_steps", "step (under Proton)"))
