"""Inductor's Triton matmul template timed at a recorded call, in its own process and Inductor cache, as the
ceilings stage does it (pipeline/gemm_templates.py)."""
import json

import pytest
import torch

from inductor_prof.pipeline import gemm_templates

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")

# an addmm as library_ops.csv records it: bias, mat1, mat2 (bf16), two scalars
DIMS = [[1024], [2048, 512], [512, 1024], [], []]
SPEC = {"op": "aten::addmm", "dims": DIMS, "dims_key": json.dumps(DIMS), "flops": 2 * 2048 * 512 * 1024,
        "strides": [[1], [512, 1], [1024, 1], [], []],
        "types": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"]}


def test_a_template_is_built_and_timed_in_its_own_process(tmp_path):
    cache, log = tmp_path / "cache", tmp_path / "templates.log"
    [got] = gemm_templates.in_subprocess([SPEC], cache, log)
    assert got["op"] == "aten::addmm" and got["dims"] == json.dumps(DIMS), got
    assert got["template_kernel"].startswith("triton_tem_"), got
    # 2.1 GFLOP: between 1 us (2,100 TFLOP/s, beyond any H100 rate) and 1 ms (2 TFLOP/s)
    assert 1e-3 < got["template_ms"] < 1.0, got
    assert any(cache.rglob("*.py")), "the template was not built in the given cache"
    assert log.read_text().count(gemm_templates.RESULT) == 1
