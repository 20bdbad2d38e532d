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

Key intervals (documents): query i keeps keys lo_i <= j < hi_i, one run of keys per row, given per row. That is a
document mask (packed sequences: query i keeps the keys of its own document, lo_i its first key, hi_i one past its
last, or i + 1 causal), a window inside documents, padding, or any mix, in one form. The host works out each
entry of `rows` query rows (`interval_blocks`: a..d-1 visited, b..c-1 full) once per mask and tile size; the
kernels read that table and mask the partial blocks per row (rows keep j when lo_i <= j < hi_i, the band's rule
with per-row bounds). FlexAttention's BlockMask holds the same at its own 128 x 128 blocks; the table is at the
kernel's own tile and key block.

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


# masks.MaskSpec kinds the own Triton and Gluon kernels take, as a band and key ranges; an arbitrary mask they take
# when each row keeps one run of keys (key intervals: documents), checked per mask (key_intervals.py)
KINDS = ("window", "padding", "causal_padding", "window_padding")
INTERVAL_KINDS = ("arbitrary",)


def kernel_args(kind: str, window_keys: int, key_lengths: tuple[int, ...], left: bool, B: int, n_kv: int,
                right: int = 0) -> dict:
    """The kernels' keyword arguments (causal, band, key_ranges) for a recognised mask (masks.MaskSpec's kind,
    window, key_lengths, left, right): a window (two-sided: `right` keys ahead) as a band, padding as key ranges,
    both for window_padding; ValueError for a kind they do not take."""
    if kind == "none":
        return {}
    if kind == "causal":
        return {"causal": True}
    if kind in ("window", "window_padding"):
        band = {"band": window(window_keys, right)}
        return band if kind == "window" else {**band, "key_ranges": key_ranges(key_lengths, left, B, n_kv)}
    if kind in ("padding", "causal_padding"):
        return {"causal": kind == "causal_padding", "key_ranges": key_ranges(key_lengths, left, B, n_kv)}
    raise ValueError(f"the own kernels take no {kind} mask (they take: causal, {', '.join(KINDS)})")


# ---- key intervals: one run of keys per query row (documents)

def interval_blocks(lo: list[int], hi: list[int], block_n: int, n_kv: int) -> tuple[int, int, int, int]:
    """(a, b, c, d) of query rows keeping keys [lo[i], hi[i]) (the rows that exist): blocks a..d-1 hold a key some
    row keeps, b..c-1 are kept whole by every row. Rows keeping no key (hi <= lo) are left out of a..d and leave
    no full block. No row keeping a key: (nk, nk, nk, 0), empty (merge_tile gives the tile one block)."""
    nk = cdiv(n_kv, block_n)
    live = [(x, y) for x, y in zip(lo, hi) if y > x]
    if not live:
        return nk, nk, nk, 0
    a = min(x for x, _ in live) // block_n
    d = cdiv(max(y for _, y in live), block_n)
    if len(live) < len(lo):             # a row keeping nothing keeps no block whole
        return a, a, a, d
    b = min(max(cdiv(max(lo), block_n), a), d)
    c = min(max(min(hi) // block_n, b), d)
    return a, b, c, d


def merge_tile(entries: list[tuple[int, int, int, int]], nk: int) -> tuple[int, int]:
    """(a, d): the key blocks a tile of several entries (the Gluon kernel's 64-row consumers) visits, the union of
    theirs; at least one (see the module's note on tiles that keep no key)."""
    a = min(min(e[0] for e in entries), nk - 1)     # an entry keeping a key has a <= nk - 1
    d = max(max(e[3] for e in entries), a + 1)     # and d > its a >= the tile's a
    return a, d


def interval_schedule(lo: list[int], hi: list[int], tile_m: int, block_n: int,
                      n_kv: int) -> list[tuple[list[int], list[int]]]:
    """schedule() for key intervals, one entry a tile: per query tile, (its full blocks, its partial blocks)."""
    out = []
    nk = cdiv(n_kv, block_n)
    for m0 in range(0, len(lo), tile_m):
        e = interval_blocks(lo[m0:m0 + tile_m], hi[m0:m0 + tile_m], block_n, n_kv)
        a, d = merge_tile([e], nk)
        b, c = min(max(e[1], a), d), min(max(e[2], a), d)
        c = max(c, b)
        out.append((list(range(b, c)), list(range(a, b)) + list(range(c, d))))
    return out


def document_intervals(lengths: list[int], causal: bool = True, window: int = 0) -> tuple[list[int], list[int]]:
    """(lo, hi) per query row of documents of these lengths packed one after another (queries and keys alike):
    a row keeps its own document's keys, causal: up to itself, window > 0: its last `window` keys up to itself."""
    lo, hi = [], []
    start = 0
    for n in lengths:
        for i in range(start, start + n):
            first = max(start, i - window + 1) if window else start
            lo.append(first)
            hi.append(i + 1 if causal or window else start + n)
        start += n
    return lo, hi
