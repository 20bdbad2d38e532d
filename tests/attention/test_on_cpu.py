"""Attention on a CPU: the own Triton kernel in the interpreter, numba in its simulator, the blocked torch
reference, each against float64; shape parsing and the capture of SDPA calls; the report's attention table."""
import json

import pytest
import torch

from inductor_prof.attention.semantics import shapes
from inductor_prof.attention.kernels.reference import attention_float64, blocked_attention
from inductor_prof.drivers.torch_profiler import attention_call
import isolated
from recorded import REPO

# ragged lengths (not multiples of any tile), Sq != Sk, every supported head dim
CASES = [(1, 2, 50, 37, 64), (2, 1, 33, 70, 128), (1, 1, 20, 45, 256)]


def _qkv(B, H, Sq, Sk, D, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(B, H, Sq, D, generator=g, dtype=dtype), torch.randn(B, H, Sk, D, generator=g, dtype=dtype),
            torch.randn(B, H, Sk, D, generator=g, dtype=dtype))


def _rel(out, ref):
    return float((out.double() - ref).norm() / ref.norm())


@pytest.mark.parametrize("case", CASES)
def test_blocked_reference_matches_float64(case):
    q, k, v = _qkv(*case, torch.float32, seed=1)
    out, lse = blocked_attention(q, k, v, block_m=16, block_n=16)
    ref, ref_lse = attention_float64(q, k, v)
    assert _rel(out, ref) < 1e-5
    assert float((lse.double() - ref_lse).abs().max()) < 1e-4


def test_float64_reference_is_softmax_attention():
    q, k, v = _qkv(1, 1, 5, 7, 64, torch.float64, seed=2)
    s = q @ k.transpose(-1, -2) / 8.0
    ref, lse = attention_float64(q, k, v)
    assert torch.allclose(ref, torch.softmax(s, -1) @ v)
    assert torch.allclose(lse, torch.logsumexp(s, -1))


def _run_isolated(code: str, env_extra: dict) -> dict:
    """Interpreter/simulator modes are chosen at import time: run each in a process of that mode."""
    out = isolated.run(env_extra, code)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


CHECK = """
import json, math, sys, torch
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.kernels import {module} as m
res = []
for i, (B, H, Sq, Sk, D) in enumerate({cases}):
    g = torch.Generator().manual_seed(10 + i)
    q, k, v = (torch.randn(B, H, n, D, generator=g, dtype=torch.{dtype}) for n in (Sq, Sk, Sk))
    out, lse = m.forward(q, k, v, 0.7 / math.sqrt(D){extra})
    ref, ref_lse = attention_float64(q, k, v, 0.7 / math.sqrt(D))
    res.append([float((out.double() - ref).norm() / ref.norm()), float((lse.double() - ref_lse).abs().max()),
                bool(torch.isfinite(out).all())])
print(json.dumps(res))
"""


INTERPRET, SIMULATE = {"TRITON_INTERPRET": "1"}, {"NUMBA_ENABLE_CUDASIM": "1"}
# fp16: the Triton 3.9 interpreter computes bf16 tl.dot wrongly (also with plain pointer loads)
TRITON = CHECK.format(module="triton_fa", cases=CASES, dtype="float16", extra="")
TRITON_SUBTILES = CHECK.format(module="triton_fa", cases=CASES[:2], dtype="float16", extra=", m.Config(32, 16, 2, 4, 1)")
NUMBA = CHECK.format(module="numba_fa", cases=[(1, 2, 40, 21, 64), (1, 1, 33, 18, 128)], dtype="float32", extra="")
# run while the tests before this module run (isolated.prefetch); the tests below take the answers
for env, code in ((INTERPRET, TRITON), (INTERPRET, TRITON_SUBTILES), (SIMULATE, NUMBA)):
    isolated.prefetch(env, code)


def test_triton_kernel_in_interpreter():
    res = _run_isolated(TRITON, INTERPRET)
    for rel, lse_err, finite in res:
        assert finite and rel < 2e-3 and lse_err < 1e-3, res


def test_triton_kernel_two_subtiles_in_interpreter():
    res = _run_isolated(TRITON_SUBTILES, INTERPRET)
    for rel, lse_err, finite in res:
        assert finite and rel < 2e-3 and lse_err < 1e-3, res


def test_numba_kernel_in_simulator():
    res = _run_isolated(NUMBA, SIMULATE)
    for rel, lse_err, finite in res:
        assert finite and rel < 1e-5 and lse_err < 1e-4, res


def test_parse_shape_and_sweep():
    s = shapes.parse_shape("1,24,4608,128")
    assert (s.B, s.H, s.Sq, s.Sk, s.D, s.dtype) == (1, 24, 4608, 4608, 128, "bfloat16")
    assert s.flops == 4 * 24 * 4608 * 4608 * 128
    assert shapes.parse_shape("2,8,100,300,64", "fp16").label == "(2,8,100x300,64)"
    for bad in ("1,2,3", "a,b,c,d", "1,2,0,64", ""):
        with pytest.raises(ValueError):
            shapes.parse_shape(bad)
    seqs = [x.Sq for x in shapes.sweep(s)]
    assert 4608 in seqs and seqs == sorted(seqs) and len(seqs) == len(shapes.SWEEP_SEQ) + 1


