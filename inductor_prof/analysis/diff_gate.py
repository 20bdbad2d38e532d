"""The regression gate of `diff` (pure): what fails it (`regressions`, from the rows the diff shows), and what
it needs that the runs lack or do not share (`gaps`: for --fail-above an error, unless --allow-different)."""
from __future__ import annotations

import pandas as pd

from ..steptime import TIMING_STAGES, stage_steps
from .diff_inputs import RunSide
from .noise import beyond_noise

NOTHING = "nothing to judge: no step time and no kernel table in both runs (a profile that did not get that far?)"


def _pct(v: float) -> str:
    return "unknown" if v != v else f"{v:.1f}%"


def regressions(steps: pd.DataFrame, kernels: pd.DataFrame | None, fail_above: float | None,
                min_share: float) -> list[str]:
    """One line per failure: the gated step, or a paired kernel or call holding >= min_share % of the step in
    either run, slower by more than noise + fail_above %; a kernel or call of that share only in one run (its
    time is judged against nothing). Empty without a gate."""
    if fail_above is None:
        return []
    out = []
    if not steps["gated"].any() and kernels is None:   # a gate that judged nothing has not passed
        out.append(NOTHING)
    for r in steps[steps["gated"]].itertuples():
        if beyond_noise(r.change_pct, r.noise_pct) > fail_above:
            out.append(f"{r.what}: {r.change_pct:+.1f}% (noise {_pct(r.noise_pct)})")
    if kernels is None or not len(kernels):
        return out
    for r in kernels[kernels["share_pct"] >= min_share].itertuples():
        if r.status == "matched" and beyond_noise(r.change_pct, r.noise_pct) > fail_above:
            out.append(f"{r.label}: {r.change_pct:+.1f}% (noise {_pct(r.noise_pct)}, {r.share_pct:.1f}% of the step)")
        elif r.status != "matched":
            run = "B (new)" if r.status == "new" else "A (removed)"
            out.append(f"{r.label}: only in run {run}, {r.share_pct:.1f}% of the step, judged against nothing")
    return out


def target(m: dict) -> str | None:
    return (m.get("target") or {}).get("preset") or (m.get("settings") or {}).get("target")


def gpu(m: dict) -> str | None:
    return ((m.get("env") or {}).get("gpu") or {}).get("name")


def _has_steps(manifest: dict) -> bool:
    return any(stage_steps(manifest, stage) for stage, _ in TIMING_STAGES)


def _gated(kernels: pd.DataFrame | None, min_share: float, library: bool) -> bool:
    """Whether the gate judges some row of Inductor kernels (library=False) or of library kernels."""
    if kernels is None or not len(kernels):
        return False
    k = kernels[kernels["share_pct"] >= min_share]
    return bool(((k["origin"] == "library") == library).any())


def gaps(a: RunSide, b: RunSide, steps: pd.DataFrame, kernels: pd.DataFrame | None, min_share: float) -> list[str]:
    """What the gate needs and the runs lack or do not share, one line each, naming the file or setting."""
    out = []
    if target(a.manifest) != target(b.manifest):
        out.append(f"runs of different targets (A: {target(a.manifest)}, B: {target(b.manifest)}; manifest.json "
                   "target)")
    if gpu(a.manifest) != gpu(b.manifest):
        out.append(f"runs on different GPUs (A: {gpu(a.manifest)}, B: {gpu(b.manifest)}; manifest.json env.gpu)")
    if not steps["gated"].any():
        out += [f"run {s.label} has no per-step times in {s.run.manifest_path} (stages.plain_steps.step_ms)"
                for s in (a, b) if not _has_steps(s.manifest)]
    for s in (a, b):
        if s.tables is None:
            out.append(f"run {s.label} has no {s.run.steps_hatchet} (each kernel's time per step)")
            continue
        if s.tables.library_ops is None and _gated(kernels, min_share, library=True):
            out.append(f"run {s.label} has no readable {s.run.library_ops_csv} (library calls are paired by op "
                       "and shape from it)")
        if s.fingerprints is None and _gated(kernels, min_share, library=False):
            out.append(f"run {s.label} has no readable {s.run.kernels_json} (Inductor kernels are paired by what "
                       "they compute from it)")
    return out

