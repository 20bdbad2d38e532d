"""The own Triton and Gluon kernels under key intervals (documents packed in one sequence, causal or not, windows
inside documents, fully masked rows) against float64 at ragged sizes (not multiples of any tile), documents of
uneven lengths down to one token, GQA, head dims 64 and 128, every candidate config; the masks given as a model
gives them (a FlexAttention BlockMask, a dense bool keep) through the bench's backends; every config compiles
without spills with this machine's Triton."""
import pytest
import torch

from inductor_prof.attention.benchmark import registry
from inductor_prof.attention.benchmark.bench import TOLERANCE
from inductor_prof.attention.kernels import gluon_fa, mask_schedule, triton_fa
from inductor_prof.attention.kernels.key_intervals import KeyIntervals
from inductor_prof.attention.kernels.reference import attention_float64
from inductor_prof.attention.timing import kernel_spills

# (B, Hq, Hkv, S, D), per batch: document lengths, causal, window (0: none), rows made to keep no key
CASES = [((2, 8, 2, 1000, 128), [([1, 300, 1, 198, 500], True, 0, None), ([999, 1], True, 0, (100, 164))]),
         ((1, 32, 8, 1031, 64), [([513, 1, 517], False, 0, None)]),
         ((1, 8, 2, 777, 128), [([400, 1, 376], True, 100, (700, 777))]),
         ((2, 8, 4, 1100, 64), [([1100], True, 0, None), ([60, 1040], False, 0, (0, 1))])]
IDS = ["causal-docs+empty-rows", "non-causal-docs", "window-in-docs", "one-doc+non-causal"]


def _rows(S, batches) -> torch.Tensor:
    rows = []
    for lengths, causal, window, dead in batches:
        lo, hi = mask_schedule.document_intervals(lengths, causal, window)
        if dead:
            for i in range(*dead):
                lo[i] = hi[i] = 0
        rows.append(list(zip(lo, hi)))
    return torch.tensor(rows, dtype=torch.int32, device="cuda")


def _keep(rows, S):
    j = torch.arange(S, device="cuda")
    return ((j >= rows[..., :1]) & (j < rows[..., 1:]))[:, None]


def _inputs(B, Hq, Hkv, S, D):
    g = torch.Generator(device="cuda").manual_seed(S)
    q = torch.randn(B, Hq, S, D, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(B, Hkv, S, D, device="cuda", dtype=torch.bfloat16, generator=g) for _ in "kv")
    return q, k, v


def _close(out, lse, ref, ref_lse, what):
    live = torch.isfinite(ref_lse)
    rel = ((out.double()[live] - ref[live]).norm() / ref[live].norm()).item()
    assert torch.isfinite(out).all() and rel < TOLERANCE["bfloat16"], (what, rel)
    assert (lse.double()[live] - ref_lse[live]).abs().max().item() < 1e-3, what
    assert (out[~live] == 0).all() and torch.isneginf(lse[~live]).all(), what     # fully masked rows


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("name", ["triton_fa2", "gluon_fa3"])
def test_documents_match_float64(name, case):
    backend = registry.backends([name])[0]
    if not backend.available:
        pytest.skip(backend.reason)
    (B, Hq, Hkv, S, D), batches = case
    q, k, v = _inputs(B, Hq, Hkv, S, D)
    rows = _rows(S, batches)
    ref, ref_lse = attention_float64(q, k, v, 0.125, mask=_keep(rows, S))
    intervals = KeyIntervals(rows)
    module = triton_fa if name == "triton_fa2" else gluon_fa
    cfgs = ([triton_fa.default_config(D, False), triton_fa.Config(256, 64, 2, 8, 3), triton_fa.Config(64, 64, 1, 4, 3)]
            if module is triton_fa else gluon_fa.candidate_configs(D, True))
    for cfg in cfgs:
        out, lse = module.forward(q, k, v, 0.125, cfg, key_intervals=intervals)
        torch.cuda.synchronize()
        _close(out, lse, ref, ref_lse, cfg)


@pytest.mark.parametrize("name", ["triton_fa2", "gluon_fa3"])
def test_the_backends_take_a_document_block_mask_and_a_dense_keep(name):
    """As the bench hands masks over (contract A): a FlexAttention BlockMask built from the mask_mod a model writes,
    and the same mask as a dense bool keep, both run by the own kernel; flex_compiled runs the BlockMask."""
    from torch.nn.attention.flex_attention import create_block_mask

    backend = registry.backends([name])[0]
    if not backend.available:
        pytest.skip(backend.reason)
    lengths = [1, 700, 3, 1, 1343]
    S = sum(lengths)
    q, k, v = _inputs(1, 16, 4, S, 128)
    doc = torch.repeat_interleave(torch.arange(len(lengths), device="cuda"), torch.tensor(lengths, device="cuda"))

    def document_causal(b, h, q_idx, kv_idx):
        return (doc[q_idx] == doc[kv_idx]) & (q_idx >= kv_idx)
    bm = create_block_mask(document_causal, None, None, S, S, device="cuda")
    keep = ((doc[:, None] == doc[None, :]).tril())[None, None]
    ref, ref_lse = attention_float64(q, k, v, 0.1, mask=keep)
    for mask in (bm, keep):
        out, lse = backend(q, k, v, 0.1, mask=mask)
        _close(out, lse, ref, ref_lse, type(mask).__name__)
    flex = registry.backends(["flex_compiled"])[0]
    out, _ = flex(q, k, v, 0.1, mask=bm)
    live = torch.isfinite(ref_lse)
    assert ((out.double()[live] - ref[live]).norm() / ref[live].norm()).item() < TOLERANCE["bfloat16"]


@pytest.mark.parametrize("head_dim", [64, 128])
def test_every_documents_config_compiles_without_spills_here(head_dim):
    if not registry.backends(["gluon_fa3"])[0].available:
        pytest.skip(registry.backends(["gluon_fa3"])[0].reason)
    q, k, v = (torch.randn(2, 24, 1024, head_dim, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    intervals = KeyIntervals(_rows(1024, [([500, 524], True, 0, None)] * 2))
    for cfg in gluon_fa.candidate_configs(head_dim, True):
        _, _, kernel = gluon_fa.launch(q, k, v, None, cfg, key_intervals=intervals)
        assert kernel_spills(kernel) == 0, cfg.label()
