"""`profile --mode reduce-overhead`: accepted, and under regional compile each step marks the start of a new
generation of the blocks' CUDA graph tree (a forward pre-hook on the whole model, outside the compiled blocks)."""
import pytest
import torch

from inductor_prof.errors import UserError
from inductor_prof.pipeline.compile import MODES, CompileOptions, compile_target
from inductor_prof.targets import load_custom


def test_reduce_overhead_is_a_mode_and_a_bad_mode_lists_it():
    CompileOptions(mode="reduce-overhead").validate()
    assert "reduce-overhead" in MODES
    with pytest.raises(UserError, match="reduce-overhead"):
        CompileOptions(mode="bogus").validate()


def test_each_step_of_a_graphs_run_marks_a_new_generation(monkeypatch):
    marks = []
    monkeypatch.setattr(torch.compiler, "cudagraph_mark_step_begin", lambda: marks.append(1))
    target = load_custom("tests.experiments.tiny_blocks:tiny")
    hooks_before = len(target.model._forward_pre_hooks)
    assert compile_target(target, CompileOptions(mode="reduce-overhead")) == "regional"
    assert len(target.model._forward_pre_hooks) == hooks_before + 1
    target.model._forward_pre_hooks[next(reversed(target.model._forward_pre_hooks))](target.model, ())
    assert marks == [1]
    # the default mode adds nothing
    other = load_custom("tests.experiments.tiny_blocks:tiny")
    compile_target(other, CompileOptions(mode="default"))
    assert len(other.model._forward_pre_hooks) == hooks_before


def test_a_graphs_runs_warmup_records_each_steps_launches_and_writes_them(tmp_path, monkeypatch):
    """Stage warmup of a CUDA-graphs run: every step's Triton launches (here launched as Inductor's launcher does:
    the hook chain called with the kernel's LazyDict) recorded apart, written to proton/recorded_launches.json and
    counted in the stage's entry."""
    from types import SimpleNamespace

    from triton import knobs
    from triton.compiler.compiler import LazyDict

    from inductor_prof import rundir
    from inductor_prof.inductor.launch_record import LaunchRecorder
    from inductor_prof.inductor.metrics import KernelMetrics
    from inductor_prof.pipeline.compile import warmup
    from inductor_prof.runfiles.files import recorded_launches_file

    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)   # proton.timed_steps syncs a GPU
    x = torch.ones(256)

    def step():   # two launches a step of one kernel: 256 fp32 elements read and written, one op each
        for _ in range(2):
            meta = LazyDict({"name": "triton_poi_fused_add_0", "function": 0, "stream": 0})
            meta.add(KernelMetrics("pointwise", ops_per_element=1), ((1, 1, 1), None, {"in_out_ptr0": x,
                                                                                        "xnumel": 256}))
            knobs.runtime.launch_enter_hook(meta)

    run = rundir.RunDir(tmp_path)
    ctx = SimpleNamespace(run=run, opts=SimpleNamespace(warmup=3), launch_recorder=LaunchRecorder(),
                          target=SimpleNamespace(each_size=lambda: [(None, step)]))
    info = warmup(ctx)
    assert info["recorded_launches"] == {"steps": 3, "launches": [2, 2, 2]}
    doc = recorded_launches_file(run.recorded_launches)
    k = doc["steps"][2]["kernels"]["triton_poi_fused_add_0"]
    # an in_out_ptr read and written, KernelMetrics without its source: counted twice, 2 * 256 * 4 B a launch
    assert (k["launches"], k["bytes"], k["flops32"]) == (2, 4096.0, 512.0)
