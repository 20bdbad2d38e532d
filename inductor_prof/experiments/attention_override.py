"""The `attention_backend` experiment's override: the model's `F.scaled_dot_product_attention` calls routed to one
of the attention backends (registry.py: the own kernels, a library) through a custom op, so the model is not
edited and Inductor keeps the call as one opaque kernel. The override is installed once; `use(True)` turns it on
for the compile (and runs) of the changed side only: Dynamo guards on the flag, so each side keeps its own graph.
Calls the backend cannot take as they are (a mask, dropout, GQA where it has none) stay on SDPA."""
from __future__ import annotations

OP = "inductor_prof_try::attention"
_ON = {"on": False}
_INSTALLED: dict = {}
# calls the backend ran (counted in the op) and why others stayed on SDPA (counted where the override decides; Dynamo
# replays that dict update at each call of a compiled graph: 3 compiled calls with a mask counted 3 on the CPU)
_CALLS: dict = {"routed": 0, "kept": {}}


def use(on: bool) -> None:
    _ON["on"] = on


def calls() -> dict:
    """{"routed": calls the backend ran, "kept": {why: SDPA calls left as they were}}."""
    return {"routed": _CALLS["routed"], "kept": dict(_CALLS["kept"])}


def _kept_why(backend, query, key, attn_mask, dropout_p, is_causal) -> str | None:
    """Why the backend cannot take this call as it is, or None."""
    if attn_mask is not None:
        return "a mask"
    if dropout_p != 0.0:
        return "dropout"
    if query.dim() != 4:
        return f"{query.dim()}-d inputs"
    if query.shape[-3] != key.shape[-3] and "gqa" not in backend.supports:
        return "GQA"
    if is_causal and "causal" not in backend.supports:
        return "causal"
    return None


def install(backend_name: str) -> None:
    """Routes SDPA calls to `backend_name` while `use(True)`; RuntimeError where the backend is not here."""
    import torch
    import torch.nn.functional as F

    from ..attention.benchmark import registry

    if _INSTALLED:
        return
    (backend,) = registry.backends([backend_name])
    if not backend.available:
        raise RuntimeError(f"attention backend {backend_name} is not available here: {backend.reason}")

    # the schema said, not inferred: this module's annotations are strings (from __future__ import annotations)
    @torch.library.custom_op(OP, mutates_args=(), schema="(Tensor q, Tensor k, Tensor v, float scale, bool causal) "
                             "-> Tensor")
    def attention(q, k, v, scale, causal):
        _CALLS["routed"] += 1
        return backend(q.contiguous(), k.contiguous(), v.contiguous(), scale, causal=causal)[0].contiguous()

    @attention.register_fake
    def _(q, k, v, scale, causal):
        return q.new_empty(q.shape)   # contiguous, as the backend's output is made

    original = F.scaled_dot_product_attention

    def sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
        if _ON["on"]:
            why = _kept_why(backend, query, key, attn_mask, dropout_p, is_causal)
            if why is None:
                s = scale if scale is not None else query.shape[-1] ** -0.5
                return attention(query, key, value, float(s), bool(is_causal))
            _CALLS["kept"][why] = _CALLS["kept"].get(why, 0) + 1
        return original(query, key, value, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal,
                        scale=scale, **({"enable_gqa": enable_gqa} if enable_gqa else {}))

    F.scaled_dot_product_attention = sdpa
    _INSTALLED.update(backend=backend_name, original=original)
