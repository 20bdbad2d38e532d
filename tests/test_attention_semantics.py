"""The bench with the model's semantics on a CPU: shapes with kv heads and masks (labels, flops, parsed from
captured calls), the references against a naive masked softmax and a case worked by hand, and the bench through
torch_blocked and sdpa_math with causal + GQA + padding (a backend that cannot take the mask listed with why)."""
import math

import pytest
import torch

from inductor_prof.attention.benchmark import bench, registry
from inductor_prof.attention.benchmark.bench import BenchOptions, BenchResult, bench_shape
from inductor_prof.attention.semantics.masks import CAUSAL, MaskSpec
from inductor_prof.attention.kernels.reference import attention_float64, blocked_attention
from inductor_prof.attention.semantics.shapes import Shape, from_call, parse_shape


def test_labels_and_flops():
    s = Shape(2, 32, 2048, 2048, 64, Hkv=8, mask=CAUSAL)
    assert s.label == "(2,32/8,2048,64),causal"
    assert s.needs == {"causal", "gqa"}
    assert s.flops == 34_376_515_584          # 4*64*2*32 * 2048*2049/2 (test_attention_masks: by hand)
    padded = Shape(2, 4, 40, 40, 16, mask=MaskSpec("padding", key_lengths=(30, 40)), kv_repeated=True)
    assert padded.label == "(2,4,40,16),padding,kv repeated" and padded.needs == {"mask"}
    assert padded.flops == 4 * 16 * 4 * (40 * 30 + 40 * 40)      # rows keep 30 keys in batch 0, 40 in batch 1


def test_parse_shape_with_gqa_and_causal():
    assert parse_shape("2,32/8,2048,64,causal") == Shape(2, 32, 2048, 2048, 64, Hkv=8, mask=CAUSAL)
    assert parse_shape("1,8/8,100,300,64").Hkv == 0            # 8/8 is not GQA
    for bad in ("2,32/5,128,64", "2,32/0,128,64", "2,32/8/2,128,64", "2,32,128,64,causal,y", "2,causal,128,64"):
        with pytest.raises(ValueError):
            parse_shape(bad)


@pytest.mark.parametrize("text, fault", [
    ("2,32/7,128,64", "32 query heads are not a multiple of 7 key-value heads; expected"),
    ("1,2,64,64,bogus", "'bogus' is not a number; expected"),
    ("1,2,3", "expected"),                                   # too few sizes: no one word at fault
])
def test_bad_shape_says_what_is_wrong(text, fault):
    with pytest.raises(ValueError) as e:
        parse_shape(text)
    assert str(e.value).startswith(f"bad shape {text!r}: {fault} B,H,S,D or B,H,Sq,Sk,D")


def test_shape_from_an_eager_captured_call():
    # Llama with a padding mask: k repeated to 32 heads (kv_repeated, 8 distinct), causal + padding of 100 keys
    c = {"B": 2, "H": 32, "Hkv": 8, "Sq": 2048, "Sk": 2048, "D": 64, "dtype": "bfloat16", "causal": False,
         "mask": True, "mask_kind": "causal_padding", "key_lengths": [2048, 1948], "kv_repeated": True,
         "scale": 0.125}
    s = from_call(c)
    assert s == Shape(2, 32, 2048, 2048, 64, "bfloat16", 8, MaskSpec("causal_padding", key_lengths=(2048, 1948)),
                      True, 0.125)
    assert s.label == "(2,32/8,2048,64),causal+padding,kv repeated"
    # a mask seen only in the trace (no eager capture): arbitrary with nothing saved -> the bench says so
    t = from_call({"B": 1, "H": 2, "Sq": 8, "Sk": 8, "D": 4, "mask": True})
    assert t.mask == MaskSpec("arbitrary")
    with pytest.raises(ValueError, match="not captured"):
        bench.semantics(t, "cpu")


