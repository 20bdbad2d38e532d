"""Each annotation formula against hand-computed flops and bytes."""
import pytest
import torch

from recorded import data_path
from inductor_prof.inductor.kernel_files import annotate_source
from inductor_prof.inductor.metrics import KernelMetrics, distinct_bytes, kernel_kind, launch_metrics
from inductor_prof.inductor.ops import OpCounts, count_ops


def test_pointwise_bytes_and_flops_by_hand():
    x = torch.empty(4096, 3072, dtype=torch.bfloat16)
    bias = torch.empty(3072, dtype=torch.bfloat16)
    out = torch.empty(4096, 3072, dtype=torch.bfloat16)
    args = {"in_ptr0": x, "in_ptr1": bias, "out_ptr0": out, "xnumel": 4096 * 3072}
    m = launch_metrics("pointwise", args, OpCounts(per_element=3))
    assert m["bytes"] == (4096 * 3072 * 2) * 2 + 3072 * 2      # read x, read bias once, write out
    assert m["flops32"] == 3 * 4096 * 3072                      # pointwise: no padding, no lanes


def test_in_out_pointer_counts_twice_and_aliases_once():
    buf = torch.empty(1000, dtype=torch.float32)
    assert distinct_bytes({"in_out_ptr0": buf, "in_ptr0": buf, "xnumel": 1000}) == 1000 * 4 * 2


def test_whole_buffer_clamped_to_iterated_elements():
    big = torch.empty(10_000, dtype=torch.float16)   # Inductor passes the base buffer of a slice
    out = torch.empty(100, dtype=torch.float16)
    assert distinct_bytes({"in_ptr0": big, "out_ptr0": out}, clamp_numel=100) == 100 * 2 + 100 * 2


def test_reduction_rows_and_elements():
    x = torch.empty(64, 4096, dtype=torch.bfloat16)
    out = torch.empty(64, dtype=torch.float32)
    m = launch_metrics("reduction", {"in_ptr0": x, "out_ptr0": out, "xnumel": 64, "r0_numel": 4096},
                       OpCounts(per_element=2, per_lane=1, per_row=2))
    # no R0_BLOCK argument: the row's block is 4096 (already a power of 2), so no padding and 4096 lanes:
    # 2 x 64 x 4096 per element + 1 x 4096 lanes x 64 rows + 2 x 64 per row = 524,288 + 262,144 + 128
    assert m["flops32"] == 2 * 64 * 4096 + 1 * 4096 * 64 + 2 * 64 == 786_560
    assert m["bytes"] == 64 * 4096 * 2 + 64 * 4


def test_mm_template_is_2mnk_in_operand_width():
    a = torch.empty(512, 256, dtype=torch.bfloat16)
    b = torch.empty(256, 384, dtype=torch.bfloat16)
    c = torch.empty(512, 384, dtype=torch.bfloat16)
    m = launch_metrics("template_mm", {"arg_A": a, "arg_B": b, "out_ptr0": c})
    assert m == {"flops16": 2 * 512 * 384 * 256, "bytes": (512 * 256 + 256 * 384 + 512 * 384) * 2}


def test_batched_mm_and_fp32_key():
    a = torch.empty(4, 32, 16, dtype=torch.float32)
    b = torch.empty(4, 16, 8, dtype=torch.float32)
    m = launch_metrics("template_mm", {"arg_A": a, "arg_B": b})
    assert m["flops32"] == 2 * 4 * 32 * 8 * 16


def test_flex_attention_flops():
    q = torch.empty(1, 24, 4608, 128, dtype=torch.bfloat16)
    k = torch.empty(1, 24, 4608, 128, dtype=torch.bfloat16)
    m = launch_metrics("flex_attention", {"arg_Q": q, "arg_K": k, "arg_V": k})
    assert m["flops16"] == 4 * 24 * 4608 * 4608 * 128


def test_ops_counted_in_real_gelu_kernel():
    # tanh-approximation GELU as Inductor wrote it for FLUX, read off the body: tmp3 = x*0.5, tmp4 = x*x,
    # tmp5 = tmp4*x, tmp7 = tmp5*0.044715, tmp8 = x+tmp7, tmp10 = tmp8*0.79788, tmp13 = tanh+1, tmp14 = tmp3*tmp13
    # -> 8 arithmetic ops, plus libdevice.tanh, which ncu measured at 9.26 FP instructions per element
    # (examples/calibration/math-flops-h100.json) -> 17.26 per element; no reduction: nothing per lane or row
    src = data_path("flux_small", "kernels", "triton_poi_fused_gelu_view_12.py").read_text()
    ops = count_ops(src)
    assert ops.per_element == pytest.approx(8 + 9.26, rel=1e-12)
    assert (ops.per_lane, ops.per_row) == (0, 0)


def test_ops_per_row_after_reduction():
    src = '''
def k(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):
    tmp0 = tl.load(in_ptr0 + (r1 + 4096*x0), rmask).to(tl.float32)
    tmp1 = tmp0 * tmp0
    tmp5 = tl.sum(tmp1, 1)[:, None]
    tmp6 = 4096.0
    tmp7 = tmp5 / tmp6
    tmp8 = libdevice.rsqrt(tmp7)
    tl.store(out_ptr0 + x0, tmp8, xmask)
'''
    # per element: tmp1 = x*x (1). per lane: tl.sum combines with one add per lane of the row (1).
    # per row: tmp7 = sum/4096 (1: 4096.0 is a constant, the sum a reduced row); rsqrt is a MUFU op ncu does
    # not count as FP (0) -> (1, 1, 1). (Before: the sum counted 1 per element and rsqrt 1 per row.)
    assert count_ops(src) == OpCounts(per_element=1, per_lane=1, per_row=1)


def test_kind_from_heuristic_and_name():
    assert kernel_kind("triton_red_fused_x_0", "persistent_reduction") == "persistent_reduction"
    assert kernel_kind("triton_poi_fused_x_0") == "pointwise"
    assert kernel_kind("triton_tem_fused_mm_0") == "template_mm"
    assert kernel_kind("triton_tem_fused_flex_attention_0") == "flex_attention"
    assert kernel_kind("my_kernel") == "other"


def test_annotated_source_carries_metrics():
    src = data_path("flux_small", "kernels", "triton_poi_fused_gelu_view_12.py").read_text()
    # the gelu kernel's counts (17.26 per element: see above); no per-lane ops, so no ops_per_lane in the repr
    out = annotate_source(src, KernelMetrics("pointwise", 17.26, 0))
    assert "@triton.jit(launch_metadata=KernelMetrics(kind='pointwise', ops_per_element=17.26, ops_per_row=0))" \
        in out
    assert out.startswith("from inductor_prof.inductor.metrics import KernelMetrics\n")
    assert eval(repr(KernelMetrics("reduction", 2, 1)), {"KernelMetrics": KernelMetrics}).ops_per_row == 1
