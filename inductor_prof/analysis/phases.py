"""A training run's phases (pure): forward, backward, optimizer (and communication, NCCL kernels, in any
phase). Every launch's phase is the phase scope on its Proton path (`step_<i>/backward/...`: the profile runs
each phase of a training step inside one, backward on the calling thread); a library call's in
library_ops.csv is the torch.profiler range that held its launch. Per kernel: the phases it ran in; per phase:
GPU time and work per step, launches, and the allocator's peak (manifest profile.phase_memory)."""
from __future__ import annotations

from typing import Any

import pandas as pd

from ..cost import FLOP_KEYS, rates
from ..targets.training import PHASES
from ..units import GB, NS_PER_MS, NS_PER_S, TFLOP
from .collectives import is_nccl
from ..names import demangle

COMMUNICATION = "communication"   # a collective's phase, whichever training phase launched it


def run_kind(manifest: dict[str, Any]) -> str:
    """"training" for a `profile --train` run, else "inference"."""
    return "training" if (manifest.get("settings") or {}).get("train") else "inference"


def same_kind(label_a: str, manifest_a: dict[str, Any], label_b: str, manifest_b: dict[str, Any]) -> None:
    """Two runs `diff` may pair kernel by kernel: both training steps or both inference; else one line
    saying they differ in kind (a training step's backward kernels have no counterpart in an inference run,
    and a forward GEMM would be paired with a backward one of the same cuBLAS kernel)."""
    from ..errors import UserError

    kind_a, kind_b = run_kind(manifest_a), run_kind(manifest_b)
    if kind_a != kind_b:
        raise UserError(f"{label_a} is {'a training' if kind_a == 'training' else 'an inference'} run and {label_b} "
                        f"{'a training' if kind_b == 'training' else 'an inference'} run: they differ in kind "
                        "(forward, backward and optimizer against forward only), so diff does not pair their "
                        "kernels; compare two training runs or two inference runs")


def phase_of_path(path: str) -> str:
    """The training phase scope on a Proton scope path ("" outside every phase: an inference run)."""
    for part in str(path).split("/"):
        if part in PHASES:
            return part
    return ""


def phase_of_launch(name: str, path: str) -> str:
    """A launch's phase: communication for a collective, else its path's phase scope."""
    return COMMUNICATION if is_nccl(demangle(str(name))) else phase_of_path(path)


def is_training(steps: pd.DataFrame) -> bool:
    """Whether the timed steps ran phases (a training run)."""
    return bool(len(steps)) and any(phase_of_path(p) for p in steps["path"].unique())


def kernel_phases(steps: pd.DataFrame) -> dict[str, str]:
    """Kernel name -> the phases it ran in, in step order ("backward", "forward+backward": one cuBLAS kernel
    serves a forward GEMM and a backward one; the per-phase split is in phase_summary)."""
    order = {p: i for i, p in enumerate((*PHASES, COMMUNICATION))}
    seen: dict[str, set[str]] = {}
    for name, path in zip(steps["name"].tolist(), steps["path"].tolist()):
        phase = phase_of_launch(name, path)
        if phase:
            seen.setdefault(name, set()).add(phase)
    # every phase kept is one of order's keys (phase_of_launch: a PHASES entry, COMMUNICATION, or "", skipped)
    return {name: "+".join(sorted(phases, key=order.__getitem__)) for name, phases in seen.items()}


def _work(rows: pd.DataFrame, phase_col: pd.Series, phase: str) -> tuple[float, float]:
    """(flops, bytes) of the rows in `phase`."""
    sub = rows[phase_col == phase]
    flops = float(sum(sub[k].sum() for k in FLOP_KEYS if k in sub.columns))
    return flops, float(sub["bytes"].sum()) if "bytes" in sub.columns else 0.0


def phase_summary(steps: pd.DataFrame, annotated: pd.DataFrame | None, library_ops: pd.DataFrame | None,
                  n_steps: int, memory: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Per phase (in step order; communication last where collectives ran): ms, % of GPU kernel time, kernel
    launches per step, TFLOP and GB per step and TFLOP/s over the phase's kernel time, and the allocator's
    peak while it ran (bytes; None where not measured).

    Time and launches come from the timed steps (n_steps of them). Work: Inductor kernels' from the annotated
    step (one step: Proton's launch metadata per launch, with its path), library calls' from library_ops.csv
    (one step, each row's phase)."""
    phase = pd.Series([phase_of_launch(n, p) for n, p in zip(steps["name"], steps["path"])], index=steps.index)
    total = float(steps["time_ns"].sum())
    ann_phase = (pd.Series([phase_of_launch(n, p) for n, p in zip(annotated["name"], annotated["path"])],
                           index=annotated.index) if annotated is not None and len(annotated) else None)
    lib = library_ops if library_ops is not None and "phase" in library_ops.columns else None
    lib_phase = lib["phase"].fillna("").astype(str) if lib is not None else None
    if lib is not None:   # library_ops.csv keeps one flops column and its width key: spread per width
        lib = lib.assign(**{k: lib["flops"].where(lib["flops_key"] == k, 0) for k in FLOP_KEYS})
    out: dict[str, dict[str, Any]] = {}
    for name in (*PHASES, COMMUNICATION):
        ns = float(steps.loc[phase == name, "time_ns"].sum())
        if name == COMMUNICATION and not (phase == name).any():   # no collective ran
            continue
        flops = nbytes = 0.0
        if ann_phase is not None:
            f, b = _work(annotated, ann_phase, name)
            flops, nbytes = flops + f, nbytes + b
        if lib is not None:
            f, b = _work(lib, lib_phase, name)
            flops, nbytes = flops + f, nbytes + b
        mem = (memory or {}).get(name) or {}
        peak = mem.get("peak_bytes")
        out[name] = {"ms_per_step": ns / n_steps / NS_PER_MS, "pct_of_gpu_time": 100 * ns / total if total else 0.0,
                     "launches_per_step": float(steps.loc[phase == name, "calls"].sum()) / n_steps,
                     "tflop_per_step": flops / TFLOP, "gb_per_step": nbytes / GB,
                     "tflops": rates(flops, 0.0, ns / n_steps / NS_PER_S)[0] if ns else 0.0,
                     "peak_memory_bytes": peak}
        if name == COMMUNICATION:   # the training phase each collective was launched from (DDP's: backward)
            nccl = steps[phase == name]
            launched = pd.Series(nccl["time_ns"].tolist(), index=[phase_of_path(p) or "outside any phase"
                                                                   for p in nccl["path"]]).groupby(level=0).sum()
            out[name]["launched_in"] = {k: float(launched[k]) / n_steps / NS_PER_MS
                                        for k in (*PHASES, "outside any phase") if k in launched.index}
        if name == "forward" and "end_bytes" in mem and "start_bytes" in mem:
            # what the forward leaves allocated: the activations autograd keeps for backward (and the loss)
            out[name]["saved_bytes"] = mem["end_bytes"] - mem["start_bytes"]
    return out
