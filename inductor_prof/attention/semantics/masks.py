"""What an attention mask is, recognised from its values (pure: torch ops on the tensors given, no I/O), how many
query-key pairs it keeps (the FLOP convention below), and the mask rebuilt from what was recognised.

Kinds (keep[b, i, j]: query i attends key j; i < Sq, j < Sk):
  none            every pair kept
  causal          j <= i (SDPA's is_causal: top-left aligned, also when Sq != Sk)
  window          i - window < j <= i + right (a sliding window of `window` keys up to the query's own, and `right`
                  keys after it: right = 0 is the causal sliding window, |i - j| <= w is window w + 1, right w)
  padding         keep depends on the key only, per batch: the first key_lengths[b] keys (`left`: the last ones)
  causal_padding  causal and padding together
  window_padding  window and padding together
  arbitrary       anything else: rebuilt from its saved values
  bias            a float mask with values other than 0 and -inf/min: an additive bias, not a mask
Heads: a mask that differs between heads is arbitrary. Batch: a mask broadcast over the batch keeps one entry.

FLOP convention (contract B): attention flops = 4 * D * B * Hq * (kept query-key pairs per batch and head), the
two matmuls QK^T and PV over the pairs a kernel that skips masked pairs must compute: `pairs` counts them here,
cost.attention_flops prices them.
"""
from __future__ import annotations

from typing import Any

# MaskSpec and the kept pairs live on the ground floor (mask_pairs.py), where the cost model reads them
from ...mask_pairs import CAUSAL, KINDS, NONE, MaskSpec, call_mask, causal_pairs, pairs  # noqa: F401


# ---- recognising a mask from its values --------------------------------------------------------------------

def keep_of(mask):
    """The boolean keep of an SDPA attn_mask (bool: True = attend; float: 0 = attend, -inf or the dtype's
    lowest = masked), or None when a float mask holds other values (a bias)."""
    import torch

    if mask.dtype == torch.bool:
        return mask
    masked = torch.isneginf(mask) | (mask <= torch.finfo(mask.dtype).min / 2)
    if not bool(((mask == 0) | masked).all()):
        return None
    return ~masked


def _tril(Sq: int, Sk: int, device):
    import torch

    i = torch.arange(Sq, device=device)[:, None]
    j = torch.arange(Sk, device=device)[None, :]
    return j <= i, i - j


