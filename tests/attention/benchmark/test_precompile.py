"""precompile: which own kernels it compiles ahead, at which shapes, with what the stage's tuning would use."""
import pytest

from inductor_prof.attention.benchmark import precompile as pc
from inductor_prof.attention.benchmark.bench import BenchOptions
from inductor_prof.attention.kernels import triton_fa
from inductor_prof.attention.semantics import masks
from inductor_prof.attention.semantics.shapes import Shape


@pytest.fixture
def interpreted(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")     # the tl kernel is available on this CPU machine


def test_only_unmasked_and_causal_shapes_are_compiled_ahead_with_the_stages_arguments(interpreted, monkeypatch):
    calls = []

    def tune(q, k, v, scale, compile_only=False, **args):
        calls.append((tuple(q.shape), tuple(k.shape), round(scale, 6), compile_only, args))
        return [], None
    monkeypatch.setattr(triton_fa, "tune", tune)
    checks = []
    monkeypatch.setattr(triton_fa, "launch", lambda q, k, v, scale, config, causal, compile_only: checks.append(
        (tuple(q.shape), config, causal, compile_only)))
    causal = Shape(1, 4, 64, 64, 32, "float32", Hkv=2, mask=masks.CAUSAL)
    window = Shape(1, 4, 64, 64, 32, "float32", mask=masks.MaskSpec("window", window=16))   # built on the GPU
    plain = Shape(2, 2, 48, 48, 16, "float32", scale=0.5)
    seconds = pc.precompile([(causal, 1, ""), (window, 1, ""), (plain, 1, "")],
                            BenchOptions(backends=["triton_fa2", "sdpa"], device="cpu"))
    assert set(seconds) == {"triton_fa2"}     # sdpa has nothing to compile ahead
    # the causal shape's GQA kept (k: 2 heads), its scale 1/sqrt(32); the plain shape's own scale
    assert calls == [((1, 4, 64, 32), (1, 2, 64, 32), 0.176777, True, {"causal": True}),
                     ((2, 2, 48, 16), (2, 2, 48, 16), 0.5, True, {})]
    # the check's call too: the default config (None) at the checked shape (these are small: their own)
    assert checks == [((1, 4, 64, 32), None, True, True), ((2, 2, 48, 16), None, False, True)]


def test_the_check_is_compiled_at_the_reduced_shape_it_runs_at(interpreted, monkeypatch):
    from inductor_prof.attention.benchmark.bench import check_shape

    checks = []
    monkeypatch.setattr(triton_fa, "tune", lambda *a, **kw: ([], None))
    monkeypatch.setattr(triton_fa, "launch", lambda q, *a, **kw: checks.append(tuple(q.shape)))
    long = Shape(1, 4, 8192, 8192, 16, "float32")
    reduced = check_shape(long)
    assert reduced.Sq < long.Sq     # long enough to be checked shorter
    pc.precompile([(long, 1, "")], BenchOptions(backends=["triton_fa2"], device="cpu"))
    assert checks == [(1, 4, reduced.Sq, 16)]
