"""Proton's .hatchet files, parsed. A hatchet is JSON: a tree of frames with metrics, then device info;
`kernel_rows` is pure, `parse` and `device_info` read a file.

Metric names differ in case across Proton releases ("time (ns)" / "Time (ns)"): keys are lower-cased first.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

FLOP_KEYS = ("flops8", "flops16", "flops32", "flops64", "flops")


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
