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
