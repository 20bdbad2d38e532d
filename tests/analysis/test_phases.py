"""A training run's phases (analysis/phases.py): each launch's phase from its Proton scope path, each kernel's
phases, and the per-phase time, work, launches and memory peak of the summary, against sums done by hand."""
import pandas as pd
import pytest

from inductor_prof.analysis.phases import is_training, kernel_phases, phase_of_path, phase_summary

NCCL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"


def rows(*launches):
    """Hatchet kernel rows: (name, path, calls, time_ns, bytes, flops16)."""
    cols = ["name", "path", "calls", "time_ns", "bytes", "flops16"]
    df = pd.DataFrame(launches, columns=cols)
    for k in ("flops8", "flops32", "flops64"):
        df[k] = 0.0
    return df


STEPS = rows(  # 2 timed steps
    ("nvjet_gemm", "step_0/forward/layer_0", 2, 400.0, 0, 0), ("nvjet_gemm", "step_1/forward/layer_0", 2, 400.0, 0, 0),
    ("nvjet_gemm", "step_0/backward", 4, 1000.0, 0, 0), ("nvjet_gemm", "step_1/backward", 4, 1000.0, 0, 0),
    ("triton_for_fused_0", "step_0/optimizer", 10, 100.0, 0, 0),
    ("triton_for_fused_0", "step_1/optimizer", 10, 100.0, 0, 0),
    (NCCL, "step_0/backward", 1, 0.0, 0, 0), (NCCL, "step_1/backward", 1, 0.0, 0, 0))


def test_phase_of_path_and_training_runs():
    assert phase_of_path("step_3/backward") == "backward"
    assert phase_of_path("seq512/step_0/forward/double_1") == "forward"
    assert phase_of_path("step_0/double_1") == ""          # an inference run
    assert is_training(STEPS) and not is_training(rows(("k", "step_0/layer_0", 1, 1.0, 0, 0)))


def test_kernel_phases_in_step_order():
    assert kernel_phases(STEPS) == {"nvjet_gemm": "forward+backward", "triton_for_fused_0": "optimizer",
                                    NCCL: "communication"}


def test_phase_summary_by_hand():
    # annotated step (one step): the optimizer's foreach kernel 0.5 GB, 10 launches; a forward Inductor kernel
    annotated = rows(("triton_for_fused_0", "annotated_step_0/optimizer", 10, 90.0, 5e8, 0),
                     ("triton_poi_0", "annotated_step_0/forward/layer_0", 1, 9.0, 1e8, 2e9))
    # library_ops.csv (one step): a forward GEMM of 1 TFLOP, two backward ones (dgrad, wgrad) of 1 TFLOP each
    library = pd.DataFrame({"kernel": ["nvjet_gemm"] * 3, "op": ["aten::mm"] * 3,
                            "phase": ["forward", "backward", "backward"], "flops_key": ["flops16"] * 3,
                            "flops": [1e12, 1e12, 1e12], "bytes": [1e9, 1e9, 2e9]})
    memory = {"forward": {"peak_bytes": 3 * 2**30}, "backward": {"peak_bytes": 5 * 2**30}}
    s = phase_summary(STEPS, annotated, library, 2, memory)
    assert list(s) == ["forward", "backward", "optimizer", "communication"]
    total = 800 + 2000 + 200 + 0   # ns over both steps
    # forward: 800 ns over 2 steps = 0.0004 ms/step, 4 launches/2; 1 TFLOP (GEMM) + 2 GFLOP (Inductor);
    # 1 GB + 0.1 GB; 1.002e12 flops in 400 ns a step = 2.505e6 TFLOP/s
    f = s["forward"]
    assert f["ms_per_step"] == pytest.approx(0.0004) and f["pct_of_gpu_time"] == pytest.approx(100 * 800 / total)
    assert f["launches_per_step"] == 2 and f["tflop_per_step"] == pytest.approx(1.002)
    assert f["gb_per_step"] == pytest.approx(1.1) and f["tflops"] == pytest.approx(1.002e12 / 400e-9 / 1e12)
    assert f["peak_memory_bytes"] == 3 * 2**30
    b = s["backward"]   # 2 TFLOP, 3 GB, 4 launches a step, 1000 ns a step
    assert b["tflop_per_step"] == pytest.approx(2.0) and b["gb_per_step"] == pytest.approx(3.0)
    assert b["launches_per_step"] == 4 and b["ms_per_step"] == pytest.approx(0.001)
    o = s["optimizer"]   # 0.5 GB, no flops, 10 launches a step; no peak measured
    assert o["gb_per_step"] == pytest.approx(0.5) and o["tflop_per_step"] == 0 and o["launches_per_step"] == 10
    assert o["peak_memory_bytes"] is None
    assert s["communication"]["launches_per_step"] == 1   # the collective, out of backward's launches


def test_diff_of_an_inference_run_and_a_training_run_says_they_differ_in_kind():
    from typer.testing import CliRunner

    from inductor_prof.cli import app
    from recorded import REPO

    runs = REPO / "examples" / "runs"
    # the decoder's inference run (H100) against the decoder's training step (H200): shipped, real runs
    r = CliRunner().invoke(app, ["diff", str(runs / "llama-h100"), str(runs / "llama-train-h200")])
    assert r.exit_code == 2
    line = r.output.strip().splitlines()[-1]
    assert line.startswith(f"error: A ({runs / 'llama-h100'}) is an inference run and B ")
    assert "a training run: they differ in kind" in line and "diff does not pair their kernels" in line
    # two training runs (regional and whole-model compile) are of one kind: compared
    r = CliRunner().invoke(app, ["diff", str(runs / "llama-train-h200"), str(runs / "llama-train-whole-h200")])
    assert r.exit_code == 0, r.output
