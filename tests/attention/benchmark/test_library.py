"""attention/benchmark/library.py's adapters to the attention libraries, pinned where a mutation audit found them
unpinned. The external packages (flash-attn 2/3, xformers, Transformer Engine) are not installed here: each is
stood in for by a module that records its call, and the output is checked against the float64 reference."""
import sys
import types
import pytest
import torch
from inductor_prof.attention.benchmark import library
from inductor_prof.attention.kernels.reference import attention_float64


# ---- library.py: pure helpers ----

def test_refusal_without_a_message():
    assert library.refusal("", []) == "refused"
    assert library.refusal(" \n", ["x (Triggered internally at a.cpp:1.)"]) == "refused (x)"


def test_sdpa_asks_for_gqa_only_when_the_heads_differ(monkeypatch):
    import torch.nn.functional as F

    seen = []
    monkeypatch.setattr(F, "scaled_dot_product_attention", lambda q, k, v, **kw: (seen.append(kw), q)[1])
    q = torch.zeros(1, 2, 8, 16)
    library.sdpa(None)(q, torch.zeros(1, 1, 8, 16), torch.zeros(1, 1, 8, 16), 0.5)
    # same heads, other lengths: no flag (only dim 1, the heads, counts; a torch without enable_gqa still runs)
    library.sdpa("sdpa_math")(q, torch.zeros(1, 2, 4, 16), torch.zeros(1, 2, 4, 16), 0.5, causal=True)
    assert seen == [{"attn_mask": None, "is_causal": False, "scale": 0.5, "enable_gqa": True},
                    {"attn_mask": None, "is_causal": True, "scale": 0.5}]


def test_import_error():
    assert library.import_error("json") == ""
    name = "m" * 250
    # one_line: "Type: message", cut to 200 characters
    assert library.import_error(name) == f"ModuleNotFoundError: No module named '{name}'"[:200]


# ---- library.py: the adapters ----

def inputs(Hq=4, Hkv=2, S=6, D=8):
    g = torch.Generator().manual_seed(0)
    return [torch.randn(2, h, S, D, generator=g, dtype=torch.float64) for h in (Hq, Hkv, Hkv)]


def bshd(fn):
    """fn(q, k, v, scale, causal) in (B, H, S, D) as a function of (B, S, H, D) tensors."""
    def run(q, k, v, scale, causal):
        return fn(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), scale, causal).transpose(1, 2)
    return run


exact = bshd(lambda q, k, v, scale, causal: attention_float64(q, k, v, scale, causal=causal)[0])


SCALE = 0.3    # not 1/sqrt(8): a scale the adapter drops would show


@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_of_pytorchs_own_choice(causal):
    q, k, v = inputs()
    out, lse = library.sdpa(None)(q, k, v, SCALE, causal=causal)
    assert lse is None and torch.allclose(out, attention_float64(q, k, v, SCALE, causal=causal)[0], atol=1e-12)


def fake(monkeypatch, module, **attrs):
    monkeypatch.setitem(sys.modules, module, types.SimpleNamespace(**attrs))


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("adapter, module, tuple_out", [(library.flash_attn2, "flash_attn", False),
                                                        (library.flash_attn3, "flash_attn_interface", True),
                                                        (library.flash_attn3, "flash_attn_interface", False)])
def test_flash_attn_adapters(monkeypatch, adapter, module, tuple_out, causal):
    def flash_attn_func(q, k, v, softmax_scale=None, causal=False):   # flash-attn's call, (B, S, H, D)
        out = exact(q, k, v, softmax_scale, causal)
        return (out, "lse") if tuple_out else out    # flash-attn 3 returns (out, lse) in some releases
    fake(monkeypatch, module, flash_attn_func=flash_attn_func)
    q, k, v = inputs()
    out, lse = adapter(q, k, v, SCALE, causal=causal)
    assert lse is None and torch.allclose(out, attention_float64(q, k, v, SCALE, causal=causal)[0], atol=1e-12)
    # flash-attn's causal is aligned bottom-right: the same as SDPA's top-left only when Sq == Sk
    with pytest.raises(ValueError, match="^flash-attn's causal mask is bottom-right aligned: differs from SDPA's "
                                         "when Sq != Sk$"):
        adapter(q, k[:, :, :4], v[:, :, :4], SCALE, causal=True)
    # the registry passes causal only when set: without it, dense (other lengths too)
    assert torch.allclose(adapter(q, k, v, SCALE)[0], attention_float64(q, k, v, SCALE)[0], atol=1e-12)
    k4, v4 = k[:, :, :4], v[:, :, :4]
    assert torch.allclose(adapter(q, k4, v4, SCALE)[0], attention_float64(q, k4, v4, SCALE)[0], atol=1e-12)


