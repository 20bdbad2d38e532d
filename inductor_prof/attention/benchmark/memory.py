"""Whether a backend that holds the whole score matrix can run a shape in the memory the device has free: at
16,384 tokens SDPA's math backend holds ~10 bytes a score (B x Hq x Sq x Sk of them: 26 GB at 24 heads), and a
CPU machine that runs out of memory kills the whole benchmark instead of one row saying why."""
from __future__ import annotations

from pathlib import Path

MEMINFO = Path("/proc/meminfo")


def free_bytes(device: str) -> int | None:
    """Bytes free for new tensors on `device` ("cuda": the current GPU's free memory; else the host's
    MemAvailable), or None where it cannot be told (then nothing is refused)."""
    if device.startswith("cuda"):
        import torch

        return int(torch.cuda.mem_get_info()[0])
    try:
        for line in MEMINFO.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024   # kB
    except (OSError, ValueError, IndexError):
        return None
    return None


def too_big(bytes_per_score: float, n_scores: int, free: int | None) -> str:
    """Why a backend holding bytes_per_score for each of n_scores cannot run in `free` bytes, or ""."""
    need = bytes_per_score * n_scores
    if not need or free is None or need <= free:
        return ""
    return f"holds the whole score matrix: needs ~{need / 2**30:.1f} GiB, {free / 2**30:.1f} GiB free"
