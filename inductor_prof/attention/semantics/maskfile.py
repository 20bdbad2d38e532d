"""An arbitrary attention mask saved into the run folder so the bench can replay it: its keep bits packed
(numpy.packbits, 1 bit per pair) and compressed (.npz); a structured mask compresses to a few KB."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ... import rundir


def save(keep, path: Path) -> None:
    """keep: a bool tensor (b, h, Sq, Sk)."""
    bits = np.packbits(keep.cpu().numpy().astype(bool).reshape(-1))
    with rundir.atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, shape=np.array(keep.shape, dtype=np.int64), bits=bits)


def load(path: Path | str):
    """The bool tensor `save` wrote. A missing or damaged file is a ValueError naming it (numpy raises
    BadZipFile, EOFError, KeyError... by how it is damaged)."""
    import torch

    try:
        with np.load(path) as z:
            shape = tuple(int(x) for x in z["shape"])
            flat = np.unpackbits(z["bits"], count=int(np.prod(shape))).astype(bool)
        return torch.from_numpy(flat.reshape(shape))
    except Exception as e:
        raise ValueError(f"mask file {path} cannot be read ({type(e).__name__}: {e})") from e
