"""The regression gate of `diff` (pure): what fails it (`failures`, from the rows the diff shows; `regressions`:
their lines), and what it needs that the runs lack or do not share (`gaps`: for --fail-above an error, unless
--allow-different): the same target, GPU and inductor-prof version, and the tables its gated rows need."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..steptime import TIMING_STAGES, stage_steps
from .diff_inputs import RunSide
from .noise import beyond_noise

NOTHING = "nothing to judge: no step time and no kernel table in both runs (a profile that did not get that far?)"


def _pct(v: float) -> str:
    return "unknown" if v != v else f"{v:.1f}%"


@dataclass(frozen=True)
class Failure:
    """One thing that fails the gate: a row of the steps or kernels table (its index there), or the gate having
    nothing to judge (table ""). `line` is what the terminal, HTML and Markdown say: `what`, then `detail`."""
    table: str          # "steps", "kernels" or "" (nothing to judge)
    row: int | None     # the row's index in that table
    reason: str         # "slower", "new", "removed" or "nothing to judge"
    what: str           # the step, or the kernel's or call's label
    detail: str

    @property
    def line(self) -> str:
        return f"{self.what}: {self.detail}" if self.what else self.detail


def failures(steps: pd.DataFrame, kernels: pd.DataFrame | None, fail_above: float | None,
             min_share: float) -> list[Failure]:
    """What fails the gate: the gated step, or a paired kernel or call holding >= min_share % of the step in
    either run, slower by more than noise + fail_above %; a kernel or call of that share only in one run (its
    time is judged against nothing); nothing judged at all. Empty without a gate."""
    if fail_above is None:
        return []
    out = []
    if not steps["gated"].any() and kernels is None:   # a gate that judged nothing has not passed
        out.append(Failure("", None, "nothing to judge", "", NOTHING))
    for r in steps[steps["gated"]].itertuples():
        if beyond_noise(r.change_pct, r.noise_pct) > fail_above:
            out.append(Failure("steps", int(r.Index), "slower", r.what,
                               f"{r.change_pct:+.1f}% (noise {_pct(r.noise_pct)})"))
    if kernels is None or not len(kernels):
        return out
    for r in kernels[kernels["share_pct"] >= min_share].itertuples():
        if r.status == "matched" and beyond_noise(r.change_pct, r.noise_pct) > fail_above:
            out.append(Failure("kernels", int(r.Index), "slower", r.label,
                               f"{r.change_pct:+.1f}% (noise {_pct(r.noise_pct)}, {r.share_pct:.1f}% of the step)"))
        elif r.status != "matched":
            run = "B (new)" if r.status == "new" else "A (removed)"
            out.append(Failure("kernels", int(r.Index), r.status, r.label,
                               f"only in run {run}, {r.share_pct:.1f}% of the step, judged against nothing"))
    return out


def scopes(fail_above: float | None, min_share: float, spread_points: float | None = None,
           comm_pct: float | None = None) -> list[str]:
    """What each given threshold gates, one phrase each (the terminal and HTML say them in the gate's line)."""
    out = [f"--fail-above {fail_above:g}% beyond noise, step and kernels >= {min_share:g}% of the step"] \
        if fail_above is not None else []
    out += [f"--fail-above-spread {spread_points:g} points of step spread"] if spread_points is not None else []
    out += [f"--fail-above-comm {comm_pct:g}% more exposed communication"] if comm_pct is not None else []
    return out


def regressions(steps: pd.DataFrame, kernels: pd.DataFrame | None, fail_above: float | None,
                min_share: float) -> list[str]:
    """One line per failure (`failures`). Empty without a gate."""
    return [f.line for f in failures(steps, kernels, fail_above, min_share)]


def target(m: dict[str, Any]) -> str | None:
    return (m.get("target") or {}).get("preset") or (m.get("settings") or {}).get("target")


def gpu(m: dict[str, Any]) -> str | None:
    return ((m.get("env") or {}).get("gpu") or {}).get("name")


def tool_version(m: dict[str, Any]) -> str | None:
    """The inductor-prof version that recorded the run (manifest env.inductor_prof; None in runs recorded
    before it was kept)."""
    return (m.get("env") or {}).get("inductor_prof")


def run_facts(side: RunSide) -> dict[str, Any]:
    """What the gate checks the two runs share, as `diff --json` gives it (`runs`)."""
    m = side.manifest
    return {"path": str(side.run.root), "target": target(m), "gpu": gpu(m), "tool_version": tool_version(m)}


def _has_steps(manifest: dict[str, Any]) -> bool:
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
    if tool_version(a.manifest) != tool_version(b.manifest):
        out.append(f"runs of different inductor-prof versions (A: {tool_version(a.manifest) or 'unknown'}, B: "
                   f"{tool_version(b.manifest) or 'unknown'}; manifest.json env.inductor_prof)")
    if not steps["gated"].any():
        out += [f"run {s.label} has no per-step times in {s.run.manifest_path} (stages.plain_steps.step_ms)"
                for s in (a, b) if not _has_steps(s.manifest)]
    for s in (a, b):
        if s.tables is None:
            out.append(f"run {s.label} has no {s.run.steps_hatchet} (each kernel's time per step)")
            continue
        # a file that failed its check (runfiles): what it would judge is not what the run measured
        out += [f"run {s.label}: {line}" for line in s.tables.failed_checks]
        if s.tables.library_ops is None and _gated(kernels, min_share, library=True):
            out.append(f"run {s.label} has no readable {s.run.library_ops_csv} (library calls are paired by op "
                       "and shape from it)")
        if s.fingerprints is None and _gated(kernels, min_share, library=False):
            out.append(f"run {s.label} has no readable {s.run.kernels_json} (Inductor kernels are paired by what "
                       "they compute from it)")
    return out

