"""Key intervals (mask_schedule's note): a mask whose every query row keeps one run of keys, lo_i <= j < hi_i, as
the own Triton and Gluon kernels take it: the per-row bounds (B, Sq, 2) int32 and, per tile size, the table of
key blocks each entry of rows visits (mask_schedule.interval_blocks, computed here with torch ops, once per mask
and tile size). Documents packed in one sequence (causal or not), windows inside documents and padding are such
masks; a mask with a row keeping more than one run of keys (or differing between heads) is refused with the row named.

A FlexAttention BlockMask is taken through its mask_mod, evaluated at every (query, key) pair once."""
from __future__ import annotations

from .mask_schedule import cdiv

_BIG = 1 << 40     # above any key index, in int64


class KeyIntervals:
    """Per batch and query row the kept keys [lo, hi) (rows: (B, Sq, 2) int32, contiguous, on the kernels'
    device); tables per (rows per entry, block_n), made once."""

    def __init__(self, rows):
        import torch

        self.rows = rows.to(torch.int32).contiguous()
        self._tables: dict = {}

    @property
    def batch(self) -> int:
        return self.rows.shape[0]

    def pairs(self) -> int:
        """Kept (query, key) pairs summed over the batch (per head)."""
        return int((self.rows[..., 1] - self.rows[..., 0]).clamp(min=0).sum())

    def table(self, rows_per_entry: int, block_n: int, n_kv: int):
        """(B, cdiv(Sq, rows_per_entry), 4) int32: (a, b, c, d) of each entry of rows (interval_blocks)."""
        key = (rows_per_entry, block_n, n_kv)
        if key not in self._tables:
            self._tables[key] = block_table(self.rows, rows_per_entry, block_n, n_kv)
        return self._tables[key]


def block_table(rows, rows_per_entry: int, block_n: int, n_kv: int):
    """mask_schedule.interval_blocks for every entry of `rows_per_entry` rows of rows (B, Sq, 2), as torch ops."""
    import torch
    import torch.nn.functional as F

    B, Sq = rows.shape[:2]
    n_e = cdiv(Sq, rows_per_entry)
    pad = n_e * rows_per_entry - Sq
    lo, hi = rows[..., 0].long(), rows[..., 1].long()
    live = hi > lo
    exists = torch.ones_like(live)

    def entries(x, fill):
        return F.pad(x, (0, pad), value=fill).view(B, n_e, rows_per_entry)
    live_e, exists_e = entries(live, False), entries(exists, False)
    any_live = live_e.any(-1)
    all_live = (live_e | ~exists_e).all(-1)
    a = entries(torch.where(live, lo, _BIG), _BIG).amin(-1) // block_n
    d = -(-entries(torch.where(live, hi, 0), 0).amax(-1) // block_n)
    b = -(-entries(lo, -_BIG).amax(-1) // block_n)
    c = entries(hi, _BIG).amin(-1) // block_n
    b = torch.minimum(torch.maximum(b, a), d)
    c = torch.minimum(torch.maximum(c, b), d)
    b, c = torch.where(all_live, b, a), torch.where(all_live, c, a)
    nk = cdiv(n_kv, block_n)
    empty = torch.tensor([nk, nk, nk, 0], device=rows.device)
    out = torch.stack([a, b, c, d], -1)
    out = torch.where(any_live[..., None], out, empty)
    return out.to(torch.int32).contiguous()


def intervals_of(keep, B: int, Sq: int, Sk: int, chunk: int = 1024) -> KeyIntervals:
    """The key intervals of a bool keep broadcastable to (B, H, Sq, Sk); ValueError naming the first row that keeps
    more than one run of keys, or a mask that differs between heads."""
    import torch

    while keep.dim() < 4:
        keep = keep[None]
    keep = keep.expand(keep.shape[0], keep.shape[1], Sq, Sk)
    if keep.shape[1] > 1 and not bool((keep == keep[:, :1]).all()):
        raise ValueError("the own kernels take no mask that differs between heads")
    rows = keep[:, 0]
    j = torch.arange(Sk, device=keep.device)
    out = torch.empty(rows.shape[0], Sq, 2, dtype=torch.int32, device=keep.device)
    for r0 in range(0, Sq, chunk):           # a row's first kept key and one past its last, checked a chunk at a time
        part = rows[:, r0:r0 + chunk]
        n = part.sum(-1)
        lo = torch.where(n > 0, part.to(torch.uint8).argmax(-1), 0)
        hi = torch.where(n > 0, Sk - part.flip(-1).to(torch.uint8).argmax(-1), 0)
        bad = (part != ((j >= lo[..., None]) & (j < hi[..., None]))).any(-1)
        if bool(bad.any()):
            b, i = (int(x) for x in bad.nonzero()[0])
            raise ValueError(f"the own kernels take no mask whose query row keeps more than one run of keys "
                             f"(batch {b}, row {r0 + i}): they take causal, windows, padding and masks keeping one "
                             f"run of keys a row (documents)")
        out[:, r0:r0 + chunk, 0], out[:, r0:r0 + chunk, 1] = lo, hi
    return KeyIntervals(out.expand(B, Sq, 2) if out.shape[0] == 1 else out)


def keep_of_block_mask(block_mask, B: int, H: int):
    """A FlexAttention BlockMask's keep (b, h, Sq, Sk) bool, its mask_mod evaluated at every pair (b, h: 1 where
    the BlockMask is the same for every batch or head)."""
    from torch.nn.attention.flex_attention import create_mask

    Sq, Sk = block_mask.seq_lengths
    b, h = block_mask.kv_num_blocks.shape[:2]
    return create_mask(block_mask.mask_mod, B if b > 1 else 1, H if h > 1 else 1, Sq, Sk,
                       device=block_mask.kv_num_blocks.device)
