"""The attention semantics of a compiled (Inductor) module on the GPU: the trace of the compiled step joined with
one eager step (Llama's two call forms: is_causal + enable_gqa, and repeat_kv + a causal + padding bool mask)."""
import torch
import torch.nn.functional as F

from inductor_prof.attention.semantics.capture import eager_step
from inductor_prof.attention.semantics.join import join
from inductor_prof.drivers.torch_profiler import parse_trace, record


class _Llamaish(torch.nn.Module):
    def forward(self, q, k, v, mask):
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        kr, vr = k.repeat_interleave(4, dim=1), v.repeat_interleave(4, dim=1)
        return a + F.scaled_dot_product_attention(q, kr, vr, attn_mask=mask)


def test_compiled_module_trace_joined_with_eager_semantics(tmp_path):
    g = torch.Generator(device="cuda").manual_seed(0)
    q = torch.randn(2, 32, 1024, 64, device="cuda", dtype=torch.bfloat16, generator=g)
    k, v = (torch.randn(2, 8, 1024, 64, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(2))
    keys = torch.arange(1024, device="cuda") < torch.tensor([[1024], [924]], device="cuda")   # batch 1: 100 padded
    mask = (torch.ones(1024, 1024, dtype=torch.bool, device="cuda").tril() & keys[:, None, :])[:, None]
    model = torch.compile(_Llamaish(), fullgraph=True)
    step = lambda: model(q, k, v, mask)   # noqa: E731
    step()
    record(step, tmp_path / "trace.json")
    _, trace_calls = parse_trace(tmp_path / "trace.json")
    calls = join(trace_calls, eager_step(step).calls)
    joined = [c for c in calls if c["captured"] == "trace+eager"]
    assert joined, calls
    kinds = {(c["causal"], c["mask_kind"], c["Hkv"], c.get("kv_repeated")) for c in joined}
    assert (True, "causal", 8, False) in kinds
    assert (False, "causal_padding", 8, True) in kinds
    padded = next(c for c in joined if c["mask_kind"] == "causal_padding")
    assert padded["key_lengths"] == [1024, 924]