def test_captured_calls_deduplicated():
    recorded = REPO / "tests" / "data" / "flux_small" / "attention_shapes.json"
    calls = json.loads(recorded.read_text())
    unique = shapes.from_calls(calls)
    assert sum(n for _, n, _ in unique) == len(calls)
    assert len(unique) == len({(c["B"], c["H"], c["Sq"], c["Sk"], c["D"]) for c in calls})


def test_attention_call_reads_causal_mask_and_layout():
    # arguments as torch.profiler recorded them for FLUX's cuDNN attention (examples/runs/flux-h100)
    dims = [[1, 24, 4608, 128]] * 3 + [[]] * 10
    strides = [[14155776, 128, 3072, 1]] * 3 + [[]] * 10
    scalars = ["", "", "", "", "", "", "4608", "4608", "False", "0.", "False", "False", ""]
    c = attention_call("aten::_cudnn_attention_forward", dims, strides, scalars, "bfloat16", "k")
    assert (c["Sq"], c["D"], c["causal"], c["mask"], c["layout"]) == (4608, 128, False, False, "bshd")
    scalars[10] = "True"
    dims[3] = [1, 1, 4608, 4608]
    c = attention_call("aten::_cudnn_attention_forward", dims, strides, scalars, "bfloat16", "k")
    assert c["causal"] and c["mask"]


def test_time_configs_records_failures_and_picks_fastest():
    from inductor_prof.attention.timing import time_configs

    times = {"a": 3.0, "b": 1.0, "c": 2.0}

    def run(cfg):
        if cfg == "boom":
            raise RuntimeError("out of resource: shared memory")
        return times[cfg]
    rows, best = time_configs(run, ["a", "boom", "b", "c"], bench=lambda fn: fn())
    assert best == "b"
    assert [r["config"] for r in rows] == ["a", "boom", "b", "c"]
    failed = rows[1]
    assert failed["ms"] != failed["ms"] and failed["error"].startswith("RuntimeError: out of resource")
    assert time_configs(lambda c: 1 / 0, ["x"], bench=lambda fn: fn())[1] is None


# What the H100 recorded (examples/runs/llama-h100/attention.csv, sdpa_efficient at causal GQA 32/8): torch's
# error, then the first line of each warning, cut before the reason: "RuntimeError: RuntimeError: No available
# kernel. Aborting execution. (Memory efficient kernel not used because: (Triggered internally at
# /pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:986.); For dense input, both fused kernels
# require query, key and value to have the same num_heads. Q". The warnings below are built after it.
REFUSED = "No available kernel. Aborting execution."
WARNED = ["Memory efficient kernel not used because: (Triggered internally at "
          "/pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:986.)",
          "For dense input, both fused kernels require query, key and value to have the same num_heads.\n"
          "Query.sizes(1): 32, Key.sizes(1): 8 (Triggered internally at /pytorch/aten/src/sdp_utils_cpp.h:1.)"]
REASON = ("No available kernel. Aborting execution. (Memory efficient kernel not used because: For dense input, "
          "both fused kernels require query, key and value to have the same num_heads. Query.sizes(1): 32, "
          "Key.sizes(1): 8)")


def test_forced_sdpa_refusal_is_one_line_with_the_reasons():
    from inductor_prof.attention.benchmark.library import refusal

    assert refusal(REFUSED, WARNED) == REASON
    assert refusal(REFUSED, []) == REFUSED
    assert refusal(REFUSED, ["a", "b:", "c"]) == f"{REFUSED} (a; b: c)"   # ':' runs on into the next reason


def test_forced_sdpa_refusal_names_its_type_once(monkeypatch):
    import warnings

    import torch.nn.functional as F

    from inductor_prof.attention.benchmark.library import sdpa
    from inductor_prof.errors import one_line

    def refuses(*args, **kwargs):   # as torch does on the H100: warn the reasons, then raise
        for w in WARNED:
            warnings.warn(w)
        raise RuntimeError(REFUSED)
    monkeypatch.setattr(F, "scaled_dot_product_attention", refuses)
    q = torch.zeros(1, 4, 8, 16)
    with pytest.raises(RuntimeError) as e:
        sdpa("sdpa_efficient")(q, q[:, :2], q[:, :2], 0.25)
    assert one_line(e.value, None) == f"RuntimeError: {REASON}"    # was "RuntimeError: RuntimeError: ..."


def test_numba_without_a_gpu_says_how_to_simulate(monkeypatch):
    from numba import cuda

    from inductor_prof.attention.benchmark import registry

    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)
    if cuda.is_available():
        pytest.skip("numba sees a GPU (or its simulator) in this process")
    b = registry.backends(["numba_fa"])[0]
    assert not b.available
    assert b.reason == "numba sees no CUDA GPU (NUMBA_ENABLE_CUDASIM=1: numba's simulator, on the CPU)"
