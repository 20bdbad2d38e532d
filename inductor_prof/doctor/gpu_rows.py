"""What the GPU probes found (gpu.py), as `doctor` rows: pure functions of the findings and the driver version."""
from __future__ import annotations

from ..envinfo import GPU_EXTRA
from .check import FAIL, OK, SKIP, WARN, Check
from ..units import NS_PER_US

NO_GPU = "needs a CUDA GPU"
ON_CPU = "profile needs an NVIDIA GPU with its driver; on this machine `inductor-prof report RUN` works"
NO_TORCH = {"not_installed": "torch"}   # the finding when torch is not installed: no probe ran


def has_gpu(cuda: dict) -> bool:
    return bool(cuda.get("available")) and bool(cuda.get("kernel_ran"))


def _said(cuda: dict) -> str:
    """What torch warned while looking for the GPU (a driver too old for its CUDA, say)."""
    return f" (torch: {'; '.join(cuda['warnings'])})" if cuda.get("warnings") else ""


def gpu_and_driver(cuda: dict, driver: str | None) -> Check:
    name = "GPU and driver"
    driver_text = f"driver {driver}" if driver else "no NVIDIA driver (nvidia-smi not found)"
    if "not_installed" in cuda:
        return Check(name, FAIL, f"not looked for: {cuda['not_installed']} is not installed; {driver_text}",
                     ON_CPU if driver is None else f"pip install 'inductor-prof[{GPU_EXTRA}]'")
    if "error" in cuda:
        return Check(name, FAIL, f"looking for the GPU failed: {cuda['error']}; {driver_text}",
                     "run nvidia-smi: the driver must list the GPU")
    if cuda.get("available"):
        return Check(name, OK, f"{cuda['device']} (sm {cuda['capability']}, {cuda['memory_gib']:g} GiB; "
                     f"{cuda['count']} visible), {driver_text}")
    if driver is None:
        return Check(name, FAIL, f"no CUDA GPU visible; {driver_text}{_said(cuda)}", ON_CPU)
    return Check(name, FAIL, f"torch sees no CUDA GPU although {driver_text} is installed{_said(cuda)}",
                 "check CUDA_VISIBLE_DEVICES and that torch is a CUDA build (see CUDA runtime)")


def cuda_runtime(cuda: dict, driver: str | None) -> Check:
    name = "CUDA runtime"
    if "not_installed" in cuda:
        return Check(name, SKIP, f"not checked: {cuda['not_installed']} is not installed")
    if "error" in cuda:
        return Check(name, SKIP, "not checked: looking for the GPU failed")
    torch_text = f"torch {cuda['torch']}"
    if cuda.get("torch_cuda") is None:
        if driver is None:
            return Check(name, SKIP, f"{torch_text} is a CPU-only build (right for a machine without a GPU)")
        return Check(name, FAIL, f"{torch_text} is a CPU-only build, on a machine with an NVIDIA driver",
                     "install a CUDA build of torch (PyPI's torch for Linux is one)")
    built = f"CUDA {cuda['torch_cuda']} ({torch_text})"
    if has_gpu(cuda):
        return Check(name, OK, f"{built}; a kernel ran")
    if cuda.get("available"):
        return Check(name, FAIL, f"{built}; a kernel on the GPU gave a wrong result", "run nvidia-smi; check the GPU")
    if driver is None:
        return Check(name, SKIP, f"{built}; no GPU to run it on")
    return Check(name, FAIL, f"{built} cannot use driver {driver}{_said(cuda)}",
                 f"install a driver that supports CUDA {cuda['torch_cuda']}, or a torch built for an older CUDA")


def _not_judged(name: str, found: dict | None, what: str, remedy: str, status: str = FAIL) -> Check | None:
    """The row of a probe that did not run (no GPU) or raised; None when there are findings to judge."""
    if found is None:
        return Check(name, SKIP, NO_GPU)
    if "error" in found:
        return Check(name, status, f"{what}: {found['error']}", remedy)
    return None


PROTON_REMEDY = "profile's timed steps run under Proton: check that triton imports and matches torch"
INDUCTOR_REMEDY = "torch.compile must work on this GPU: check that torch and triton match"


def proton(found: dict | None) -> Check:
    name = "Proton"
    row = _not_judged(name, found, "a session on a tiny Triton kernel failed", PROTON_REMEDY)
    if row:
        return row
    assert found is not None   # _not_judged gives None its row
    if not found["calls"]:
        return Check(name, FAIL, f"a session on a tiny Triton kernel did not record {found['kernel']}", PROTON_REMEDY)
    return Check(name, OK, f"a session recorded a tiny Triton kernel ({found['calls']} launch, "
                 f"{found['time_ns'] / NS_PER_US:.1f} µs)")


def inductor(found: dict | None) -> Check:
    name = "Inductor -> Triton"
    row = _not_judged(name, found, "compiling a tiny function failed", INDUCTOR_REMEDY)
    if row:
        return row
    assert found is not None   # _not_judged gives None its row
    if not found["triton_kernels"] or not found["matches_eager"]:
        what = "wrote no Triton kernel" if not found["triton_kernels"] else "gave a result unlike eager's"
        return Check(name, FAIL, f"compiling a tiny function {what}", INDUCTOR_REMEDY)
    return Check(name, OK, f"compiled a tiny function into {found['triton_kernels']} Triton kernel(s) in "
                 f"{found['seconds']:g} s; result matches eager")


def cudnn_sdpa(found: dict | None) -> Check:
    name = "cuDNN SDPA"
    row = _not_judged(name, found, "cuDNN attention did not run",
                      "the attention table lacks sdpa_cudnn and the model uses another SDPA backend", WARN)
    if row:
        return row
    assert found is not None   # _not_judged gives None its row
    shape = "x".join(map(str, found["shape"]))
    return Check(name, OK, f"cuDNN {found['cudnn']} attention ran at {shape} bf16 "
                 f"(max error {found['max_abs_error']:.1e} against float32)")
