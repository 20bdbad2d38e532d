"""Two runs compared (pure: what `diff_inputs` read in, DataFrames out): step and GPU time per step, kernels
and library calls paired across the runs (`diff_kernels`), time by category, attention backends; each change
judged against the runs' own noise (`noise`: the rule); the regression gate (`diff_gate`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..steptime import TIMING_STAGES, stage_steps, stage_times, step_ms
from . import attention_training, diff_experiment, diff_kernels
from .summary import Summary
from .diff_gate import Failure, failures, gaps, gpu, run_facts, target, tool_version
from ..units import NS_PER_MS
from .diff_inputs import RunSide
from .diff_sizes import size_rows
from .kernels import CATEGORIES
from .phases import same_kind
from .noise import GPU_ROW, NAN, change_pct, change_row, spread_pct, spreads_by_name
from .rank_gate import rank_failures

ATTENTION_KEYS = ("backend", "shape", "dtype", "causal", "mask", "pass")
_SETTING_SKIP = {"out", "force"}
_ENV_KEYS = ("torch", "triton", "cuda", "cudnn", "driver", "diffusers")


def stage_step_ms(manifest: dict[str, Any], stage: str) -> float:
    """The stage's step as `report` shows it (steptime.step_ms); NaN without steps."""
    times = stage_times(manifest.get("stages", {}).get(stage))
    return step_ms(times) if times else NAN


def step_rows(ma: dict[str, Any], mb: dict[str, Any], gpu_a: tuple[float, list[Any]] | None, gpu_b: tuple[float, list[Any]] | None
              ) -> pd.DataFrame:
    """Wall step (as the report's) per timing stage both runs have, then GPU kernel time per step (the
    report's: all kernel time over the steps; its spread from the per-step sums). `gated` marks the step the
    gate watches: the plain step, else (a run without plain steps) the step under Proton; never both, since
    the step under Proton adds the profiler's own cost."""
    rows = []
    for stage, label in TIMING_STAGES:
        la, lb = stage_steps(ma, stage), stage_steps(mb, stage)
        if la and lb:
            rows.append(change_row(label, stage_step_ms(ma, stage), stage_step_ms(mb, stage), spread_pct(la),
                                   spread_pct(lb)))
    if gpu_a and gpu_b:
        rows.append(change_row(GPU_ROW, gpu_a[0], gpu_b[0], spread_pct(gpu_a[1]), spread_pct(gpu_b[1])))
    df = pd.DataFrame(rows, columns=["what", "a", "b", "delta", "change_pct", "noise_pct", "verdict"])
    df["gated"] = [i == 0 and w != GPU_ROW for i, w in enumerate(df["what"])]
    return df


def category_steps(steps: pd.DataFrame | None, kernels: pd.DataFrame) -> pd.DataFrame | None:
    """Per-step time of each category (kernel name x step summed by the kernel's category)."""
    if steps is None or steps.empty:
        return None
    cat = kernels["category"].reindex(steps.index).fillna("other")
    return steps.groupby(cat, observed=True).sum()


def category_rows(sum_a: Summary, sum_b: Summary, cat_steps_a: pd.DataFrame | None,
                  cat_steps_b: pd.DataFrame | None) -> pd.DataFrame:
    """Time per step by category (the report's summary), with each category's spread."""
    ba, bb = sum_a["by_category"], sum_b["by_category"]
    spreads_a, spreads_b = spreads_by_name(cat_steps_a), spreads_by_name(cat_steps_b)
    rows = []
    for cat in [c for c in CATEGORIES if c in ba or c in bb]:
        ca, cb = ba.get(cat, {}), bb.get(cat, {})
        row = change_row(cat, ca.get("step_ms", 0.0), cb.get("step_ms", 0.0), spreads_a.get(cat, NAN),
                   spreads_b.get(cat, NAN))
        rows.append({**row, "kernels_a": ca.get("kernels", 0), "kernels_b": cb.get("kernels", 0)})
    return pd.DataFrame(rows)


