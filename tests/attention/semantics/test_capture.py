"""attention/semantics/capture.py: a captured SDPA call keeps its key-value heads (GQA), CPU torch."""
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from inductor_prof.attention.semantics.capture import AttentionSpy  # noqa: E402
import json
import warnings
import pandas as pd
from inductor_prof.attention.semantics import maskfile
from inductor_prof.attention.semantics.capture import eager_step
from inductor_prof.attention.semantics.join import join
from inductor_prof.drivers.torch_profiler.trace import op_cost
from inductor_prof.pipeline.library_ops import with_semantics
from inductor_prof.rundir import RunDir


def _qkv(hq: int, hkv: int):
    g = torch.Generator().manual_seed(0)
    q = torch.randn(1, hq, 16, 32, generator=g)
    k, v = (torch.randn(1, hkv, 24, 32, generator=g) for _ in range(2))
    return q, k, v


def test_gqa_call_keeps_the_kv_heads():
    # q 8 heads, k/v 2 heads, enable_gqa: 4 query heads share each kv head
    q, k, v = _qkv(8, 2)
    with AttentionSpy() as spy:
        F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    call = spy.calls[0]
    assert (call["B"], call["H"], call["Hkv"], call["Sq"], call["Sk"], call["D"]) == (1, 8, 2, 16, 24, 32)
    assert call["enable_gqa"] and not call["kv_repeated"]


def test_kv_heads_repeated_before_the_call_count_once():
    # the model repeats its 2 kv heads to 8 (repeat_interleave) and calls plain SDPA: still 2 kv heads
    q, k, v = _qkv(8, 2)
    k8, v8 = k.repeat_interleave(4, dim=1), v.repeat_interleave(4, dim=1)
    with AttentionSpy() as spy:
        F.scaled_dot_product_attention(q, k8, v8)
    call = spy.calls[0]
    assert (call["H"], call["Hkv"], call["kv_repeated"], call["enable_gqa"]) == (8, 2, True, False)


# The eager capture of attention semantics on a CPU (a compiled module run under force_eager: SDPA causal + GQA,
# SDPA with repeated kv heads and a causal + padding mask, FlexAttention with a causal BlockMask), the join with the
# trace's calls, and the causal discount in the trace's op cost.

class _Model(torch.nn.Module):
    def __init__(self, block_mask):
        super().__init__()
        self.block_mask = block_mask

    def forward(self, q, k, v, mask, odd):
        from torch.nn.attention.flex_attention import flex_attention

        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        kr, vr = k.repeat_interleave(2, dim=1), v.repeat_interleave(2, dim=1)      # transformers' repeat_kv
        b = F.scaled_dot_product_attention(q, kr, vr, attn_mask=mask)
        c = flex_attention(q, k, v, block_mask=self.block_mask, enable_gqa=True)
        d = F.scaled_dot_product_attention(q, kr, vr, attn_mask=odd)
        e = F.scaled_dot_product_attention(q, kr, vr, attn_mask=mask)            # same mask tensor again
        return a + b + c + d + e


def _capture():
    from torch.nn.attention.flex_attention import create_block_mask

    def causal(b, h, q_idx, kv_idx):
        return q_idx >= kv_idx
    g = torch.Generator().manual_seed(0)
    q, k, v = torch.randn(2, 4, 256, 16, generator=g), torch.randn(2, 2, 256, 16, generator=g), \
        torch.randn(2, 2, 256, 16, generator=g)
    keys = torch.arange(256) < torch.tensor([[200], [256]])               # batch 0 keeps 200 keys, batch 1 all
    mask = (torch.ones(256, 256, dtype=torch.bool).tril() & keys[:, None, :])[:, None]
    odd = (torch.arange(256)[:, None] + torch.arange(256)) % 3 != 0         # arbitrary
    model = torch.compile(_Model(create_block_mask(causal, None, None, 256, 256, device="cpu")), backend="eager")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # flex_attention's "called without torch.compile" (eager on purpose)
        return eager_step(lambda: model(q, k, v, mask, odd))


