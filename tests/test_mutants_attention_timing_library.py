"""attention/timing.py's tuning loop and attention/benchmark/library.py's adapters, pinned where a mutation audit found them
unpinned. The external packages (flash-attn 2/3, xformers, Transformer Engine) are not installed here: each is
stood in for by a module that computes exact attention in that package's layout (B, S, H, D), so the test checks
the adapter's plumbing (layout, scale, causal flag, GQA), not the package."""
import math
import sys
import types

import pytest
import torch

from inductor_prof.attention.benchmark import library
from inductor_prof.attention import timing
from inductor_prof.attention.kernels.reference import attention_float64


# ---- timing.py ----

def test_first_error_line():
    # the first line that says "error" (any case), else the last line, else ""
    assert timing._first_error_line("warning: a\n  ptxas ERROR: too many resources  \nerror: late\n") == \
        "ptxas ERROR: too many resources"
    assert timing._first_error_line("one\ntwo\nthree\n\n") == "three"
    assert timing._first_error_line(" \n") == ""


def test_kernel_spills_is_bytes_per_thread():
    # Triton's n_spills counts 4-byte registers
    assert timing.kernel_spills(types.SimpleNamespace(n_spills=3)) == 12
    assert timing.kernel_spills(types.SimpleNamespace(n_spills=None)) == 0
    assert timing.kernel_spills(object()) == 0


def test_time_configs_cuts_the_error_and_the_compilers_line_to_200_characters():
    def run(cfg):
        print("error: " + "e" * 300, file=sys.stderr)
        raise RuntimeError("m" * 300)
    rows, best = timing.time_configs(run, ["x"], bench=lambda fn: fn())
    # "RuntimeError: " is 14 characters: 186 of the message fill 200; "error: " is 7: 193 of the line
    assert rows[0]["error"] == "RuntimeError: " + "m" * 186 + " [stderr: error: " + "e" * 193 + "]"
    assert best is None and math.isnan(rows[0]["ms"])


def test_time_configs_adds_no_stderr_to_a_config_that_ran_or_spilled():
    def run(cfg):
        print(f"warning from {cfg}", file=sys.stderr)
        return cfg
    rows, best = timing.time_configs(run, [0, 2], bench=lambda fn: 5.0, spills=lambda n: n)
    assert rows == [{"config": 0, "ms": 5.0, "error": ""},
                    {"config": 2, "ms": rows[1]["ms"],
                     "error": "spills registers (2 bytes of local memory per thread): not timed"}]
    assert math.isnan(rows[1]["ms"]) and best == 0


def test_time_configs_times_with_a_40_ms_budget_by_default(monkeypatch):
    seen = []
    monkeypatch.setattr(timing, "time_ms", lambda fn, **kw: (seen.append((fn(), kw)), 1.5)[1])
    rows, best = timing.time_configs(lambda cfg: cfg * 10, [7])
    assert seen == [(70, {"rep_ms": 40})] and rows[0]["ms"] == 1.5 and best == 7


def test_tune_forward_labels_the_rows_and_returns_the_config_itself():
    times = {1: 2.0, 2: 1.0}
    rows, best = timing.tune_forward(lambda c: times[c], [1, 2], lambda c: f"cfg{c}", bench=lambda fn: fn())
    assert [(r["config"], r["ms"]) for r in rows] == [("cfg1", 2.0), ("cfg2", 1.0)] and best == 2


# ---- library.py: pure helpers ----

def test_refusal_without_a_message():
    assert library.refusal("", []) == "refused"
    assert library.refusal(" \n", ["x (Triggered internally at a.cpp:1.)"]) == "refused (x)"


def test_gqa_flag_only_when_heads_differ():
    q = torch.zeros(1, 2, 8, 16)
    assert library._gqa(q, torch.zeros(1, 1, 8, 16)) == {"enable_gqa": True}
    # same heads, other lengths and dims: no flag (only dim 1, the heads, counts)
    assert library._gqa(q, torch.zeros(1, 2, 4, 16)) == {}


def test_import_error():
    assert library.import_error("json") == ""
    name = "m" * 250
    # one_line: "Type: message", cut to 200 characters
    assert library.import_error(name) == f"ModuleNotFoundError: No module named '{name}'"[:200]


def test_flash_causal_only_when_the_lengths_agree():
    q, k = torch.zeros(1, 1, 4, 8), torch.zeros(1, 1, 6, 8)
    assert library._flash_causal(q, q, True) is True and library._flash_causal(q, k, False) is False
    with pytest.raises(ValueError, match="^flash-attn's causal mask is bottom-right aligned: differs from SDPA's "
                                         "when Sq != Sk$"):
        library._flash_causal(q, k, True)


def test_recompile_settings():
    # every setting this torch knows: past 8 recompiles dynamo would fall back to eager flex_attention silently
    assert library._recompile_settings() == {"recompile_limit": 256, "cache_size_limit": 256,
                                              "fail_on_recompile_limit_hit": True, "fail_on_cache_limit_hit": True}


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
    with pytest.raises(ValueError, match="bottom-right"):
        adapter(q, k[:, :, :4], v[:, :, :4], SCALE, causal=True)
    # the registry passes causal only when set: without it, dense
    assert torch.allclose(adapter(q, k, v, SCALE)[0], attention_float64(q, k, v, SCALE)[0], atol=1e-12)


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
    library._te_module.cache_clear()
    q, k, v = inputs(Hq=4, Hkv=2, D=8)
    out, lse = library.transformer_engine(q, k, v, SCALE, causal=causal)
    library._te_module.cache_clear()
    assert lse is None and torch.allclose(out, attention_float64(q, k, v, SCALE, causal=causal)[0], atol=1e-12)
    assert made == [(4, 8, 2, "bshd", "causal" if causal else "no_mask", SCALE)]
    with pytest.raises(ValueError, match="^Transformer Engine's 'causal' differs"):
        library.transformer_engine(q, k[:, :, :4], v[:, :, :4], SCALE, causal=True)
    library.transformer_engine(q, k, v, SCALE)     # without causal: the dense module
    library._te_module.cache_clear()
    assert made[-1][4] == "no_mask"


def test_flex_plumbing_with_eager_flex_attention(monkeypatch):
    """flex() with flex_attention run eagerly (compiling it would take minutes here): the block mask, scale and
    GQA reach it."""
    import warnings

    from torch.nn.attention.flex_attention import flex_attention

    import torch._dynamo.config as cfg

    limits = []

    def eager(*a, **kw):   # records the recompile limit in force while it runs
        limits.append(cfg.recompile_limit)
        return flex_attention(*a, **kw)
    monkeypatch.setattr(library, "_compiled_flex", lambda: eager)
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
    assert limits == [256] * 3
