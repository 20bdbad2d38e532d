"""Proton (triton.profiler): timed steps with a scope per step and per block, and the annotated step.

Parsing is pure: a `.hatchet` file is JSON (a tree of frames with metrics, then device info).
"""
from __future__ import annotations

import json
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import pandas as pd

FLOP_KEYS = ("flops8", "flops16", "flops32", "flops64", "flops")


# ---- running -------------------------------------------------------------------------------------------

class BlockScopes:
    """Proton scopes around each repeated block, entered only while a session is recording."""

    enabled = False

    @staticmethod
    def wrap(model, blocks: list[tuple[str, Any]]) -> None:
        """Replaces each block, in its parent, by a thin uncompiled wrapper that opens a scope."""
        import torch

        class ScopedBlock(torch.nn.Module):
            def __init__(self, scope: str, block):
                super().__init__()
                self.scope = scope
                self.block = block

            def forward(self, *args, **kwargs):
                if not BlockScopes.enabled:
                    return self.block(*args, **kwargs)
                import triton.profiler as proton

                proton.enter_scope(self.scope)
                try:
                    return self.block(*args, **kwargs)
                finally:
                    proton.exit_scope()

        by_id = {id(b): s for s, b in blocks}
        for parent_name, parent in list(model.named_modules()):
            for child_name, child in list(parent.named_children()):
                if id(child) in by_id:
                    setattr(parent, child_name, ScopedBlock(by_id[id(child)], child))


def timed_steps(step: Callable[[], Any], n: int, scope_prefix: str | None = None,
                on_step: Callable[[int], None] | None = None) -> list[float]:
    """Runs `step` n times; wall time per step in ms, synchronised; a Proton scope per step if asked."""
    import torch

    times = []
    for i in range(n):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        if scope_prefix is not None:
            import triton.profiler as proton

            with proton.scope(f"{scope_prefix}{i}"):
                step()
        else:
            step()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
        if on_step:
            on_step(i)
    return times


@contextmanager
def session(path: Path, hook: str | None) -> Iterator[None]:
    """One Proton session writing `path` (.hatchet); block scopes are live inside it."""
    import triton.profiler as proton

    path.parent.mkdir(parents=True, exist_ok=True)
    stem = str(path.with_suffix(""))
    proton.start(stem, hook=hook)
    BlockScopes.enabled = True
    try:
        yield
    finally:
        BlockScopes.enabled = False
        proton.finalize()


# ---- parsing -------------------------------------------------------------------------------------------

def _norm_metrics(metrics: dict) -> dict:
    return {str(k).lower(): v for k, v in metrics.items()}


def _time_ns(m: dict) -> float:
    for key in ("time (ns)", "time(ns)", "time_ns", "time"):
        if key in m:
            return float(m[key])
    return 0.0


def load_hatchet(path: Path) -> tuple[dict, dict]:
    """(root frame, device info) from a .hatchet file."""
    data = json.loads(Path(path).read_text())
    if isinstance(data, list):
        return data[0], (data[1] if len(data) > 1 and isinstance(data[1], dict) else {})
    return data, {}


def kernel_rows(root: dict) -> list[dict]:
    """One row per kernel node (a frame with time and no timed children), with its scope path.

    Under hook="triton" Proton enters an op named like the kernel and puts the GPU kernel below it; the
    op's flops/bytes are then merged into the kernel row.
    """
    rows: list[dict] = []

    def visit(node: dict, path: tuple[str, ...], parent_metrics: dict, parent_name: str | None):
        name = node.get("frame", {}).get("name", "")
        metrics = _norm_metrics(node.get("metrics", {}))
        children = node.get("children", []) or []
        timed_children = [c for c in children if _time_ns(_norm_metrics(c.get("metrics", {}))) > 0
                          or c.get("children")]
        if not timed_children and _time_ns(metrics) > 0:
            merged = dict(metrics)
            if parent_name == name:
                for k, v in parent_metrics.items():
                    if (k.startswith("flops") or k == "bytes") and k not in merged:
                        merged[k] = v
            row = {"name": name, "path": "/".join(path), "calls": int(merged.get("count", 0) or 0),
                   "time_ns": _time_ns(merged), "bytes": float(merged.get("bytes", 0) or 0)}
            for key in FLOP_KEYS:
                row[key] = float(merged.get(key, 0) or 0)
            rows.append(row)
            return
        for child in children:
            visit(child, path + ((name,) if name and name != "ROOT" else ()), metrics, name)

    visit(root, (), {}, None)
    return rows


def parse(path: Path) -> pd.DataFrame:
    """Kernel rows of a hatchet file: name, path (scopes), calls, time_ns, bytes, flops8..flops64, flops."""
    root, _ = load_hatchet(path)
    columns = ["name", "path", "calls", "time_ns", "bytes", *FLOP_KEYS]
    return pd.DataFrame(kernel_rows(root), columns=columns)


def device_info(path: Path) -> dict:
    return load_hatchet(path)[1]
