"""The own kernels' masks as they run them (pure Python: no torch, no Triton), and which key blocks a query tile
visits under each.

A band mask: query i keeps key j when  lo <= j < hi  (the batch's key range: padding) and  i - left <= j <= i + right
(a sliding window; causal is right = 0 with no left bound, a causal window of w keys is left = w - 1, right = 0).
NO_BOUND stands for "no bound" on either side (any distance in a tensor is smaller).

A query tile of `rows` rows from row m0 visits key blocks a .. d-1: the blocks holding a key some row keeps. Of those,
b .. c-1 are full (every row of the tile keeps every key in them: run unmasked, as a causal kernel runs the blocks
below the diagonal) and a .. b-1, c .. d-1 are partial (masked: the window's and the key range's edges). A tile
with no key kept still visits one block (a = d - 1), fully masked: the Gluon kernel's producer hands each tile's Q
over inside its key loop, and a tile of no blocks would never get it; its rows come out as zeros (below).

Fully masked rows (no key kept): out 0 and lse -inf, as reference.attention_float64 gives. SDPA's math backend gives
the same zeros (its `_safe_softmax`, PyTorch 2.5 on; checked on torch 2.13's CPU math and flash); a kernel that
divides by the row sum would give 0/0 = NaN, and bench.check leaves such rows out of its comparison because
backends differ there. The kernels keep the running max's subtraction finite (a row whose max is still -inf
subtracts 0) and divide by a row sum of 0 as by 1.

The kernels (triton_fa.attn_fwd_kernel, gluon_kernel/gluon_steps) compute the same bounds in their own code; the
tests pin this arithmetic by hand and the kernels against float64 at the edges it names.
"""
from __future__ import annotations

from dataclasses import dataclass

NO_BOUND = 1 << 30   # int32-safe: m0 + rows + NO_BOUND stays below 2^31 for any length a tensor here has


@dataclass(frozen=True)
class Band:
    """Query i keeps key j when i - left <= j <= i + right (NO_BOUND: no limit that side)."""
    left: int = NO_BOUND
    right: int = NO_BOUND

    def keeps(self, i: int, j: int) -> bool:
        return i - self.left <= j <= i + self.right


CAUSAL = Band(NO_BOUND, 0)
DENSE = Band()


def window(keys: int, right: int = 0) -> Band:
    """A sliding window of `keys` keys up to the query's own (masks.MaskSpec's window), and `right` keys after it."""
    return Band(keys - 1, right)


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def tile_blocks(m0: int, rows: int, block_n: int, n_kv: int, band: Band, lo: int = 0,
                hi: int | None = None) -> tuple[int, int, int, int]:
    """(a, b, c, d): query rows m0 .. m0+rows-1 visit key blocks a .. d-1 of block_n keys (n_kv keys in all),
    b .. c-1 of them full (unmasked); [lo, hi) the batch's kept keys (hi None: n_kv). `rows`: the rows that exist
    (a head's last tile is cut at its length: the rows past it are computed, never stored, and their keys are not
    fetched)."""
    hi = n_kv if hi is None else hi
    nk = cdiv(n_kv, block_n)
    first = max(lo, m0 - band.left)                      # the first row's first key
    end = min(hi, m0 + rows + band.right)                # one past the last row's last key
    a = min(first // block_n, nk - 1)
    d = min(max(cdiv(end, block_n), a + 1), nk)          # at least one block (see the module's note)
    full_from = cdiv(max(lo, m0 + rows - 1 - band.left), block_n)   # the last row's first key
    full_to = min(hi, m0 + band.right + 1) // block_n    # one past the first row's last key, whole blocks
    b = min(max(full_from, a), d)
    c = min(max(full_to, b), d)
    return a, b, c, d


def schedule(n_q: int, tile_m: int, block_n: int, n_kv: int, band: Band, lo: int = 0,
             hi: int | None = None) -> list[tuple[list[int], list[int]]]:
    """Per query tile: (its full blocks, its partial blocks)."""
    out = []
    for m0 in range(0, n_q, tile_m):
        a, b, c, d = tile_blocks(m0, min(tile_m, n_q - m0), block_n, n_kv, band, lo, hi)
        out.append((list(range(b, c)), list(range(a, b)) + list(range(c, d))))
    return out


def key_ranges(key_lengths: tuple[int, ...], left: bool, B: int, n_kv: int) -> list[tuple[int, int]]:
    """Per batch, the kept keys [lo, hi) of a padding mask (masks.MaskSpec's key_lengths, one entry: every batch):
    the first n keys, or with `left` the last n."""
    lengths = key_lengths * B if len(key_lengths) == 1 else key_lengths
    return [(n_kv - min(n, n_kv), n_kv) if left else (0, min(n, n_kv)) for n in lengths]


# masks.MaskSpec kinds the own Triton and Gluon kernels take, as a band and key ranges
KINDS = ("window", "padding", "causal_padding")


def kernel_args(kind: str, window_keys: int, key_lengths: tuple[int, ...], left: bool, B: int, n_kv: int) -> dict:
    """The kernels' keyword arguments (causal, band, key_ranges) for a recognised mask (masks.MaskSpec's kind,
    window, key_lengths, left); ValueError for a kind they do not take."""
    if kind == "none":
        return {}
    if kind == "causal":
        return {"causal": True}
    if kind == "window":
        return {"band": window(window_keys)}
    if kind in ("padding", "causal_padding"):
        return {"causal": kind == "causal_padding", "key_ranges": key_ranges(key_lengths, left, B, n_kv)}
    raise ValueError(f"the own kernels take no {kind} mask (they take: causal, {', '.join(KINDS)})")
