"""An Inductor mm template (max-autotune) carries flops = 2*M*N*K and its operand bytes in the hatchet."""
import torch

from inductor_prof.inductor.cache import isolated_cache
from inductor_prof.drivers import proton as proton_driver
from inductor_prof.inductor.instrument import KernelRegistry, instrumented_inductor


def test_mm_template_flops_and_bytes(tmp_path):
    m, n, k = 512, 384, 256
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    registry = KernelRegistry()
    import torch._inductor.config as cfg

    with isolated_cache(tmp_path / "cache"), instrumented_inductor(registry), \
            cfg.patch({"max_autotune_gemm_backends": "TRITON", "max_autotune": True}):
        torch._dynamo.reset()
        fn = torch.compile(lambda x, y: x @ y, mode="max-autotune-no-cudagraphs")
        fn(a, b)
        torch.cuda.synchronize()
    path = tmp_path / "mm.hatchet"
    with proton_driver.session(path, hook="triton"):
        fn(a, b)
        torch.cuda.synchronize()
    rows = proton_driver.parse(path)
    mm = rows[rows["name"].str.startswith("triton_tem_")]
    assert len(mm) == 1, rows["name"].tolist()
    row = mm.iloc[0]
    assert row["flops16"] == 2 * m * n * k
    assert row["bytes"] == (m * k + k * n + m * n) * 2
