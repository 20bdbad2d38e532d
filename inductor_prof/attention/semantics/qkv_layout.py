"""q, k and v's layout as the model's attention call had it, and the benchmark's contiguous variant of a backend
(pure).

A backend's speed, and whether it runs at all, is that of the layouts the model hands it: FLUX hands SDPA a
(B, H, S, D) view of (B, S, H, D) memory (q, k, v of (1,24,4608,128) with strides (14155776, 128, 3072, 1)), and on
the H200 (torch 2.11, cuDNN 91900) cuDNN's backward failed on the model's calls as recorded, yet ran them all with
the upstream gradient made contiguous; q, k, v made contiguous alone did not help (the trigger is the mix of its
two dout layouts: scripts/probe_cudnn_train.py). So the benchmark builds q, k, v in the layout the eager capture
recorded (attention_shapes.json's `layout`, from q's strides: capture.py): "bshd" -> the (B, H, S, D) view of
(B, S, H, D) memory, strides (S*H*D, D, H*D, 1); "bhsd" or nothing recorded -> contiguous.

A backend that fails at the model's layouts gets a second row, its call with the non-contiguous tensors copied
contiguous inside it (`variant_name`: "sdpa_cudnn (q,k,v contiguous)", "... (q,k,v,dout contiguous)"), so its time
includes the copies a user would add to the model.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

from .grad_layout import words
from .shapes import Shape, from_call

BSHD, BHSD = "bshd", "bhsd"
QKV, DOUT = "q,k,v", "dout"   # what a contiguous variant copies, as its name says it
_VARIANT = re.compile(r"^(?P<base>.+) \((?P<what>(q,k,v|dout|q,k,v,dout)) contiguous\)$")


def recorded(calls: Iterable[dict]) -> dict[str, str]:
    """Shape label -> the layout most of its captured calls had ("bshd" or "bhsd"); a shape whose calls recorded
    none is left out (contiguous). Ties go to "bshd": the one a backend may fail on is the one to run."""
    seen: dict[str, Counter] = {}
    for c in calls:
        layout = str(c.get("layout") or "")
        if layout in (BSHD, BHSD):
            seen.setdefault(from_call(c).label, Counter())[layout] += 1
    return {label: max(n, key=lambda lay: (n[lay], lay == BSHD)) for label, n in seen.items()}


def strides(layout: str | None, B: int, H: int, S: int, D: int) -> tuple[int, int, int, int] | None:
    """The (B, H, S, D) view's strides of a (B, H, S, D) tensor in `layout`; None: contiguous."""
    if layout != BSHD:
        return None
    return (S * H * D, D, H * D, 1)   # memory (B, S, H, D): a token's H*D elements, then the next token


def q_strides(layout: str | None, shape: Shape) -> tuple[int, int, int, int] | None:
    return strides(layout, shape.B, shape.H, shape.Sq, shape.D)


def kv_strides(layout: str | None, shape: Shape) -> tuple[int, int, int, int] | None:
    return strides(layout, shape.B, shape.kv_heads, shape.Sk, shape.D)


def describe(layout: str | None, shape: Shape) -> str:
    """A row's `qkv_layout`: "(B,S,H,D)" for the strided view (grad_layout.words of q's strides), "contiguous" for
    a recorded (B, H, S, D) layout, "contiguous (no layout recorded)" where the run recorded none."""
    if not layout:
        return "contiguous (no layout recorded)"
    return words(q_strides(layout, shape), shape)


def is_contiguous(text: str) -> bool:
    """Whether a row's qkv_layout says the dense (B, H, S, D) tensors (or nothing: a run predating the column)."""
    return not text or text.startswith("contiguous")


def copied(qkv_contiguous: bool, dout_contiguous: bool = True) -> str:
    """What a contiguous variant copies at a shape: "q,k,v", "dout", "q,k,v,dout", "" (nothing: no variant)."""
    return ",".join(w for w, contiguous in ((QKV, qkv_contiguous), (DOUT, dout_contiguous)) if not contiguous)


def variant_name(base: str, what: str) -> str:
    """The contiguous variant's row name: "sdpa_cudnn (q,k,v contiguous)"."""
    return f"{base} ({what} contiguous)"


def base_of(name: str) -> str:
    """The backend a row name runs: the variant's base, else the name itself."""
    m = _VARIANT.match(name)
    return m.group("base") if m else name


def what_copied(name: str) -> str:
    """What a variant's name says it copies ("q,k,v", ...); "" for a backend that is not a variant."""
    m = _VARIANT.match(name)
    return m.group("what") if m else ""


def is_variant(name: str) -> bool:
    return bool(_VARIANT.match(name))
