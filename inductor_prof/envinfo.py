"""Versions and GPU facts for the manifest, and the checks that a GPU is there."""
from __future__ import annotations

import importlib.metadata as md
import importlib.util
import platform
import sys
from dataclasses import asdict

from . import __version__, procs
from .childenv import child_env


def package_version(pkg: str) -> str | None:
    try:
        return md.version(pkg)
    except md.PackageNotFoundError:
        return None


GPU_EXTRA = "gpu"                     # pyproject's extra with torch, triton and what profiling needs
GPU_PACKAGES = ("torch", "triton")    # the modules `profile`, `ncu` and `attention` need; the light install has neither


def importable(module: str) -> bool:
    """Is `module` installed here (found without importing it)? `pip install inductor-prof` has no torch."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):   # a finder that refuses it; a module half-set-up in sys.modules
        return False


def require_gpu_extra(command: str) -> None:
    """One error line (exit 2) naming `command` and the extra to install, unless torch and triton are installed:
    what the light install lacks. Checked before anything imports them."""
    from .errors import UserError

    missing = [m for m in GPU_PACKAGES if not importable(m)]
    if missing:
        lacking = "" if len(missing) == len(GPU_PACKAGES) else f" ({', '.join(missing)} is not installed)"
        raise UserError(f"{command} needs {' and '.join(GPU_PACKAGES)}{lacking}: "
                        f"pip install 'inductor-prof[{GPU_EXTRA}]'")


def driver_version() -> str | None:
    try:
        done = procs.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], child_env(), 20)
    except OSError:   # no nvidia-smi
        return None
    lines = done.stdout.strip().splitlines() if done.ok else []
    return lines[0] if lines else None


def collect() -> dict:
    import torch

    info = {
        "python": sys.version.split()[0], "platform": platform.platform(),
        "inductor_prof": __version__, "torch": torch.__version__, "triton": package_version("triton"),
        "diffusers": package_version("diffusers"), "cuda": torch.version.cuda, "cudnn": torch.backends.cudnn.version(),
        "driver": driver_version(),
    }
    if torch.cuda.is_available():
        p = torch.cuda.get_device_properties(0)
        info["gpu"] = {"name": p.name, "sm": f"{p.major}.{p.minor}", "sms": p.multi_processor_count,
                       "memory_gib": round(p.total_memory / 2**30, 1),
                       "l2_mib": round(getattr(p, "L2_cache_size", 0) / 2**20, 1)}
        uuid = getattr(p, "uuid", None)   # which GPU: a measurement reused across runs is this GPU's (measure_store)
        if uuid is not None:
            info["gpu"]["uuid"] = str(uuid)
        facts = device_facts()
        if facts is not None:
            info["gpu"]["facts"] = asdict(facts)
    return info


def device_facts(device: int = 0):
    """The GPU's own facts for its peak rates (peaks.DeviceFacts), as Proton records them; None without CUDA."""
    import torch

    if not torch.cuda.is_available():
        return None
    from triton.runtime import driver

    from .peaks import DeviceFacts

    props = driver.active.utils.get_device_properties(device)
    major, minor = torch.cuda.get_device_capability(device)
    return DeviceFacts(major * 10 + minor, int(props["multiprocessor_count"]), float(props["sm_clock_rate"]),
                       float(props["mem_clock_rate"]), int(props["mem_bus_width"]))


def require_cuda(command: str) -> None:
    """A one-line error naming `command` unless a CUDA GPU is visible."""
    from .errors import UserError

    require_gpu_extra(f"`inductor-prof {command}`")
    import torch

    if not torch.cuda.is_available():
        raise UserError(f"{command} needs a CUDA GPU and none is visible; `inductor-prof report RUN` runs "
                        "anywhere")
