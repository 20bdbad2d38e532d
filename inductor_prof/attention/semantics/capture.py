"""The model's attention semantics from real values: one step of the compiled model run EAGERLY
(torch.compiler.set_stance("force_eager")) under a TorchFunctionMode that sees every F.scaled_dot_product_attention
call and every FlexAttention call (flex_attention reaches its higher-order op `flex_attention_hop`, whose __call__
hands it to torch-function modes: the op's arguments are q, k, v, score_mod, the block mask as a tuple ending in
its block sizes and mask_mod, and scale).

Per call: B, Hq, Hkv, Sq, Sk, D, dtype, layout (from q's strides), is_causal, enable_gqa, scale, dropout, and the
mask recognised from its values (masks.classify); GQA also when the heads were repeated before the call (k and v
equal in groups of heads). Recognised once per distinct call (shapes, flags, the mask tensor): the layers that share
one mask tensor cost one classification. A mask that kind + parameters cannot rebuild is kept (CPU, bool) for the
stage to save (maskfile.py).
"""
from __future__ import annotations

import math

from . import masks

SDPA_ARGS = ("query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa")


def _as4d(t):
    """(B, H, S, D): leading batch dims flattened, a missing head/batch dim added."""
    while t.dim() < 4:
        t = t[None]
    return t.reshape(-1, *t.shape[-3:]) if t.dim() > 4 else t


def _name(fn) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__


class AttentionSpy:
    """Collects `calls` (dicts, in call order) and `keeps` (arbitrary masks by id) while active (`with spy:`)."""

    def __init__(self):
        self.calls: list[dict] = []
        self.keeps: dict[str, object] = {}
        self._known: dict[tuple, dict] = {}
        self._mode = None

    def __enter__(self):
        import torch.nn.functional as F
        from torch.overrides import TorchFunctionMode

        try:
            from torch._higher_order_ops.flex_attention import flex_attention as flex_hop
        except ImportError:  # a torch without FlexAttention: SDPA only
            flex_hop = None
        spy = self

        class Mode(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if func is F.scaled_dot_product_attention:
                    spy._sdpa(args, kwargs)
                elif flex_hop is not None and func is flex_hop:
                    spy._flex(args, kwargs)
                return func(*args, **kwargs)
        self._mode = Mode()
        self._mode.__enter__()
        return self

    def __exit__(self, *exc):
        self._mode.__exit__(*exc)

    def _common(self, q, k, v, key: tuple, mask, causal: bool, gqa: bool) -> dict:
        """Shapes, layout and what the mask and kv heads mean; classified once per `key`."""
        if key in self._known:
            return self._known[key]
        q4, k4, v4 = _as4d(q), _as4d(k), _as4d(v)
        B, Hq, Sq, D = q4.shape
        Hkv, Sk = k4.shape[1], k4.shape[2]
        groups = masks.repeated_kv_groups(k4, v4) if Hkv == Hq and Hq > 1 and not gqa else 1
        spec, keep = masks.classify(mask, Sq, Sk, B) if mask is not None else (masks.NONE, None)
        if causal:
            spec = masks.CAUSAL
        info = {"B": B, "H": Hq, "Hkv": Hkv // groups, "Sq": Sq, "Sk": Sk, "D": D,
                "dtype": str(q.dtype).replace("torch.", ""),
                "layout": "bshd" if q4.stride(2) > q4.stride(1) else "bhsd", "kv_repeated": groups > 1,
                "mask_kind": spec.kind, "window": spec.window, "window_right": spec.right,
                "key_lengths": list(spec.key_lengths),
                "padding_left": spec.left, "mask_pairs": masks.pairs(spec, B, Sq, Sk), "mask_file": ""}
        if spec.kind == "arbitrary":
            name = f"mask_{len(self.keeps)}"
            self.keeps[name] = keep.to("cpu")  # type: ignore[union-attr]  # an arbitrary mask has its keep
            info["mask_file"] = name
        self._known[key] = info
        return info

    def _sdpa(self, args, kwargs) -> None:
        a = {**dict(zip(SDPA_ARGS, args)), **kwargs}
        q, k, v, mask = a["query"], a["key"], a["value"], a.get("attn_mask")
        causal, gqa = bool(a.get("is_causal", False)), bool(a.get("enable_gqa", False))
        key = ("sdpa", tuple(q.shape), tuple(k.shape), q.dtype, causal, gqa,
               None if mask is None else (tuple(mask.shape), mask.dtype, mask.data_ptr()))
        info = self._common(q, k, v, key, mask, causal, gqa)
        scale = a.get("scale")
        self.calls.append({"op": "sdpa", **info, "causal": causal, "enable_gqa": gqa, "mask": mask is not None,
                           "mask_dtype": "" if mask is None else str(mask.dtype).replace("torch.", ""),
                           "scale": float(scale) if scale is not None else 1 / math.sqrt(info["D"]),
                           "dropout": float(a.get("dropout_p", 0.0))})

    def _flex(self, args, kwargs) -> None:
        q, k, v, score_mod, block = args[:5]
        scale = args[5] if len(args) > 5 else kwargs.get("scale")
        mask_mod = block[-1]
        q_block, kv_block = block[-3], block[-2]
        tensors = [i for i, t in enumerate(block) if hasattr(t, "shape")]
        kv_num, full_num = block[tensors[0]], block[tensors[0] + 2]
        key = ("flex", tuple(q.shape), tuple(k.shape), q.dtype, _name(mask_mod), kv_num.data_ptr())
        if key not in self._known:
            from torch.nn.attention.flex_attention import create_mask

            Bm, Hm = kv_num.shape[:2]
            dense = create_mask(mask_mod, Bm, Hm, q.shape[-2], k.shape[-2], device=q.device)
            self._common(q, k, v, key, dense, False, True)
        info = dict(self._known[key])
        computed = int(kv_num.sum()) + (int(full_num.sum()) if full_num is not None else 0)
        total = kv_num.numel() * math.ceil(k.shape[-2] / kv_block)
        self.calls.append({"op": "flex_attention", **info, "causal": False, "enable_gqa": info["Hkv"] != info["H"],
                           "mask": info["mask_kind"] != "none", "scale": float(scale) if scale is not None else
                           1 / math.sqrt(info["D"]), "dropout": 0.0, "score_mod": _name(score_mod),
                           "mask_mod": _name(mask_mod), "block_size": [int(q_block), int(kv_block)],
                           "block_sparsity_pct": 100.0 * (1 - computed / total) if total else 0.0})


def eager_step(step) -> AttentionSpy:
    """Runs step() once eagerly (torch.compile's compiled code set aside) with the spy on; returns the spy."""
    import torch

    spy = AttentionSpy()
    with torch.compiler.set_stance("force_eager"), torch.no_grad(), spy:
        step()
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return spy
