"""What an attention mask is, recognised from its values (pure: torch ops on the tensors given, no I/O), how many
query-key pairs it keeps (the FLOP convention below), and the mask rebuilt from what was recognised.

Kinds (keep[b, i, j]: query i attends key j; i < Sq, j < Sk):
  none            every pair kept
  causal          j <= i (SDPA's is_causal: top-left aligned, also when Sq != Sk)
  window          i - window < j <= i (causal sliding window of `window` keys, the query's own included)
  padding         keep depends on the key only, per batch: the first key_lengths[b] keys (`left`: the last ones)
  causal_padding  causal and padding together
  arbitrary       anything else: rebuilt from its saved values
  bias            a float mask with values other than 0 and -inf/min: an additive bias, not a mask
Heads: a mask that differs between heads is arbitrary. Batch: a mask broadcast over the batch keeps one entry.

FLOP convention (contract B): attention flops = 4 * D * B * Hq * (kept query-key pairs per batch and head), the
two matmuls QK^T and PV over the pairs a kernel that skips masked pairs must compute: `pairs` counts them here,
cost.attention_flops prices them.
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("none", "causal", "window", "padding", "causal_padding", "arbitrary", "bias")


@dataclass(frozen=True)
class MaskSpec:
    kind: str = "none"
    window: int = 0                       # window: keys per query
    key_lengths: tuple[int, ...] = ()     # padding kinds: kept keys per batch (one entry: same for every batch)
    left: bool = False                    # padding kinds: the kept keys are the last ones
    pairs: int = 0                        # arbitrary: kept pairs summed over the batch (per head)
    file: str = ""                        # arbitrary: its saved values (relative to the run folder)

    @property
    def label(self) -> str:
        """The shape label's suffix: '', ',causal', ',window=4096', ',padding', ',causal+padding', ',mask', ',bias'."""
        return {"none": "", "causal": ",causal", "window": f",window={self.window}", "padding": ",padding",
                "causal_padding": ",causal+padding", "arbitrary": ",mask", "bias": ",bias"}[self.kind]


NONE = MaskSpec()
CAUSAL = MaskSpec("causal")


def causal_pairs(Sq: int, Sk: int) -> int:
    """sum over i < Sq of min(i + 1, Sk): row i keeps keys 0..i, at most Sk of them."""
    n = min(Sq, Sk)
    return n * (n + 1) // 2 + (Sq - n) * Sk


def _row_pairs(Sq: int, Sk: int, lo, hi) -> int:
    """sum over rows i of the keys in [lo(i), hi(i)] inside [0, Sk)."""
    return sum(max(0, min(hi(i), Sk - 1) - max(lo(i), 0) + 1) for i in range(Sq))


def pairs(spec: MaskSpec, B: int, Sq: int, Sk: int) -> int:
    """Kept (query, key) pairs summed over the batch, per head."""
    lengths = spec.key_lengths if len(spec.key_lengths) != 1 else spec.key_lengths * B
    if spec.kind in ("none", "bias"):
        return B * Sq * Sk
    if spec.kind == "causal":
        return B * causal_pairs(Sq, Sk)
    if spec.kind == "window":
        return B * _row_pairs(Sq, Sk, lambda i: i - spec.window + 1, lambda i: i)
    if spec.kind == "padding":
        return sum(Sq * min(n, Sk) for n in lengths)
    if spec.kind == "causal_padding":
        if spec.left:   # keys Sk-n..Sk-1 kept, and j <= i
            return sum(_row_pairs(Sq, Sk, lambda i, n=n: Sk - n, lambda i: i) for n in lengths)
        return sum(_row_pairs(Sq, Sk, lambda i: 0, lambda i, n=n: min(i, n - 1)) for n in lengths)
    if spec.kind == "arbitrary":
        return spec.pairs
    raise ValueError(f"unknown mask kind {spec.kind!r}")


def call_mask(c: dict) -> MaskSpec:
    """A captured call's mask: is_causal, else what the eager capture recognised (attention_shapes.json's
    mask_kind...), else an explicit mask whose values were not captured (arbitrary, nothing to replay)."""
    if c.get("causal"):
        return CAUSAL
    kind = c.get("mask_kind") or ("arbitrary" if c.get("mask") else "none")
    return MaskSpec(kind, int(c.get("window") or 0), tuple(int(n) for n in c.get("key_lengths") or ()),
                    bool(c.get("padding_left")), int(c.get("mask_pairs") or 0), str(c.get("mask_file") or ""))


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


def _key_run(keep_row) -> tuple[int, bool] | None:
    """(kept keys, left) when the kept keys of one row are a prefix (right padding) or a suffix (left padding)."""
    n = int(keep_row.sum())
    Sk = keep_row.shape[0]
    if bool(keep_row[:n].all()):
        return n, False
    if bool(keep_row[Sk - n:].all()):
        return n, True
    return None


def classify(mask, Sq: int, Sk: int, B: int = 1) -> tuple[MaskSpec, object]:
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
    tri, dist = _tril(Sq, Sk, keep.device)
    if bool((rows == tri).all()):
        return CAUSAL, keep
    if bool((rows <= tri).all()):                         # inside the causal triangle: a window?
        w = int(dist[rows.any(dim=0)].max()) + 1 if bool(rows.any()) else 0
        if w > 0 and bool((rows == (tri & (dist < w))).all()):
            return MaskSpec("window", window=w), keep
    spec = _padding(rows, tri)
    if spec is not None:
        return spec, keep
    return MaskSpec("arbitrary", pairs=per_batch * int(rows.sum())), keep


def _padding(rows, tri) -> MaskSpec | None:
    """padding or causal_padding when every batch's keep is (causal and) a key prefix or suffix."""
    last = rows[:, -1]                  # the last query row sees every kept key (causal: every key up to Sq - 1)
    for kind, base in (("padding", None), ("causal_padding", tri)):
        expected = last[:, None, :] if base is None else last[:, None, :] & base
        if not bool((rows == expected).all()):
            continue
        runs = [_key_run(r) for r in last]
        if any(r is None for r in runs) or len({left for _, left in runs}) > 1:
            return None
        return MaskSpec(kind, key_lengths=tuple(n for n, _ in runs), left=runs[0][1])
    return None


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
    tri, dist = _tril(Sq, Sk, device)
    if spec.kind == "causal":
        return tri[None, None]
    if spec.kind == "window":
        return (tri & (dist < spec.window))[None, None]
    j = torch.arange(Sk, device=device)
    n = torch.tensor(spec.key_lengths, device=device)[:, None]
    keys = (j >= Sk - n) if spec.left else (j < n)          # (b, Sk)
    rows = keys[:, None, :].expand(-1, Sq, -1)
    return (rows & tri if spec.kind == "causal_padding" else rows)[:, None]


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
