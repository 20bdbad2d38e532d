"""A backend's contiguous variant: its call with q, k, v copied contiguous first (`.contiguous()`) and/or, in
backward, the upstream gradient (a hook on the output: grad.contiguous()), as its name says ("q,k,v", "dout",
"q,k,v,dout"), the copies inside the timed call. What a user
adds to the model where the backend fails on the model's layout (semantics/qkv_layout.py); a copy of a tensor that
is already contiguous is no copy (`.contiguous()` returns it), so the variant costs only what its name says.
"""
from __future__ import annotations

import dataclasses

from ..semantics import qkv_layout
from .registry import Backend, backends as registry_backends


def variant(base: Backend, what: str) -> Backend:
    """`base` with the copies inside its call, named qkv_layout.variant_name(base, what)."""
    assert base.fn is not None, f"{base.name} is not installed"
    fn = base.fn
    parts = what.split(",")   # "q,k,v,dout" -> q, k, v, dout
    qkv, dout = "q" in parts, qkv_layout.DOUT in parts

    def run(q, k, v, scale, *config, **semantics):
        if qkv:
            q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        out, lse = fn(q, k, v, scale, *config, **semantics)
        if dout and out.requires_grad:   # runs in backward, before the backend's own: dout copied as the model would
            out.register_hook(lambda g: g.contiguous())
        return out, lse
    return dataclasses.replace(
        base, name=qkv_layout.variant_name(base.name, what), fn=run,
        description=f"{base.name} with {what} copied contiguous inside the call (.contiguous(), timed): "
                    "it fails on the model's layout")


def backends(names: list[str]) -> list[Backend]:
    """registry.backends(names), a contiguous variant's name ("sdpa_cudnn (q,k,v contiguous)") built on its base
    (the probe worker gets the variants' names)."""
    bases = {b.name: b for b in registry_backends(list(dict.fromkeys(qkv_layout.base_of(n) for n in names)))}
    return [variant(bases[qkv_layout.base_of(n)], qkv_layout.what_copied(n)) if qkv_layout.is_variant(n)
            else bases[n] for n in names]
