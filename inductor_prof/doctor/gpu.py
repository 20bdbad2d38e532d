"""The GPU checks of `doctor`, each in a child process with a timeout: a broken driver can hang
`torch.cuda.is_available()`, and a crash in Triton or cuDNN must not take `doctor` with it.

`run_probe` runs one probe in a worker (`python -m inductor_prof.worker SPEC`, a DoctorProbeSpec; `work`),
whose result event is what it found (or {"error": ...}), or says how the worker ended.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from .. import procs
from ..childenv import child_env
from ..errors import one_line
from ..inductor.cache import cache_env
from ..specs import DoctorProbeSpec

PROBE_TIMEOUT_S = 180.0    # the slowest probe, Inductor's first compile, takes seconds; a hang ends here
SDPA_SHAPE = (1, 2, 256, 64)   # B, H, S, D: small, and a head size every cuDNN attention release supports


def probe_cuda(work: Path) -> dict:
    import warnings

    import torch

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        available = torch.cuda.is_available()   # a driver older than torch's CUDA says why in a warning
    out: dict[str, Any] = {"torch": torch.__version__, "torch_cuda": torch.version.cuda, "available": available,
           "warnings": [str(w.message).strip().splitlines()[0] for w in caught if str(w.message).strip()]}
    if available:
        p = torch.cuda.get_device_properties(0)
        x = torch.arange(4, dtype=torch.float32, device="cuda")
        out.update(device=p.name, capability=f"{p.major}.{p.minor}", count=torch.cuda.device_count(),
                   memory_gib=round(p.total_memory / 2**30, 1), kernel_ran=float((x + 1).sum()) == 10.0)
    return out


def probe_proton(work: Path) -> dict:
    import torch

    from ..drivers import proton
    from . import probe_kernel

    args = probe_kernel.get_args()
    probe_kernel.call(args)          # compiled outside the session
    torch.cuda.synchronize()
    path = work / "probe.hatchet"
    with proton.session(path, hook="triton"):
        probe_kernel.call(args)
        torch.cuda.synchronize()
    rows = proton.parse(path)
    rows = rows[rows["name"] == probe_kernel.KERNEL]
    return {"kernel": probe_kernel.KERNEL, "calls": int(rows["calls"].sum()), "time_ns": float(rows["time_ns"].sum())}


def probe_inductor(work: Path) -> dict:
    import torch
    from torch._inductor.utils import run_and_get_code

    def f(x):
        return torch.nn.functional.gelu(x * 2.0 + 1.0).sum(dim=-1)

    x = torch.randn(64, 256, device="cuda")
    t0 = time.perf_counter()
    out, sources = run_and_get_code(torch.compile(f), x)
    seconds = time.perf_counter() - t0
    return {"triton_kernels": sum(src.count("@triton.jit") for src in sources), "seconds": round(seconds, 1),
            "matches_eager": bool(torch.allclose(out, f(x), rtol=1e-4, atol=1e-4))}


def probe_sdpa(work: Path) -> dict:
    import torch

    from ..attention.benchmark.library import sdpa

    q, k, v = (torch.randn(*SDPA_SHAPE, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    out, _ = sdpa("sdpa_cudnn")(q, k, v, None)
    ref, _ = sdpa("sdpa_math")(q.float(), k.float(), v.float(), None)
    return {"shape": list(SDPA_SHAPE), "cudnn": torch.backends.cudnn.version(),
            "max_abs_error": float((out.float() - ref).abs().max())}


PROBES = {"cuda": probe_cuda, "proton": probe_proton, "inductor": probe_inductor, "sdpa": probe_sdpa}


def found(done: procs.WorkerOutcome) -> dict:
    """What a probe's worker found: its result, or {"error": ...} when it hung, crashed or said nothing."""
    if done.finished.timed_out:
        return {"error": f"no answer after {done.timeout:.0f} s (hung; ended)"}
    if done.ok and isinstance(done.result, dict):
        return done.result
    return {"error": done.why()}


def run_probe(name: str, work: Path, timeout: float = PROBE_TIMEOUT_S) -> dict:
    """One probe in its own process, with Inductor and Triton caches of its own under `work`; its output is
    kept for the error; it and its children are ended on a timeout or Ctrl-C."""
    env = child_env({**cache_env(work / "inductor_cache"), "TORCHINDUCTOR_COMPILE_THREADS": "1"})
    return found(procs.run_worker(DoctorProbeSpec(probe=name, work=str(work)), None, timeout, env=env))


def work(spec: DoctorProbeSpec, events) -> dict:
    """The worker's side (worker.py, kind `doctor_probe`): the finding, or the probe's error as the finding (a
    crash or hang is seen by the parent)."""
    try:
        return PROBES[spec.probe](Path(spec.work))
    except Exception as e:  # noqa: BLE001  the finding is the error
        return {"error": one_line(e)}
