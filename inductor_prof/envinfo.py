"""Versions and GPU facts for the manifest."""
from __future__ import annotations

import importlib.metadata as md
import platform
import subprocess
import sys


def _version(pkg: str) -> str | None:
    try:
        return md.version(pkg)
    except md.PackageNotFoundError:
        return None


def driver_version() -> str | None:
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20, check=True)
        return out.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return None


def collect() -> dict:
    import torch

    info = {
        "python": sys.version.split()[0], "platform": platform.platform(),
        "inductor_prof": _version("inductor-prof"), "torch": torch.__version__, "triton": _version("triton"),
        "diffusers": _version("diffusers"), "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
        "driver": driver_version(),
    }
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        info["gpu"] = {"name": p.name, "sm": f"{p.major}.{p.minor}", "sms": p.multi_processor_count,
                       "memory_gib": round(p.total_memory / 2**30, 1),
                       "l2_mib": round(getattr(p, "L2_cache_size", 0) / 2**20, 1)}
    return info
