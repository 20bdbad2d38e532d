"""The attention benchmark as a step of a run folder: shapes from the run, results back into it.

Writes attention.csv (one row per backend x shape), attention_tuning.csv (every tile config tried),
proton/attention.hatchet, and the FlexAttention kernels Inductor generated under attention/kernels/.
"""
from __future__ import annotations

import json
from typing import Callable

import pandas as pd

from .. import rundir
from ..compile import isolated_cache
from ..errors import UserError, one_line
from .bench import BenchOptions, proton_pass, run as run_bench
from .registry import backends as all_backends
from .shapes import Shape, from_calls


def run_shapes(run: rundir.RunDir, extra: list[Shape] = ()) -> list[tuple[Shape, int, str]]:
    shapes = []
    if run.attention_shapes_json.exists():
        shapes = from_calls(json.loads(run.attention_shapes_json.read_text()))
    shapes += [(s, 0, "") for s in extra if s not in {x for x, _, _ in shapes}]
    if not shapes:
        raise UserError(f"{run.root} has no captured attention calls ({run.attention_shapes_json.name}) "
                        "and no --shape was given")
    return shapes


def peak_tflops(manifest: dict) -> float | None:
    """The dense 16-bit tensor peak of the run's GPU (published figure)."""
    from ..specs import spec_peaks

    gpu = ((manifest.get("env") or {}).get("gpu") or {}).get("name", "")
    if not gpu:
        import torch

        gpu = torch.cuda.get_device_name() if torch.cuda.is_available() else ""
    peaks = spec_peaks(gpu) if gpu else None
    return peaks.get("flops16") if peaks else None


def run_attention(run: rundir.RunDir, opts: BenchOptions, extra: list[Shape] = (),
                  on_backend: Callable[[int, int, str], None] | None = None) -> dict:
    shapes = run_shapes(run, extra)
    manifest = run.read_manifest()
    opts.peak_tflops = opts.peak_tflops or peak_tflops(manifest)
    opts.proton_path = run.proton_dir / "attention.hatchet"
    cache = run.root / "attention" / "inductor_cache"
    with isolated_cache(cache):
        result = run_bench(shapes, opts, on_backend)
        pd.DataFrame(result.rows).to_csv(run.attention_csv, index=False)   # kept even if what follows fails
        if result.tuning:
            pd.DataFrame(result.tuning).to_csv(run.root / "attention_tuning.csv", index=False)
        proton = ""
        try:
            proton_pass(shapes, all_backends(opts.backends), result.rows, opts)
        except Exception as e:  # CUPTI already taken (e.g. by torch.profiler in this process): say so, keep the rest
            proton = one_line(e)
    flex = harvest_flex(cache, run.root / "attention" / "kernels")
    return {"shapes": len(shapes), "rows": len(result.rows), "ok": sum(bool(r["ok"]) for r in result.rows),
            "flex_kernels": flex, "proton": proton or str(opts.proton_path.relative_to(run.root))}


def harvest_flex(cache, out_dir) -> int:
    """FlexAttention's generated Triton kernels, harvested like the model's own Inductor kernels."""
    from ..harvest import harvest_cache, write_kernels

    records = harvest_cache(cache)
    if not records:
        return 0
    rows = write_kernels(records, out_dir)
    rundir.write_json(out_dir / "kernels.json", rows)
    return len(rows)