def attention_rows(att_a: pd.DataFrame, att_b: pd.DataFrame) -> pd.DataFrame:
    """attention.csv of both runs by backend and shape: median ms, change, TFLOP/s. attention.csv keeps no
    spread, so these changes carry no verdict."""
    # a row's pass (forward, or a training run's forward+backward): forward in a run recorded before the column
    att_a, att_b = (df.assign(**{"pass": attention_training.passes(df)}) for df in (att_a, att_b))
    keys = [k for k in ATTENTION_KEYS if k in att_a.columns and k in att_b.columns]
    cols = keys + ["ms", "tflops", "ok"]

    def ran(df: pd.DataFrame) -> pd.DataFrame:
        df = df[df["available"].astype(str).str.lower() == "true"] if "available" in df else df
        # a key column empty in one run (no mask anywhere: read as float NaN) and text in the other: pandas
        # refuses to merge float with text, so the keys are compared as objects
        return df[[c for c in cols if c in df.columns]].astype({k: object for k in keys})
    m = ran(att_a).merge(ran(att_b), on=keys, how="outer", suffixes=("_a", "_b"))
    m["change_pct"] = [change_pct(a, b) for a, b in zip(m["ms_a"], m["ms_b"])]
    return m.reset_index(drop=True)


def _flat(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def run_warnings(ma: dict[str, Any], mb: dict[str, Any]) -> list[str]:
    out = []
    if target(ma) != target(mb):
        out.append(f"runs of different targets (A: {target(ma)}, B: {target(mb)}); comparing what matches")
    if gpu(ma) != gpu(mb):
        out.append(f"runs on different GPUs (A: {gpu(ma)}, B: {gpu(mb)}); comparing what matches")
    if tool_version(ma) != tool_version(mb):
        out.append(f"runs of different inductor-prof versions (A: {tool_version(ma) or 'unknown'}, B: "
                   f"{tool_version(mb) or 'unknown'}); comparing what matches")
    return out


def setting_changes(ma: dict[str, Any], mb: dict[str, Any]) -> list[str]:
    """Settings and library versions that differ between the runs: what the user changed."""
    def facts(m: dict[str, Any]) -> dict[str, Any]:
        env = m.get("env") or {}
        return {**{k: v for k, v in _flat(m.get("settings") or {}).items() if k not in _SETTING_SKIP},
                **{f"env.{k}": env.get(k) for k in _ENV_KEYS if k in env}}
    fa, fb = facts(ma), facts(mb)
    # a switch one run did not record (None: an older run) and the other left off (False) is not a change
    return [f"{k}: {fa.get(k)} -> {fb.get(k)}" for k in sorted(set(fa) | set(fb))
            if fa.get(k) != fb.get(k) and not {fa.get(k), fb.get(k)} <= {None, False}]


@dataclass
class Diff:
    a: str
    b: str
    steps: pd.DataFrame
    kernels: pd.DataFrame | None
    categories: pd.DataFrame | None
    attention: pd.DataFrame | None
    min_share: float
    fail_above: float | None
    warnings: list[str] = field(default_factory=list)
    missing: list[tuple[str, str]] = field(default_factory=list)   # (view, what is missing)
    changes: list[str] = field(default_factory=list)
    sizes: pd.DataFrame | None = None    # runs of several input sizes: each size both have (diff_sizes.py)
    gaps: list[str] = field(default_factory=list)   # what the gate needs and the runs lack (diff_gate.gaps)
    runs: dict[str, Any] = field(default_factory=dict)        # "a", "b": path, target, GPU, tool version (diff_gate.run_facts)
    allow_different: bool = False                   # --allow-different: the gate judged despite `gaps`
    ranks: dict[str, Any] | None = None                       # runs of several ranks: rank_gate.ranks_change
    fail_above_spread: float | None = None          # --fail-above-spread: points of step spread
    fail_above_comm: float | None = None            # --fail-above-comm: % more exposed communication
    experiment: dict[str, Any] | None = None        # the `try` experiment one run applies (diff_experiment.applied)

    @property
    def gated(self) -> bool:
        return self.fail_above is not None or self.fail_above_spread is not None or self.fail_above_comm is not None

    def failures(self) -> list[Failure]:
        """What fails the gate (empty without a --fail-above flag)."""
        return failures(self.steps, self.kernels, self.fail_above, self.min_share) + \
            rank_failures(self.ranks, self.fail_above_spread, self.fail_above_comm)

    def regressions(self) -> list[str]:
        """What fails the gate, one line each (empty without --fail-above)."""
        return [f.line for f in self.failures()]


def _share_step_ms(side: RunSide) -> float:
    """The step a kernel's share is taken of: the gated step (the plain step, else the step under Proton), as
    its row shows it; else GPU time."""
    for stage, _ in TIMING_STAGES:
        if stage_steps(side.manifest, stage):
            return stage_step_ms(side.manifest, stage)
    return side.tables.summary["gpu_kernel_ms_per_step"] if side.tables else NAN


def _gpu_per_step(side: RunSide) -> tuple[float, list[Any]] | None:
    if side.tables is None:
        return None
    steps = side.step_kernel_ns
    per_step = list(steps.sum(axis=0) / NS_PER_MS) if steps is not None and not steps.empty else []
    return side.tables.summary["gpu_kernel_ms_per_step"], per_step


def compare(a: RunSide, b: RunSide, min_share: float = 1.0, fail_above: float | None = None,
            allow_different: bool = False, ranks: dict[str, Any] | None = None, fail_above_spread: float | None = None,
            fail_above_comm: float | None = None) -> Diff:
    """ranks: runs of several ranks, rank_gate.ranks_change (gated by fail_above_spread, fail_above_comm)."""
    same_kind(f"A ({a.run.root})", a.manifest, f"B ({b.run.root})", b.manifest)   # training vs inference: refused
    missing = a.missing + b.missing
    for side in (a, b):
        if not any(stage_steps(side.manifest, s) for s, _ in TIMING_STAGES):
            missing.append(("steps", f"run {side.label} has no per-step times in its manifest"))
    steps = step_rows(a.manifest, b.manifest, _gpu_per_step(a), _gpu_per_step(b))
    kernels = categories = attention = None
    if a.tables is not None and b.tables is not None:
        ka, kb = a.tables.kernels.set_index("name"), b.tables.kernels.set_index("name")
        by_call = a.tables.library_ops is not None and b.tables.library_ops is not None   # else by name
        ia = diff_kernels.items(ka, a.tables.library_ops if by_call else None)
        ib = diff_kernels.items(kb, b.tables.library_ops if by_call else None)
        kernels = diff_kernels.rows(ia, ib, diff_kernels.pair(ia, ib, a.fingerprints, b.fingerprints),
                                    a.step_kernel_ns, b.step_kernel_ns, _share_step_ms(a), _share_step_ms(b))
        categories = category_rows(a.tables.summary, b.tables.summary, category_steps(a.step_kernel_ns, ka),
                                   category_steps(b.step_kernel_ns, kb))
    if a.attention is not None and b.attention is not None:
        attention = attention_rows(a.attention, b.attention)
    sizes, only = size_rows(a, b)
    changes = setting_changes(a.manifest, b.manifest)
    experiment = diff_experiment.applied(str(a.run.root), a.manifest, a.tables.experiments if a.tables else None,
                                         str(b.run.root), b.manifest, b.tables.experiments if b.tables else None,
                                         changes)
    return Diff(a=str(a.run.root), b=str(b.run.root), steps=steps, kernels=kernels, categories=categories,
                attention=attention, min_share=min_share, fail_above=fail_above,
                warnings=run_warnings(a.manifest, b.manifest) + only, missing=missing,
                changes=changes, sizes=sizes if len(sizes) else None,
                gaps=gaps(a, b, steps, kernels, min_share), runs={"a": run_facts(a), "b": run_facts(b)},
                allow_different=allow_different, ranks=ranks, fail_above_spread=fail_above_spread,
                fail_above_comm=fail_above_comm, experiment=experiment)
