"""attention/semantics/capture.py: a captured SDPA call keeps its key-value heads (GQA), CPU torch."""
import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from inductor_prof.attention.semantics.capture import AttentionSpy  # noqa: E402


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
