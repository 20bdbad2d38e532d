"""Attention timings reused from an earlier run (measure_store.py): the rows of a shape (every backend, timed
together) are taken from the store when everything that changes them is the same: the GPU, driver, torch, triton,
the own kernels' sources, the library backends' versions and availability, the benchmark's code and options, and
the shape with its semantics, calls and the model's op. A reused row names the run that measured it
(`origin_run_id`); its % of peak is judged again against this run's ceilings, as every row is. `--fresh` reuses
nothing; what is measured is stored either way.
"""
from __future__ import annotations

import dataclasses
import functools
import math
from pathlib import Path
from typing import Any

from ...measure_store import MeasureStore, code_fingerprint
from ..semantics.shapes import Shape, to_dict

KIND = "attention"
ORIGIN = "origin_run_id"   # a reused row's column: the run that measured it
HERE = Path(__file__).resolve().parent
LIBRARIES = ("flash-attn", "flash_attn_3", "xformers", "transformer_engine", "transformer-engine")


@functools.lru_cache(maxsize=None)
def machine_facts() -> dict:
    """This GPU and its software (tuning_cache.machine_facts: GPU, driver, torch, triton, the own kernels), cuDNN,
    the library backends' versions, and the benchmark's own code."""
    import torch

    from ...envinfo import package_version
    from ..tuning_cache import machine_facts as tuning_facts

    return {**tuning_facts(), "cudnn": torch.backends.cudnn.version(),
            "libraries": {p: package_version(p) for p in LIBRARIES},
            "code": code_fingerprint(*HERE.glob("*.py"), HERE.parent / "timing.py")}


def shape_facts(machine: dict, shape: Shape, calls: int, op: str, backends: list, options: dict) -> dict | None:
    """What one shape's rows depend on: `machine`, the shape (every field, its mask's included), its calls and the
    model's op, each backend's availability, and the benchmark's options (seed, repetition time, tuning, device).
    None for a mask rebuilt from values saved in the run (another run's file of the same name may differ)."""
    if shape.mask.file:
        return None
    return {"machine": machine, "shape": {**dataclasses.asdict(shape), **to_dict(shape)}, "calls": calls, "op": op,
            "options": options, "backends": [[b.name, bool(b.available), b.reason or ""] for b in backends]}


def _rows(value: Any) -> list[dict] | None:
    rows = value.get("rows") if isinstance(value, dict) else None
    return rows if isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows) else None


def take(store: MeasureStore, facts: dict) -> tuple[list[dict], dict, str] | None:
    """(the shape's rows, each naming the run that measured it; the reduced shapes its checks ran at; that run's
    id), or None: not stored, or stored damaged (a warning)."""
    found = store.get(KIND, facts)
    if found is None:
        return None
    rows = _rows(found["value"])
    if rows is None:
        store.warnings.append(f"measurement store: an attention entry without its rows ({facts['shape'].get('label')}"
                              "): measured again")
        return None
    checked = found["value"].get("checked")
    return ([{**_numbers(r), ORIGIN: found["run_id"]} for r in rows], checked if isinstance(checked, dict) else {},
            found["run_id"])


def keep(store: MeasureStore, facts: dict, run_id: str, rows: list[dict], checked: dict) -> None:
    """The shape's rows measured in run `run_id`, stored (NaN as null: the store is JSON)."""
    store.put(KIND, facts, run_id, {"rows": [{k: (None if isinstance(v, float) and math.isnan(v) else v)
                                              for k, v in r.items()} for r in rows], "checked": checked})


def _numbers(row: dict) -> dict:
    """A stored row with its nulls back as NaN, as bench_shape writes a value it did not measure."""
    return {k: (float("nan") if v is None and k not in ("reason", "config", "description") else v)
            for k, v in row.items()}
