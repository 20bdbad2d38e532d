"""Library and compiler backends: SDPA with each backend forced, compiled FlexAttention, and external packages.

Each adapter follows contract A (registry.py): q (B, Hq, Sq, D), k/v (B, Hkv, Sk, D), causal top-left, mask a bool
keep; it returns (out (B, Hq, Sq, D), lse or None). External packages (FlashAttention 2/3, xformers, Transformer
Engine) follow their documented call with their own causal flag; when one is not importable the registry lists it
as unavailable with the import error. An adapter raises ValueError for semantics its package cannot express.
"""
from __future__ import annotations

import importlib
import re
from functools import lru_cache

from ...aten import SDPA_BACKENDS
from ...errors import one_line

_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)")


def refusal(error: str, warned: list[str]) -> str:
    """A forced SDPA backend's refusal in one line: torch's error, then the reasons it warned, each flattened and
    without its C++ source location (a reason that ends in ':' runs on into the next warning, as torch wrote it)."""
    reasons = [r for r in (_TRIGGERED.sub("", " ".join(w.split())).strip() for w in warned) if r]
    why = ""
    for r in reasons:
        why += r if not why else (" " if why.endswith(":") else "; ") + r
    first = error.strip().splitlines()[0] if error.strip() else "refused"
    return f"{first} ({why})" if why else first


def _gqa(q, k) -> dict:
    """enable_gqa for SDPA and FlexAttention when k has fewer heads than q; nothing otherwise (older torch)."""
    return {"enable_gqa": True} if q.shape[1] != k.shape[1] else {}


def sdpa(backend: str | None):
    """SDPA forced onto one backend (None: PyTorch's own choice), with is_causal, attn_mask and enable_gqa. When
    the forced backend cannot run the call, the reasons torch warns about go into the error."""
    def run(q, k, v, scale, *, causal=False, mask=None):
        import warnings

        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel

        kw = {"attn_mask": mask, "is_causal": causal, "scale": scale,
              **_gqa(q, k)}
        if backend is None:
            return F.scaled_dot_product_attention(q, k, v, **kw), None
        with warnings.catch_warnings(record=True) as seen, sdpa_kernel([getattr(SDPBackend, SDPA_BACKENDS[backend])]):
            warnings.simplefilter("always")
            try:
                return F.scaled_dot_product_attention(q, k, v, **kw), None
            except RuntimeError as e:
                raise RuntimeError(refusal(str(e), [str(w.message) for w in seen])) from None
    return run


@lru_cache(maxsize=1)
def compiled_flex_attention():
    """torch.compile(flex_attention), made once per process: every shape and block mask is a recompile of this
    one function (what `flex` calls; the CPU tests put flex_attention run eagerly in its place)."""
    import torch
    from torch.nn.attention.flex_attention import flex_attention

    return torch.compile(flex_attention, dynamic=False)


def _recompile_settings() -> dict:
    """Each shape is one more compile of the same function; past dynamo's default limit (8) it would silently
    run flex_attention eagerly (measured: 2-25 TFLOP/s in a sweep). Allow many, and fail loudly past that."""
    import torch._dynamo.config as cfg

    known = set(getattr(cfg, "_config", {}))
    wanted = {"recompile_limit": 256, "cache_size_limit": 256, "fail_on_recompile_limit_hit": True,
              "fail_on_cache_limit_hit": True}
    return {k: v for k, v in wanted.items() if k in known}


def flex(q, k, v, scale, *, causal=False, mask=None):
    """FlexAttention compiled: Inductor writes it as a Triton template kernel; causal or a mask as a BlockMask
    (flex_mask.py), GQA through enable_gqa."""
    import torch._dynamo.config as cfg

    from .flex_mask import block_mask

    bm = block_mask(q, k, causal, mask)
    kw = {"block_mask": bm, "scale": scale, **_gqa(q, k)}
    with cfg.patch(_recompile_settings()):
        return compiled_flex_attention()(q, k, v, **kw), None


def _flash_causal(q, k, causal: bool) -> bool:
    # flash-attn's causal is aligned bottom-right: the same as SDPA's top-left only when Sq == Sk
    if causal and q.shape[2] != k.shape[2]:
        raise ValueError("flash-attn's causal mask is bottom-right aligned: differs from SDPA's when Sq != Sk")
    return causal


def flash_attn2(q, k, v, scale, *, causal=False):
    from flash_attn import flash_attn_func

    out = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), softmax_scale=scale,
                          causal=_flash_causal(q, k, causal))
    return out.transpose(1, 2), None


def flash_attn3(q, k, v, scale, *, causal=False):
    from flash_attn_interface import flash_attn_func

    out = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), softmax_scale=scale,
                          causal=_flash_causal(q, k, causal))
    out = out[0] if isinstance(out, tuple) else out
    return out.transpose(1, 2), None


def xformers(q, k, v, scale, *, causal=False):
    from xformers.ops import LowerTriangularMask, memory_efficient_attention

    bias = LowerTriangularMask() if causal else None     # top-left aligned, as SDPA's is_causal
    out = memory_efficient_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), attn_bias=bias,
                                     scale=scale)
    return out.transpose(1, 2), None


@lru_cache(maxsize=None)
def te_attention(heads: int, kv_heads: int, head_dim: int, scale: float, causal: bool):
    """Transformer Engine's DotProductAttention module for these heads (kv_heads: its GQA groups), head dim, scale
    and mask type (causal or none), bshd layout; built once per set and reused, so the timed calls run the
    module and never its construction."""
    from transformer_engine.pytorch import DotProductAttention

    return DotProductAttention(heads, head_dim, num_gqa_groups=kv_heads, qkv_format="bshd",
                               attn_mask_type="causal" if causal else "no_mask", softmax_scale=scale)


def transformer_engine(q, k, v, scale, *, causal=False):
    B, H, Sq, D = q.shape
    if causal and Sq != k.shape[2]:
        raise ValueError("Transformer Engine's 'causal' differs from SDPA's top-left alignment when Sq != Sk")
    te = te_attention(H, k.shape[1], D, float(scale), causal)
    out = te(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
    return out.reshape(B, Sq, H, D).transpose(1, 2), None


# name -> (module that must import, adapter, the semantics it takes)
_CG = frozenset({"causal", "gqa"})
EXTERNAL = {"flash_attn2": ("flash_attn", flash_attn2, _CG), "flash_attn3": ("flash_attn_interface", flash_attn3, _CG),
            "xformers": ("xformers.ops", xformers, frozenset({"causal"})),
            "transformer_engine": ("transformer_engine.pytorch", transformer_engine, _CG)}


def import_error(module: str) -> str:
    """'' when the module imports, else the error in one line."""
    try:
        importlib.import_module(module)
        return ""
    except Exception as e:  # ImportError, or a broken install raising anything else
        return one_line(e, 200)
