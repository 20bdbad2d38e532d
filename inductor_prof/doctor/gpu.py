"""The GPU checks of `doctor`, each in a child process with a timeout: a broken driver can hang
`torch.cuda.is_available()`, and a crash in Triton or cuDNN must not take `doctor` with it.

`python -m inductor_prof.doctor.gpu PROBE RESULT.json` runs one probe and writes what it found as JSON (or
{"error": ...}); `run_probe` runs that child and reads the file, or says how the child ended.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from .. import procs
from ..childenv import child_env
from ..errors import one_line
from ..inductor.cache import cache_env

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


def run_child(cmd: list[str], result: Path, timeout: float, env: dict[str, str]) -> dict:
    """Runs `cmd`, which writes its findings to `result` as JSON; {"error": ...} when it hangs, crashes or
    writes nothing. Its output is kept for the error; it and its children are ended on a timeout or Ctrl-C."""
    done = procs.run(cmd, env, timeout, merge=True)
    if done.timed_out:
        return {"error": f"no answer after {timeout:.0f} s (hung; ended)"}
    if result.is_file():
        return json.loads(result.read_text())
    return {"error": done.why(timeout)}


def run_probe(name: str, work: Path, timeout: float = PROBE_TIMEOUT_S) -> dict:
    """One probe in its own process, with Inductor and Triton caches of its own under `work`."""
    result = work / f"{name}.json"
    env = child_env({**cache_env(work / "inductor_cache"), "TORCHINDUCTOR_COMPILE_THREADS": "1"})
    return run_child([sys.executable, "-m", "inductor_prof.doctor.gpu", name, str(result)], result, timeout, env)


def main(argv: list[str]) -> int:
    from ..rundir import write_json

    name, result = argv[1], Path(argv[2])
    try:
        found = PROBES[name](result.parent)
    except Exception as e:  # the finding is the error; a crash or hang is seen by the parent
        found = {"error": one_line(e)}
    write_json(result, found)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