def _naive(q, k, v, scale, keep):
    """Per (batch, head) softmax(q k^T * scale, masked) v in float64, kv head h // (Hq // Hkv)."""
    B, Hq, Sq, _ = q.shape
    g = Hq // k.shape[1]
    out = torch.zeros(B, Hq, Sq, v.shape[-1], dtype=torch.float64)
    for b in range(B):
        for h in range(Hq):
            s = q[b, h].double() @ k[b, h // g].double().T * scale
            kb = keep[b, 0]
            for i in range(Sq):
                if kb[i].any():
                    p = torch.softmax(s[i].masked_fill(~kb[i], float("-inf")), dim=0)
                    out[b, h, i] = p @ v[b, h // g].double()
    return out


def test_references_match_naive_masked_gqa_softmax():
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, n, S, 8, generator=g) for n, S in ((4, 7), (2, 9), (2, 9)))
    keep = torch.rand(2, 1, 7, 9, generator=g) > 0.4
    keep[1, 0, 2] = False                                   # a row with no key: out 0, lse -inf
    ref, lse = attention_float64(q, k, v, 0.3, mask=keep)
    assert torch.allclose(ref, _naive(q, k, v, 0.3, keep), atol=1e-12)
    assert torch.isneginf(lse[1, :, 2]).all() and torch.isfinite(lse[0]).all()
    out, blse = blocked_attention(q, k, v, 0.3, block_m=3, block_n=4, mask=keep)
    assert torch.allclose(out.double(), ref, atol=1e-5)
    assert torch.equal(torch.isneginf(blse), torch.isneginf(lse))
    # causal, blocks smaller than the shape: key blocks past a query block skipped, same result
    tri = torch.ones(7, 9, dtype=torch.bool).tril()[None, None].expand(2, 1, 7, 9)
    causal_ref = attention_float64(q, k, v, 0.3, causal=True)[0]
    assert torch.allclose(causal_ref, _naive(q, k, v, 0.3, tri), atol=1e-12)
    assert torch.allclose(blocked_attention(q, k, v, 0.3, 2, 2, causal=True)[0].double(), causal_ref, atol=1e-5)


def test_causal_by_hand():
    # Sq = Sk = 2, D = 1, q = 0: every kept score is 0. Row 0 keeps key 0 only -> out = v0 = 3, lse = log 1 = 0;
    # row 1 keeps both -> out = (3 + 5) / 2 = 4, lse = log 2.
    q = torch.zeros(1, 1, 2, 1)
    k = torch.ones(1, 1, 2, 1)
    v = torch.tensor([3.0, 5.0]).reshape(1, 1, 2, 1)
    out, lse = attention_float64(q, k, v, 1.0, causal=True)
    assert out.flatten().tolist() == [3.0, 4.0]
    assert lse.flatten().tolist() == [0.0, pytest.approx(math.log(2))]


def test_bench_on_cpu_causal_gqa_padding(monkeypatch):
    timer = lambda fn, rep_ms=100.0: (fn(), 2.0)[1]
    # B=2, 4 query heads reading 2 kv heads, 40 tokens, causal with the last 10 keys of batch 0 padded
    shape = Shape(2, 4, 40, 40, 16, "bfloat16", Hkv=2, mask=MaskSpec("causal_padding", key_lengths=(30, 40)))
    called = []
    no_mask = registry.Backend("own_causal_gqa", "own", lambda *a, **kw: called.append(a), True,
                               supports=frozenset({"causal", "gqa"}))
    chosen = registry.backends(["torch_blocked", "sdpa_math"]) + [no_mask]
    op = "aten::_scaled_dot_product_flash_attention_for_cpu"      # the model's backend: sdpa_math
    opts = BenchOptions(timer=timer, device="cpu", tune=False, peak_tflops=1.0)
    rows = {r["backend"]: r for r in bench_shape(shape, 8, op, chosen, opts, BenchResult())}
    assert rows["torch_blocked"]["ok"] and rows["sdpa_math"]["ok"]
    assert rows["torch_blocked"]["rel_err"] < 1e-2 and rows["sdpa_math"]["rel_err"] < 1e-2
    # the backend that takes causal and GQA but no mask: listed with the reason, never called
    assert not rows["own_causal_gqa"]["available"] and called == []
    assert rows["own_causal_gqa"]["reason"] == "cannot take mask (takes: causal, gqa)"
    # pairs: batch 0 rows keep min(i+1, 30): 465 + 10*30 = 765; batch 1 causal 40*41/2 = 820 -> 1585;
    # flops 4 * D 16 * Hq 4 * 1585 = 405,760; at 2 ms: 405,760 / 2 / 1e9 TFLOP/s
    r = rows["sdpa_math"]
    assert (r["flops"], r["shape"], r["Hkv"], r["mask"]) == (405_760, "(2,4/2,40,16),causal+padding", 2,
                                                            "causal_padding")
    assert r["tflops"] == pytest.approx(405_760 / 2.0 / 1e9, rel=1e-12)
    assert r["speedup_vs_model"] == 1.0 and rows["torch_blocked"]["speedup_vs_model"] == 1.0   # 2 ms / 2 ms


def test_bench_lists_a_bias_with_the_reason():
    rows = bench_shape(Shape(1, 1, 8, 8, 4, mask=MaskSpec("bias")), 1, "", registry.backends(["torch_blocked"]),
                       BenchOptions(device="cpu", tune=False), BenchResult())
    assert not rows[0]["available"] and "bias" in rows[0]["reason"]
