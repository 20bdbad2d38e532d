"""The device facts peaks are computed from, read live (Triton's driver) and as Proton records them in a
hatchet (its own C++ code): the two must agree, and the computed peaks must bound what a GEMM reaches."""
import torch
from triton.testing import do_bench

from inductor_prof.drivers import proton
from inductor_prof.envinfo import device_facts
from inductor_prof.peaks import DeviceFacts, spec_peaks


def test_live_facts_equal_protons(tmp_path):
    path = tmp_path / "p.hatchet"
    with proton.session(path, hook=None):
        torch.ones(1024, device="cuda").sum()
        torch.cuda.synchronize()
    assert device_facts() == DeviceFacts.from_proton(proton.device_info(path))


def test_spec_peak_bounds_a_large_matmul():
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    ms = do_bench(lambda: a @ a, warmup=25, rep=100)
    tflops = 2 * 8192**3 / ms / 1e9
    assert 0.3 * spec_peaks(device_facts())["flops16"] < tflops < spec_peaks(device_facts())["flops16"]
