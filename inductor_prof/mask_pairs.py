"""What an attention mask keeps, as the cost model needs it (pure, ground floor: no torch, nothing of the package
above it): MaskSpec (a mask's kind and parameters), the kept query-key pairs a mask leaves, and a captured call's
mask from its attention_shapes.json entry. attention/semantics/masks.py recognises a MaskSpec from a mask's values
and rebuilds the mask from one; the kinds are described there.

FLOP convention (contract B): attention flops = 4 * D * B * Hq * (kept query-key pairs per batch and head), the
two matmuls QK^T and PV over the pairs a kernel that skips masked pairs must compute: `pairs` counts them here,
cost.attention_flops prices them.
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("none", "causal", "window", "padding", "causal_padding", "window_padding", "arbitrary", "bias")


@dataclass(frozen=True)
class MaskSpec:
    kind: str = "none"
    window: int = 0                       # window kinds: keys up to the query's own, that one included
    key_lengths: tuple[int, ...] = ()     # padding kinds: kept keys per batch (one entry: same for every batch)
    left: bool = False                    # padding kinds: the kept keys are the last ones
    pairs: int = 0                        # arbitrary: kept pairs summed over the batch (per head)
    file: str = ""                        # arbitrary: its saved values (relative to the run folder)
    right: int = 0                        # window kinds: keys after the query's own

    @property
    def label(self) -> str:
        """The shape label's suffix: '', ',causal', ',window=4096' (causal window), ',window=257+256' (keys
        i-256..i+256), ',padding', ',causal+padding', ',window=256,padding', ',mask', ',bias'."""
        win = f",window={self.window}" + (f"+{self.right}" if self.right else "")
        return {"none": "", "causal": ",causal", "window": win, "padding": ",padding",
                "causal_padding": ",causal+padding", "window_padding": win + ",padding", "arbitrary": ",mask",
                "bias": ",bias"}[self.kind]


NONE = MaskSpec()
CAUSAL = MaskSpec("causal")


def causal_pairs(Sq: int, Sk: int) -> int:
    """sum over i < Sq of min(i + 1, Sk): row i keeps keys 0..i, at most Sk of them."""
    n = min(Sq, Sk)
    return n * (n + 1) // 2 + (Sq - n) * Sk


def _row_pairs(Sq: int, Sk: int, lo, hi) -> int:
    """sum over rows i of the keys in [lo(i), hi(i)] inside [0, Sk)."""
    return sum(max(0, min(hi(i), Sk - 1) - max(lo(i), 0) + 1) for i in range(Sq))


def key_ranges(spec: MaskSpec, B: int, Sk: int) -> list[tuple[int, int]]:
    """Per batch, the kept keys [lo, hi) of a padding kind: the first n keys, with `left` the last n."""
    lengths = spec.key_lengths * B if len(spec.key_lengths) == 1 else spec.key_lengths
    return [(Sk - min(n, Sk), Sk) if spec.left else (0, min(n, Sk)) for n in lengths]


def pairs(spec: MaskSpec, B: int, Sq: int, Sk: int) -> int:
    """Kept (query, key) pairs summed over the batch, per head."""
    if spec.kind in ("none", "bias"):
        return B * Sq * Sk
    if spec.kind == "causal":
        return B * causal_pairs(Sq, Sk)
    if spec.kind == "window":    # keys i - window + 1 .. i + right
        return B * _row_pairs(Sq, Sk, lambda i: i - spec.window + 1, lambda i: i + spec.right)
    if spec.kind in ("padding", "causal_padding", "window_padding"):
        times = B if len(spec.key_lengths) == 1 else 1        # one length for every batch: counted once
        ranges = key_ranges(spec, B if times == 1 else 1, Sk)
        if spec.kind == "padding":
            return times * sum(Sq * (hi - lo) for lo, hi in ranges)
        # causal: no bound back (i - Sq < 0 for every row), none ahead
        back, ahead = (Sq, 0) if spec.kind == "causal_padding" else (spec.window - 1, spec.right)
        return times * sum(_row_pairs(Sq, Sk, lambda i, lo=lo: max(lo, i - back),
                                      lambda i, hi=hi: min(hi - 1, i + ahead)) for lo, hi in ranges)
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
                    bool(c.get("padding_left")), int(c.get("mask_pairs") or 0), str(c.get("mask_file") or ""),
                    int(c.get("window_right") or 0))