def classify(mask, Sq: int, Sk: int, B: int = 1) -> tuple[MaskSpec, Any]:
    """(what the mask is, its keep as (b, 1, Sq, Sk) bool: b = 1 when broadcast over the batch; None for none and
    bias). `mask` broadcastable to (B, H, Sq, Sk); B counts an arbitrary mask's pairs when it is broadcast."""
    if mask is None:
        return NONE, None
    keep = keep_of(mask)
    if keep is None:
        return MaskSpec("bias"), None
    while keep.dim() < 4:
        keep = keep[None]
    keep = keep.expand(keep.shape[0], keep.shape[1], Sq, Sk)
    per_batch = B if keep.shape[0] == 1 else 1        # a mask broadcast over the batch counts B times
    if keep.shape[1] > 1 and not bool((keep == keep[:, :1]).all()):   # per head: saved as is, pairs per head
        return MaskSpec("arbitrary", pairs=per_batch * int(keep.sum()) // keep.shape[1]), keep
    keep = keep[:, :1].contiguous()
    rows = keep[:, 0]                                     # (b, Sq, Sk)
    if bool(rows.all()):
        return NONE, None
    if bool((rows == _tril(Sq, Sk, rows.device)[0]).all()):     # the common case first, at a tenth of the cost
        return CAUSAL, keep
    spec = _recognise(rows)
    if spec is None or not bool((build(spec, rows.shape[0], Sq, Sk, rows.device)[:, 0] == rows).all()):
        return MaskSpec("arbitrary", pairs=per_batch * int(rows.sum())), keep
    return spec, keep


def _band_keep(dist, j, left, right, lo, hi):
    """(b, Sq, Sk): i - left <= j <= i + right (None: no bound) and lo[b] <= j < hi[b]."""
    keep = (j >= lo[:, None, None]) & (j < hi[:, None, None])
    if left is not None:
        keep = keep & (dist <= left)
    if right is not None:
        keep = keep & (dist >= -right)
    return keep


def _recognise(rows) -> MaskSpec | None:
    """The kind (causal, window, padding and them together) whose keep is `rows` (b, Sq, Sk, not all kept); None
    where none is. The tightest band (the largest i - j and j - i kept) with each batch's span of kept keys
    rebuilds `rows` whenever any band and key ranges do (it holds every kept pair and lies inside any other that
    does); then each span is widened to a prefix of the keys (right padding) or a suffix (left) and bounds that cut
    nothing dropped, wherever `rows` stays the same."""
    import torch

    b, Sq, Sk = rows.shape
    if not bool(rows.any()):
        return MaskSpec("padding", key_lengths=(0,) * b)
    _, dist = _tril(Sq, Sk, rows.device)
    j = torch.arange(Sk, device=rows.device)
    left = int(dist.masked_fill(~rows, -Sk).max())          # every kept pair has -right <= i - j <= left
    right = int((-dist).masked_fill(~rows, -Sq).max())
    keys = rows.any(dim=1)                                    # (b, Sk): keys some row keeps
    lo = torch.where(keys, j, Sk).amin(dim=1)                 # an empty batch: lo Sk, hi 0
    hi = torch.where(keys, j + 1, 0).amax(dim=1)
    zero, full = torch.zeros_like(lo), torch.full_like(hi, Sk)

    def same(left, right, lo, hi, per_batch=False):
        eq = (_band_keep(dist, j, left, right, lo, hi) == rows).flatten(1).all(dim=1)
        return eq if per_batch else bool(eq.all())

    def widen(left, right):
        """(left padding, lo, hi): the spans as prefixes or suffixes, whole where the band alone gives a batch."""
        whole = same(left, right, zero, full, per_batch=True)
        if same(left, right, zero, hi):
            return False, zero, torch.where(whole, full, hi)
        if same(left, right, lo, full):
            return True, torch.where(whole, zero, lo), full
        return None

    def relax(left, right, lo, hi):
        left = None if same(None, right, lo, hi) else left
        return left, None if same(left, None, lo, hi) else right

    # the band as tight as it is first (a span then reaches a prefix or suffix more often), then with a bound
    # dropped that the spans hold (a left-padded row keeping keys after its own: a bound of the wrong sign)
    for band_left, band_right in ((left, right), (None, right), (left, None), (None, None)):
        spans = widen(band_left, band_right) if same(band_left, band_right, lo, hi) else None
        if not spans:
            continue
        from_left, key_lo, key_hi = spans
        kept_left, kept_right = relax(band_left, band_right, key_lo, key_hi)
        spec = _spec(kept_left, kept_right, from_left, key_lo, key_hi, Sq, Sk)
        if spec:
            return spec
    return None


def _spec(left, right, from_left: bool, lo, hi, Sq: int, Sk: int) -> MaskSpec | None:
    """The MaskSpec of band bounds (None: no bound) and per-batch key spans [lo, hi); None where the query's own
    key is outside the band (the own kernels run no such band)."""
    lengths = tuple(int(n) for n in hi - lo)
    padded = any(n != Sk for n in lengths)
    pad: dict[str, Any] = {"key_lengths": lengths, "left": from_left} if padded else {}
    if left is None and right is None:
        return MaskSpec("padding", **pad) if padded else None
    if left is None and right == 0:
        return MaskSpec("causal_padding", **pad) if padded else CAUSAL
    if (left is not None and left < 0) or (right is not None and right < 0):
        return None
    # no bound back: Sq keys up to the query's own reach key 0 from any row; none ahead: Sk - 1 keys reach the last
    window, ahead = (Sq if left is None else left + 1), (Sk - 1 if right is None else right)
    return MaskSpec("window_padding" if padded else "window", window=window, right=ahead, **pad)


def build(spec: MaskSpec, B: int, Sq: int, Sk: int, device="cpu", saved=None):
    """The keep (b, 1, Sq, Sk) bool of a recognised mask (b = 1 where the same for every batch); None for none
    and bias. `saved`: an arbitrary mask's values (maskfile.load)."""
    import torch

    if spec.kind in ("none", "bias"):
        return None
    if spec.kind == "arbitrary":
        if saved is None:
            raise ValueError("an arbitrary mask is rebuilt from its saved values: none given")
        return saved.to(device)
    if spec.kind not in KINDS:
        raise ValueError(f"unknown mask kind {spec.kind!r}")
    tri, dist = _tril(Sq, Sk, device)
    band = {"causal": tri, "causal_padding": tri, "window": (dist < spec.window) & (dist >= -spec.right)}
    band["window_padding"] = band["window"]
    if spec.kind in ("causal", "window"):
        return band[spec.kind][None, None]
    j = torch.arange(Sk, device=device)
    n = torch.tensor(spec.key_lengths, device=device)[:, None]
    keys = (j >= Sk - n) if spec.left else (j < n)          # (b, Sk)
    rows = keys[:, None, :].expand(-1, Sq, -1)
    return (rows & band[spec.kind] if spec.kind in band else rows)[:, None]


def repeated_kv_groups(k, v) -> int:
    """g > 1 when k and v hold each head g times in a row (heads repeated before the call, transformers'
    repeat_kv): query head h then reads kv head h // g of the H / g distinct ones. 1 when no heads repeat."""
    H = k.shape[1]
    for g in sorted((d for d in range(2, H + 1) if H % d == 0), reverse=True):
        ks = k.unflatten(1, (H // g, g))
        vs = v.unflatten(1, (H // g, g))
        if bool((ks == ks[:, :, :1]).all()) and bool((vs == vs[:, :, :1]).all()):
            return g
    return 1
