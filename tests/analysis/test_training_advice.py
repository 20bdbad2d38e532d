"""A training step's 'where to look next' items (analysis/training_advice.py), against values worked out by hand
from the phases they are given."""
import pandas as pd
import pytest

from inductor_prof.analysis.training_advice import items

PHASES = {
    "forward": {"ms_per_step": 10.0, "gb_per_step": 16.0, "launches_per_step": 89, "saved_bytes": 3 * 2**30},
    "backward": {"ms_per_step": 25.0, "gb_per_step": 29.0, "launches_per_step": 158},
    "optimizer": {"ms_per_step": 2.0, "gb_per_step": 7.0, "launches_per_step": 120},
}
PEAKS = {"dram_gbps": 4000.0}
KERNELS = pd.DataFrame({
    "display": ["gemm", "softmax_bwd", "norm_fwd"], "phase": ["forward+backward", "backward", "forward"],
    "step_ms": [12.0, 3.0, 1.0], "headroom_ms_per_step": [0.5, 1.25, 2.0], "do": ["-", "fewer bytes", "fuse"],
    "headroom_vs": ["81% of bf16", "40% of DRAM", "30% of DRAM"]})


def by_what(rows, start):
    return next(r for r in rows if r["what"].startswith(start))


def test_backward_against_forward():
    r = by_what(items(KERNELS, PHASES, PEAKS, "AdamW"), "backward 25.00")
    # 25 / 10 = 2.5x, above the 2x of GEMMs: a backward kernel of its own costs
    assert r["what"] == "backward 25.00 ms/step, 2.50x the forward's 10.00"
    assert r["do"].startswith("its kernels below: more than the GEMMs' 2x")


def test_backward_kernel_with_most_headroom():
    # norm_fwd has more headroom (2.0) but runs in forward only: softmax_bwd's 1.25 is backward's largest
    r = by_what(items(KERNELS, PHASES, PEAKS, "AdamW"), "backward kernel")
    assert r["what"] == "backward kernel softmax_bwd" and r["headroom_ms_per_step"] == 1.25
    assert r["why"] == "40% of DRAM"


def test_optimizer_launches_and_dram_floor():
    rows = items(KERNELS, PHASES, PEAKS, None)
    r = by_what(rows, "optimizer")
    # 7 GB at 4000 GB/s = 1.75 ms; 2.0 measured: 0.25 ms of headroom; eager (not compiled)
    assert r["headroom_ms_per_step"] == pytest.approx(0.25)
    assert r["why"] == "7.00 GB at the DRAM roof: 1.75 ms; eager"
    assert r["do"].startswith("torch.compile the optimizer step")
    compiled = by_what(items(KERNELS, PHASES, PEAKS, "AdamW"), "optimizer")
    assert compiled["do"].startswith("fewer, larger launches")   # 120 launches > 50, though compiled


def test_activations_kept_for_backward():
    r = by_what(items(KERNELS, PHASES, PEAKS, "AdamW"), "activations")
    # 3 GiB = 3,221,225,472 B written and read back: 6,442,450,944 B at 4000 GB/s = 1.6106 ms
    assert r["what"] == "activations kept for backward: 3.00 GiB"
    assert r["ms_per_step"] == pytest.approx(1.6106127, rel=1e-6)