def test_eager_capture_sees_sdpa_and_flex_semantics():
    spy = _capture()
    a, b, c, d, e = spy.calls
    assert [x["op"] for x in spy.calls] == ["sdpa", "sdpa", "flex_attention", "sdpa", "sdpa"]
    # a: is_causal, enable_gqa, 4 query heads on 2 kv heads; causal pairs 256*257/2 = 32,896 per batch, B = 2
    assert (a["H"], a["Hkv"], a["causal"], a["enable_gqa"], a["mask_kind"], a["mask_pairs"]) == \
        (4, 2, True, True, "causal", 65_792)
    assert (a["scale"], a["layout"], a["dtype"], a["kv_repeated"]) == (0.25, "bhsd", "float32", False)  # 1/sqrt(16)
    # b: k/v repeated to 4 heads (2 distinct), causal + right padding: batch 0 rows keep min(i+1, 200):
    # 200*201/2 + 56*200 = 31,300; batch 1 32,896 -> 64,196
    assert (b["H"], b["Hkv"], b["kv_repeated"], b["enable_gqa"]) == (4, 2, True, False)
    assert (b["mask_kind"], b["key_lengths"], b["mask_pairs"], b["mask_dtype"]) == \
        ("causal_padding", [200, 256], 64_196, "bool")
    # c: FlexAttention, causal mask_mod; 256 tokens in 128-blocks: 2x2 blocks, 3 computed (one above the
    # diagonal empty) -> 25% sparse
    assert (c["mask_mod"], c["score_mod"], c["mask_kind"], c["Hkv"]) == ("_capture.<locals>.causal", "_identity",
                                                                        "causal", 2)
    assert c["block_size"] == [128, 128] and c["block_sparsity_pct"] == 25.0
    # d: arbitrary, kept with its values for the bench
    assert d["mask_kind"] == "arbitrary" and d["mask_file"] == "mask_0" and set(spy.keeps) == {"mask_0"}
    assert e == b                                # the same mask tensor: classified once, same facts


def test_join_and_saved_semantics(tmp_path):
    spy = _capture()
    # two trace calls as torch.profiler saw the compiled step: b's and d's kernels (the same key: in call order)
    trace = [{"op": "aten::_scaled_dot_product_efficient_attention", "B": 2, "H": 4, "Hkv": 4, "Sq": 256,
              "Sk": 256, "D": 16, "dtype": "float32", "causal": False, "mask": True, "scale": 0.25, "kernel": kb,
              "row": r} for kb, r in (("fmha_b", 0), ("fmha_d", 1))]
    table = pd.DataFrame({"flops": [4 * 16 * 4 * 2 * 256 * 256] * 2})     # dense, as op_cost counted them
    run = RunDir(tmp_path)
    calls = with_semantics(run, table, trace, spy.calls, spy.keeps)
    # the trace's calls first, the n-th joined with the n-th eager SDPA call of its key (B, H, Sq, Sk, D, dtype,
    # is_causal): not a (is_causal), then b, then d
    first, second = calls[0], calls[1]
    assert (first["kernel"], first["captured"], second["kernel"]) == ("fmha_b", "trace+eager", "fmha_d")
    assert first["mask_kind"] == "causal_padding" and second["mask_kind"] == "arbitrary"
    assert first["kernel"] == "fmha_b" and first["scale"] == 0.25 and first["Hkv"] == 2   # eager: 2 distinct heads
    # left over, in call order: a, c (flex), e
    assert [(c["captured"], c["op"]) for c in calls[2:]] == [("eager", "sdpa"), ("eager", "flex_attention"),
                                                            ("eager", "sdpa")]
    # flops counted from the masks: row 0 (causal + padding) 4 * 16 * 4 * 64,196 = 16,434,176;
    # row 1 keeps (i + j) % 3 != 0: residues of 0..255 are 86 x 0, 85 x 1, 85 x 2, so pairs with (i + j) % 3 == 0
    # number 86*86 + 2*85*85 = 21,846; kept 65,536 - 21,846 = 43,690 per batch, x2 -> 4 * 16 * 4 * 87,380
    assert table["flops"].tolist() == [16_434_176, 22_369_280]
    saved = second
    assert saved["mask_file"] == "attention/masks/mask_0.npz"
    keep = maskfile.load(tmp_path / saved["mask_file"])
    assert torch.equal(keep[0, 0], (torch.arange(256)[:, None] + torch.arange(256)) % 3 != 0)
    json.dumps(calls)                             # attention_shapes.json takes them as they are


def test_join_unmatched_trace_call_keeps_trace_facts():
    t = {"B": 1, "H": 2, "Sq": 8, "Sk": 8, "D": 4, "dtype": "bfloat16", "op": "aten::x", "causal": True}
    assert join([t], []) == [{**t, "captured": "trace"}]


def test_trace_op_cost_counts_the_causal_triangle():
    # _scaled_dot_product_flash_attention: is_causal at 4. B=2, H=32, S=2048, D=64:
    # dense 4*64*2*32*2048*2048 = 68,719,476,736; causal 4*64*2*32*(2048*2049/2) = 34,376,515,584
    op = "aten::_scaled_dot_product_flash_attention"
    dims = [[2, 32, 2048, 64], [2, 8, 2048, 64], [2, 8, 2048, 64]]
    types = ["c10::BFloat16"] * 3
    assert op_cost(op, dims, types, ["", "", "", "", "False"])["flops"] == 68_719_476_736
    assert op_cost(op, dims, types, ["", "", "", "", "True"])["flops"] == 34_376_515_584
    assert op_cost(op, dims, types)["flops"] == 68_719_476_736           # no scalars recorded: dense
