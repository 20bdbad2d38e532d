"""The own kernels' mask arguments as a launch passes them (causal, a band, per-batch key ranges, per-row key
intervals): which path runs and the tensors it reads. Shared by triton_fa and gluon_fa."""
from __future__ import annotations

import functools


def band_args(q, causal: bool, band, key_ranges, key_intervals=None):
    """(causal, band, key ranges as an int32 (B, 2) tensor or None, key intervals or None) as a kernel runs them: a
    band, key ranges or key intervals run the band path (causal then folded into the band: right bound 0); plain
    causal keeps its own path. Key intervals (key_intervals.KeyIntervals) are the whole mask: alone."""
    import torch

    from .mask_schedule import CAUSAL, DENSE, Band

    if key_intervals is not None:
        if causal or band is not None or key_ranges is not None:
            raise ValueError("key intervals are the whole mask: fold causal, a band or key ranges into them")
        if key_intervals.batch != q.shape[0] or key_intervals.rows.shape[1] != q.shape[2]:
            raise ValueError(f"key intervals of {tuple(key_intervals.rows.shape[:2])} (batch, rows) for a batch of "
                             f"{q.shape[0]} and {q.shape[2]} queries")
        return False, DENSE, None, key_intervals
    if band is None and key_ranges is None:
        return causal, None, None, None
    band = band or (CAUSAL if causal else DENSE)
    if causal:
        band = Band(band.left, min(band.right, 0))
    ranges = None
    if key_ranges is not None:
        if len(key_ranges) != q.shape[0]:
            raise ValueError(f"{len(key_ranges)} key ranges for a batch of {q.shape[0]}")
        ranges = _ranges_tensor(tuple((int(lo), int(hi)) for lo, hi in key_ranges), str(q.device))
    return False, band, ranges, None


# per-batch key ranges as the kernels read them, by (ranges, device): copying a list to the GPU at each launch
# synchronises the host with it, which at 1k tokens tripled a launch's time (0.21 ms against 0.06)
@functools.lru_cache(maxsize=8)
def _ranges_tensor(key_ranges: tuple, device: str):
    import torch

    return torch.tensor(key_ranges, dtype=torch.int32, device=device).reshape(-1, 2)
