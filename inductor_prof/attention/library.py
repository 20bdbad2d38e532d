"""Library and compiler backends: SDPA with each backend forced, compiled FlexAttention, and external packages.

Each adapter takes q, k, v as (B, H, S, D) and returns (out (B, H, Sq, D), lse or None). External packages
(FlashAttention 2/3, xformers, Transformer Engine) follow their documented call; when one is not importable
the registry lists it as unavailable with the import error.
"""
from __future__ import annotations

import importlib
from functools import lru_cache

from ..errors import one_line

SDPA_BACKENDS = {"sdpa_flash": "FLASH_ATTENTION", "sdpa_efficient": "EFFICIENT_ATTENTION",
                 "sdpa_cudnn": "CUDNN_ATTENTION", "sdpa_math": "MATH"}

def sdpa(backend: str | None):
    """SDPA forced onto one backend (None: PyTorch's own choice)."""
    def run(q, k, v, scale):
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel

        if backend is None:
            return F.scaled_dot_product_attention(q, k, v, scale=scale), None
        with sdpa_kernel([getattr(SDPBackend, SDPA_BACKENDS[backend])]):
            return F.scaled_dot_product_attention(q, k, v, scale=scale), None
    return run


@lru_cache(maxsize=1)
def _compiled_flex():
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


def flex(q, k, v, scale):
    """FlexAttention with no score_mod/mask: Inductor writes it as a Triton template kernel."""
    import torch._dynamo.config as cfg

    with cfg.patch(_recompile_settings()):
        return _compiled_flex()(q, k, v, scale=scale), None


def flash_attn2(q, k, v, scale):
    from flash_attn import flash_attn_func

    out = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), softmax_scale=scale)
    return out.transpose(1, 2), None


def flash_attn3(q, k, v, scale):
    from flash_attn_interface import flash_attn_func

    out = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), softmax_scale=scale)
    out = out[0] if isinstance(out, tuple) else out
    return out.transpose(1, 2), None


def xformers(q, k, v, scale):
    from xformers.ops import memory_efficient_attention

    out = memory_efficient_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), scale=scale)
    return out.transpose(1, 2), None


@lru_cache(maxsize=None)
def _te_module(heads: int, head_dim: int, scale: float):
    from transformer_engine.pytorch import DotProductAttention

    return DotProductAttention(heads, head_dim, qkv_format="bshd", attn_mask_type="no_mask", softmax_scale=scale)


def transformer_engine(q, k, v, scale):
    B, H, Sq, D = q.shape
    out = _te_module(H, D, float(scale))(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
    return out.reshape(B, Sq, H, D).transpose(1, 2), None


# name -> (module that must import, adapter)
EXTERNAL = {"flash_attn2": ("flash_attn", flash_attn2), "flash_attn3": ("flash_attn_interface", flash_attn3),
            "xformers": ("xformers.ops", xformers), "transformer_engine": ("transformer_engine.pytorch",
                                                                           transformer_engine)}


def import_error(module: str) -> str:
    """'' when the module imports, else the error in one line."""
    try:
        importlib.import_module(module)
        return ""
    except Exception as e:  # ImportError, or a broken install raising anything else
        return one_line(e, 200)
