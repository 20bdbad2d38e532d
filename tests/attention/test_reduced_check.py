"""Correctness is checked at a reduced length where the full one is costly (bench.check_shape): past 2^27 scores
(B*H*Sq*Sk), each length over 1024 + 256 becomes 1024 + (length mod 256), same B, H, Hkv, D, dtype and
semantics; the timing stays at the full shape."""
import dataclasses

import pytest

from inductor_prof.attention.benchmark import bench, registry
from inductor_prof.attention.benchmark.bench import BenchOptions, BenchResult
from inductor_prof.attention.semantics.masks import MaskSpec
from inductor_prof.attention.semantics.shapes import Shape

CAUSAL = MaskSpec("causal")


@pytest.mark.parametrize("shape, expected", [
    # FLUX: 24 * 4608^2 = 509,607,936 scores > 134,217,728; 4608 = 18 * 256: 1024 + 0
    (Shape(1, 24, 4608, 4608, 128), Shape(1, 24, 1024, 1024, 128)),
    # 4600 mod 256 = 248: 1272 tokens, the same ragged last tile; causal kept (Sq == Sk)
    (Shape(1, 24, 4600, 4600, 128, "float16", Hkv=8, mask=CAUSAL),
     Shape(1, 24, 1272, 1272, 128, "float16", Hkv=8, mask=CAUSAL)),
    # exactly 2^27 scores (2 * 16 * 2048 * 2048): the full shape
    (Shape(2, 16, 2048, 2048, 64), Shape(2, 16, 2048, 2048, 64)),
    # one key more: over; dense Sq != Sk, each length cut on its own (2049 mod 256 = 1)
    (Shape(2, 16, 2048, 2049, 64), Shape(2, 16, 1024, 1025, 64)),
    # a length at most 1024 + 256 is kept: only the other one is cut (64 * 32 * 1280 * 4096 > 2^27)
    (Shape(64, 32, 1280, 4096, 64), Shape(64, 32, 1280, 1024, 64)),
    # causal with Sq != Sk: top-left would mean another pattern at other lengths: full
    (Shape(1, 24, 4096, 8192, 128, mask=CAUSAL), Shape(1, 24, 4096, 8192, 128, mask=CAUSAL)),
    # a recorded or rebuilt mask holds the model's lengths: full
    (Shape(1, 24, 4608, 4608, 128, mask=MaskSpec("window", window=256)),
     Shape(1, 24, 4608, 4608, 128, mask=MaskSpec("window", window=256))),
])
def test_check_shape(shape, expected):
    assert bench.check_shape(shape) == expected


def test_the_bench_checks_at_the_reduced_shape_and_times_the_full_one(monkeypatch):
    # at a toy threshold: 1 * 2 * 40 * 40 = 3,200 scores > 100; 40 > 16 + 8, so 16 + 40 mod 8 = 16
    monkeypatch.setattr(bench, "CHECK_MAX_SCORES", 100)
    monkeypatch.setattr(bench, "CHECK_SEQ", 16)
    monkeypatch.setattr(bench, "CHECK_TILE", 8)
    blocked = registry.backends(["torch_blocked"])[0]
    seen = []

    def fn(q, k, v, scale, config=None, **sem):
        seen.append((tuple(q.shape), tuple(k.shape), sem.get("causal", False)))
        return blocked.fn(q, k, v, scale, **sem)
    b = dataclasses.replace(blocked, fn=fn)
    shape = Shape(1, 2, 40, 40, 16, "float16", mask=CAUSAL)
    result = BenchResult()
    (row,) = bench.bench_shape(shape, 1, "", [b], BenchOptions(timer=lambda f, rep_ms: (f(), 1.0)[1], device="cpu",
                                                               tune=False), result)
    assert seen[0] == ((1, 2, 16, 16), (1, 2, 16, 16), True)                    # the check
    assert set(seen[1:]) == {((1, 2, 40, 16), (1, 2, 40, 16), True)}           # the timing
    assert row["ok"] and row["rel_err"] < 2e-3 and row["shape"] == "(1,2,40,16),causal"
    assert result.checked == {"(1,2,40,16),causal": "(1,2,16,16),causal"}