@pytest.mark.parametrize("causal", [False, True])
def test_xformers_adapter(monkeypatch, causal):
    class LowerTriangularMask:
        pass

    def memory_efficient_attention(q, k, v, attn_bias=None, scale=None):
        return exact(q, k, v, scale, isinstance(attn_bias, LowerTriangularMask))
    fake(monkeypatch, "xformers.ops", LowerTriangularMask=LowerTriangularMask,
         memory_efficient_attention=memory_efficient_attention)
    q, k, v = inputs(Hq=2)
    out, lse = library.xformers(q, k, v, SCALE, causal=causal)
    assert lse is None and torch.allclose(out, attention_float64(q, k, v, SCALE, causal=causal)[0], atol=1e-12)
    assert torch.allclose(library.xformers(q, k, v, SCALE)[0], attention_float64(q, k, v, SCALE)[0], atol=1e-12)


@pytest.mark.parametrize("causal", [False, True])
def test_transformer_engine_adapter(monkeypatch, causal):
    made = []

    class DotProductAttention:
        def __init__(self, heads, head_dim, num_gqa_groups, qkv_format, attn_mask_type, softmax_scale):
            made.append((heads, head_dim, num_gqa_groups, qkv_format, attn_mask_type, softmax_scale))
            self.causal, self.scale = attn_mask_type == "causal", softmax_scale

        def __call__(self, q, k, v):     # bshd in, (B, S, H * D) out, as Transformer Engine returns
            out = exact(q, k, v, self.scale, self.causal)
            return out.reshape(out.shape[0], out.shape[1], -1)
    fake(monkeypatch, "transformer_engine.pytorch", DotProductAttention=DotProductAttention)
    library.te_attention.cache_clear()     # modules of an earlier test's stand-in
    q, k, v = inputs(Hq=4, Hkv=2, D=8)
    out, lse = library.transformer_engine(q, k, v, SCALE, causal=causal)
    library.transformer_engine(q, k, v, SCALE, causal=causal)      # the same call again: the same module
    assert lse is None and torch.allclose(out, attention_float64(q, k, v, SCALE, causal=causal)[0], atol=1e-12)
    assert made == [(4, 8, 2, "bshd", "causal" if causal else "no_mask", SCALE)]
    with pytest.raises(ValueError, match="^Transformer Engine's 'causal' differs"):
        library.transformer_engine(q, k[:, :, :4], v[:, :, :4], SCALE, causal=True)
    library.transformer_engine(q, k, v, SCALE)     # without causal: the dense module
    assert made[-1][4] == "no_mask" and len(made) == (2 if causal else 1)
    library.te_attention.cache_clear()


def test_flex_plumbing_with_eager_flex_attention(monkeypatch):
    """flex() with flex_attention run eagerly (compiling it would take minutes here): the block mask, scale and
    GQA reach it."""
    import warnings

    from torch.nn.attention.flex_attention import flex_attention

    import torch._dynamo.config as cfg

    limits = []
    settings = ("recompile_limit", "cache_size_limit", "fail_on_recompile_limit_hit", "fail_on_cache_limit_hit")

    def eager(*a, **kw):   # records the recompile limits in force while it runs
        limits.append({k: getattr(cfg, k) for k in settings if hasattr(cfg, k)})
        return flex_attention(*a, **kw)
    monkeypatch.setattr(library, "compiled_flex_attention", lambda: eager)
    q, k, v = (t.float() for t in inputs(S=8))
    keep = torch.ones(8, 8, dtype=torch.bool).tril(-1) | torch.eye(8, dtype=torch.bool)   # causal, as a mask
    keep[:, 0] = False
    keep[0, 0] = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for causal, mask in ((False, None), (True, None), (False, keep)):
            # dense called as the registry calls it: without causal
            out, lse = library.flex(q, k, v, SCALE, **({"causal": True} if causal else {}), mask=mask)
            want = attention_float64(q, k, v, SCALE, causal=causal, mask=mask)[0]
            assert lse is None and torch.allclose(out.double(), want, atol=1e-5), (causal, mask is None)
    # every setting this torch knows: past 8 recompiles dynamo would fall back to eager flex_attention silently
    assert limits == [{"recompile_limit": 256, "cache_size_limit": 256, "fail_on_recompile_limit_hit": True,
                       "fail_on_cache_limit_hit": True}] * 3
    assert cfg.recompile_limit != 256         # and only while flex runs
