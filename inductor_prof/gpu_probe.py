"""Is there a GPU to profile on, asked without torch: `profile` and `ncu` refuse at once on a machine without
one (importing torch and diffusers to learn it took 12-34 s on a CPU machine). Only a certain absence refuses;
anything less certain is left to torch's own check later."""
from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path
from typing import Mapping

from .errors import UserError

DRIVER_LIBRARY = "libcuda.so.1"   # NVIDIA's driver library, what torch's CUDA loads first


def hidden_by_env(environ: Mapping[str, str]) -> str | None:
    """CUDA_VISIBLE_DEVICES set to show no device: empty, or a first entry CUDA cannot read (-1)."""
    visible = environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return None
    first = visible.split(",")[0].strip()
    if not first or first.startswith("-"):
        return f"CUDA_VISIBLE_DEVICES={visible!r} hides every GPU"
    return None


def no_gpu_reason(environ: Mapping[str, str] = os.environ, dev: Path = Path("/dev"),
                  platform: str = sys.platform) -> str | None:
    """Why no CUDA GPU can be used here, or None when one may be."""
    hidden = hidden_by_env(environ)
    if hidden or not platform.startswith("linux"):
        return hidden
    # a GPU is a device node (containers get theirs mounted); WSL's GPUs are /dev/dxg
    if not any(dev.glob("nvidia[0-9]*")) and not (dev / "dxg").exists():
        return f"no NVIDIA GPU device ({dev / 'nvidia0'} is missing)"
    try:
        ctypes.CDLL(DRIVER_LIBRARY)   # loading it starts nothing on the GPU
    except OSError:
        return f"no NVIDIA driver ({DRIVER_LIBRARY} cannot be loaded)"
    return None


def require_gpu_device(command: str) -> None:
    """One line (exit 2) naming `command` when no CUDA GPU can be used here; nothing heavy is imported."""
    reason = no_gpu_reason()
    if reason:
        raise UserError(f"{command} needs a CUDA GPU and none is usable here: {reason}; `inductor-prof report "
                        "RUN` runs anywhere")
