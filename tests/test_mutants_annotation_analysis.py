"""Issue 9, mutation audit: small constructed inputs for the branches of the annotation formulas
(inductor/metrics.py, inductor/kernel_files.py), the kernel table (analysis/kernels.py) and the run reader's
helpers (runfiles.py, analysis/load.py) that no other test pinned. Every expected value is derived by hand in a comment."""
import json
import math
import shutil
from types import SimpleNamespace

import pandas as pd
import pytest
import torch

from recorded import data_path
from inductor_prof import runfiles
from inductor_prof.analysis import load
from inductor_prof.analysis.kernels import by_name, classify, kernel_table, library_costs
from inductor_prof.errors import UserError
from inductor_prof.inductor.kernel_files import annotate_source, file_stem, io_bytes, launch_args
from inductor_prof.inductor.metrics import (KernelMetrics, _is_tensor, attention_metrics, distinct_bytes,
                                            elementwise_metrics, kernel_kind, launch_metrics, mm_metrics,
                                            reduction_lanes)
from inductor_prof.inductor.ops import OpCounts
from inductor_prof.peaks import FLOP_KEYS

# ==== inductor/metrics.py ===============================================================================


def test_kernel_kind_flex_decoding_by_name_alone():
    # "flex_decoding" in the name wins over the template heuristic and the triton_tem_ prefix
    assert kernel_kind("triton_tem_fused_flex_decoding_0", "template") == "flex_attention"
    assert kernel_kind("triton_tem_fused_mm_0", "template") == "template_mm"


def test_kernel_kind_flex_attention_from_the_source_head_only():
    # a template whose name does not say flex_attention, but whose source does
    assert kernel_kind("triton_tem_fused_0", "template", "# flex_attention kernel\n") == "flex_attention"
    # only the first 4000 characters are read: "flex_attention" (14 chars) at 3987..4000 lacks its final "n"
    # inside source[:4000]
    late = "x" * 3987 + "flex_attention"
    assert len(late) == 4001
    assert kernel_kind("triton_tem_fused_0", "template", late) == "template_mm"
    early = "x" * 3986 + "flex_attention"      # ends at index 3999: inside
    assert kernel_kind("triton_tem_fused_0", "template", early) == "flex_attention"


def test_kernel_kind_heuristic_before_prefix_and_case_insensitive():
    # the decorator's heuristic (lower-cased) beats the name prefix; an unknown heuristic falls to the prefix
    assert kernel_kind("triton_poi_fused_0", "Cooperative_Reduction") == "reduction"
    assert kernel_kind("triton_poi_fused_0", "split_scan") == "reduction"
    assert kernel_kind("triton_poi_fused_0", "no_such_heuristic") == "pointwise"
    assert kernel_kind("my_kernel", "foreach") == "foreach"
    assert kernel_kind("triton_for_fused_0") == "foreach"
    assert kernel_kind("my_kernel") == "other"
    assert kernel_kind("my_kernel", "") == "other"


class _Partial:
    """Has data_ptr and numel but no element_size: not a tensor."""
    def data_ptr(self): return 1
    def numel(self): return 10


def test_is_tensor_needs_all_three_methods():
    assert _is_tensor(torch.empty(2))
    assert not _is_tensor(_Partial())
    assert not _is_tensor(SimpleNamespace(element_size=lambda: 4, numel=lambda: 1))
    assert not _is_tensor(SimpleNamespace(data_ptr=lambda: 1, element_size=lambda: 4))
    # and distinct_bytes skips it (it would fail on element_size otherwise)
    assert distinct_bytes({"in_ptr0": _Partial(), "in_ptr1": torch.empty(3)}) == 3 * 4


def test_distinct_bytes_goes_on_past_a_scalar_before_the_tensors():
    a = torch.empty(6, dtype=torch.float32)
    b = torch.empty(5, dtype=torch.float16)
    # the scalar first must not end the walk: 6 x 4 + 5 x 2 = 34 B
    assert distinct_bytes({"ks0": 7, "in_ptr0": a, "out_ptr0": b}) == 34


def test_reduction_lanes_with_and_without_r0_block():
    # 3 rows of 10: R0_BLOCK 4 -> ceil(10/4) = 3 blocks of 4 = 12 lanes a row -> 36 elements, 4 lanes
    assert reduction_lanes({"xnumel": 3, "r0_numel": 10, "R0_BLOCK": 4}) == (36, 4)
    # no usable R0_BLOCK: the row rounded up to a power of 2: 16 -> 48, 16
    assert reduction_lanes({"xnumel": 3, "r0_numel": 10}) == (48, 16)
    assert reduction_lanes({"xnumel": 3, "r0_numel": 10, "R0_BLOCK": 0}) == (48, 16)
    # R0_BLOCK 1 is a valid block: 3 rows x 10 blocks of 1 = 30
    assert reduction_lanes({"xnumel": 3, "r0_numel": 10, "R0_BLOCK": 1}) == (30, 1)
    # row of 2 (smallest real reduction): block 2 -> 3 x 2 = 6, 2 lanes
    assert reduction_lanes({"xnumel": 3, "r0_numel": 2}) == (6, 2)
    # no numel argument at all: nothing iterated (and no division by the 0 rows)
    assert reduction_lanes({"XBLOCK": 4}) == (0, 0)
    # no reduction (a row of one element): all iterations, 0 lanes
    assert reduction_lanes({"xnumel": 7}) == (7, 0)
    assert reduction_lanes({"xnumel": 7, "r0_numel": 1}) == (7, 0)


def test_elementwise_metrics_clamps_bytes_to_the_iterations():
    big = torch.empty(1000, dtype=torch.float32)
    out = torch.empty(10, dtype=torch.float32)
    # 10 iterations, 1 op each = 10 flops32; bytes: big clamped to 10 el x 4 B read + 10 x 4 B written = 80
    m = elementwise_metrics({"in_ptr0": big, "out_ptr0": out, "xnumel": 10}, OpCounts(per_element=1))
    assert m == {"flops32": 10, "bytes": 80}


def test_elementwise_metrics_in_out_read_is_passed_on():
    io = torch.empty(8, dtype=torch.float32)     # 32 B
    # stored only: once (32); loaded: twice (64)
    assert elementwise_metrics({"in_out_ptr0": io, "xnumel": 8}, OpCounts(), frozenset()) == \
        {"flops32": 0, "bytes": 32}
    assert elementwise_metrics({"in_out_ptr0": io, "xnumel": 8}, OpCounts(), frozenset({"in_out_ptr0"})) == \
        {"flops32": 0, "bytes": 64}


def test_mm_metrics_named_operands_win_over_position():
    x = torch.empty(5, 5, dtype=torch.float32)     # first tensor, not an operand
    a = torch.empty(4, 8, dtype=torch.bfloat16)    # M 4, K 8
    b = torch.empty(8, 2, dtype=torch.bfloat16)    # N 2
    m = mm_metrics({"in_ptr0": x, "arg_A": a, "arg_B": b})
    # 2 * 4 * 2 * 8 = 128 in bf16 (x, 4x4... would give fp32); bytes 25 x 4 + 32 x 2 + 16 x 2 = 196
    assert m == {"flops16": 128, "bytes": 100 + 64 + 32}


def test_mm_metrics_one_named_operand_falls_back_to_position():
    a = torch.empty(4, 8, dtype=torch.float32)
    b = torch.empty(8, 3, dtype=torch.float32)
    # arg_B missing: the first two tensors (a, b) are the operands: 2 * 4 * 3 * 8 = 192
    assert mm_metrics({"arg_A": a, "in_ptr1": b}) == {"flops32": 192, "bytes": (32 + 24) * 4}
    assert mm_metrics({"in_ptr0": a, "arg_B": b}) == {"flops32": 192, "bytes": (32 + 24) * 4}


def test_mm_metrics_without_two_tensors_gives_bytes_only():
    a = torch.empty(4, 8, dtype=torch.float32)
    # one tensor: no flops, its 32 x 4 B
    assert mm_metrics({"arg_A": a, "ks0": 3}) == {"bytes": 128}
    assert mm_metrics({"ks0": 3}) == {"bytes": 0}


def test_mm_metrics_three_d_batch():
    a = torch.empty(3, 4, 8, dtype=torch.float16)   # batch 3
    b = torch.empty(3, 8, 2, dtype=torch.float16)
    # 2 * 3 * 4 * 2 * 8 = 384; bytes (96 + 48) x 2
    assert mm_metrics({"arg_A": a, "arg_B": b}) == {"flops16": 384, "bytes": 288}


def test_attention_metrics_without_q_and_k_gives_bytes_only():
    q = torch.empty(1, 2, 8, 4, dtype=torch.float16)    # 64 el x 2 B
    assert attention_metrics({"arg_Q": q}) == {"bytes": 128}
    assert attention_metrics({"arg_K": q}) == {"bytes": 128}
    assert launch_metrics("flex_attention", {"arg_Q": q, "ks0": 1}) == {"bytes": 128}


def test_launch_metrics_other_kind_bytes_only_clamped():
    big = torch.empty(100, dtype=torch.float32)
    io = torch.empty(10, dtype=torch.float32)
    args = {"in_ptr0": big, "in_out_ptr0": io, "xnumel": 10}
    # kind "other": no flops key; big clamped to 10 el = 40 B; in_out 40 B, twice when loaded
    ops = OpCounts(per_element=5)
    assert launch_metrics("other", args, ops) == {"bytes": 40 + 2 * 40}          # unknown: read and written
    assert launch_metrics("other", args, ops, frozenset()) == {"bytes": 40 + 40}
    assert launch_metrics("other", {"in_ptr0": big}) == {"bytes": 400}           # no numel: no clamp


def test_launch_metrics_default_ops_are_zero():
    t = torch.empty(4, dtype=torch.float32)
    # no OpCounts given: 0 flops; bytes 16
    assert launch_metrics("pointwise", {"in_ptr0": t, "xnumel": 4}) == {"flops32": 0, "bytes": 16}


def test_kernel_metrics_defaults():
    m = KernelMetrics("pointwise")
    assert m.ops == OpCounts(0, 0, 0)
    assert (m.ops_per_element, m.ops_per_lane, m.ops_per_row, m.in_out_read) == (0, 0, 0, None)
    assert repr(m) == "KernelMetrics(kind='pointwise', ops_per_element=0, ops_per_row=0)"
    t = torch.empty(4, dtype=torch.float32)
    assert m(None, None, {"in_out_ptr0": t, "xnumel": 4}) == {"flops32": 0, "bytes": 32}


def test_kernel_metrics_repr_exact():
    m = KernelMetrics("reduction", 3, 2, ("in_out_ptr1", "in_out_ptr0"), ops_per_lane=1.5)
    assert repr(m) == ("KernelMetrics(kind='reduction', ops_per_element=3, ops_per_row=2, "
                       "in_out_read=('in_out_ptr0', 'in_out_ptr1'), ops_per_lane=1.5)")


TWO_OPS = '''
@triton.jit
def k(in_out_ptr0, in_ptr0, xnumel, XBLOCK: tl.constexpr):
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr0 + (x0), xmask)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp2 + tmp1
    tl.store(in_out_ptr0 + (x0), tmp3, xmask)
'''


def test_for_source_counts_ops_with_the_heuristic_kind():
    # a name without a prefix: kind from the heuristic; 2 ops per element (one mul, one add)
    m = KernelMetrics.for_source("my_kernel", TWO_OPS, "pointwise")
    assert (m.kind, m.ops_per_element, m.ops_per_lane, m.ops_per_row) == ("pointwise", 2, 0, 0)
    assert m.in_out_read == frozenset({"in_out_ptr0"})
    t = torch.empty(16, dtype=torch.float32)
    u = torch.empty(16, dtype=torch.float32)
    # 2 x 16 = 32 flops; in_out loaded + stored 2 x 64, in_ptr0 64 -> 192 B
    assert m(None, None, {"in_out_ptr0": t, "in_ptr0": u, "xnumel": 16}) == {"flops32": 32, "bytes": 192}


def test_for_source_counts_no_ops_for_templates():
    # the same body as an mm template or a flex-attention kernel: flops come from the shapes, ops stay 0
    for name, heuristic, kind in (("triton_tem_fused_mm_0", "template", "template_mm"),
                                  ("triton_tem_fused_flex_attention_0", "template", "flex_attention")):
        m = KernelMetrics.for_source(name, TWO_OPS, heuristic)
        assert m.kind == kind
        assert m.ops == OpCounts(0, 0, 0)
    # a template whose SOURCE (not its name) says flex_attention
    m = KernelMetrics.for_source("triton_tem_fused_0", "# flex_attention\n" + TWO_OPS, "template")
    assert (m.kind, m.ops) == ("flex_attention", OpCounts(0, 0, 0))
    # no heuristic but the source names it: the name prefix triton_poi_ decides
    assert KernelMetrics.for_source("triton_poi_fused_0", TWO_OPS).ops.per_element == 2


# ==== inductor/kernel_files.py ==========================================================================


def test_file_stem_appends_the_hash_only_for_shared_names():
    assert file_stem("triton_poi_fused_0", "abc123", False) == "triton_poi_fused_0"
    assert file_stem("triton_poi_fused_0", "abc123", True) == "triton_poi_fused_0.abc123"


def test_annotate_source_replaces_the_first_bare_jit_only():
    src = "@triton.jit\ndef a():\n    pass\n\n@triton.jit\ndef b():\n    pass\n"
    m = KernelMetrics("pointwise", 1, 0)
    out = annotate_source(src, m)
    assert out == ("from inductor_prof.inductor.metrics import KernelMetrics\n"
                   "@triton.jit(launch_metadata=KernelMetrics(kind='pointwise', ops_per_element=1, ops_per_row=0))\n"
                   "def a():\n    pass\n\n@triton.jit\ndef b():\n    pass\n")


def test_annotate_source_error_says_what_is_missing():
    with pytest.raises(ValueError, match=r"^no bare @triton\.jit decorator in kernel source$"):
        annotate_source("@triton.jit(debug=True)\ndef a():\n    pass\n", KernelMetrics("other"))


def _kernel_file(signature: str, tensors: list[str], returned: str) -> str:
    lines = "\n".join(f"    {t}" for t in tensors)
    return f"@triton.jit\ndef k({signature}):\n    pass\n\n\ndef get_args():\n{lines}\n    return {returned}\n"


def test_launch_args_strips_annotations():
    text = _kernel_file("in_ptr0 : '*bf16', out_ptr0: '*fp32', xnumel : 'i32', XBLOCK : tl.constexpr",
                        ["arg_0 = rand_strided((4,), (1,), device='cuda:0', dtype=torch.bfloat16)",
                         "arg_1 = rand_strided((4,), (1,), device='cuda:0', dtype=torch.float32)"],
                        "arg_0, arg_1, 4,")
    assert launch_args(text) == [("in_ptr0", "arg_0", ("4,", "bfloat16")), ("out_ptr0", "arg_1", ("4,", "float32")),
                                 ("xnumel", "4", None)]
    # read 4 x 2 = 8; written 4 x 4 = 16
    assert io_bytes(text) == {"read": 8, "write": 16}


def test_io_bytes_without_int_args_is_unclamped():
    text = _kernel_file("in_ptr0, out_ptr0",
                        ["arg_0 = rand_strided((10, 3), (3, 1), device='cuda:0', dtype=torch.float32)",
                         "arg_1 = rand_strided((5,), (1,), device='cuda:0', dtype=torch.float16)"],
                        "arg_0, arg_1,")
    # no numel: whole tensors, 30 x 4 = 120 read, 5 x 2 = 10 written
    assert io_bytes(text) == {"read": 120, "write": 10}


def test_io_bytes_goes_on_past_a_scalar_and_reads_0d_and_unknown_dtypes():
    text = _kernel_file("ks0, in_ptr0, in_ptr1, out_ptr0, xnumel",
                        ["arg_0 = rand_strided((), (), device='cuda:0', dtype=torch.float64)",
                         "arg_1 = rand_strided((100,), (1,), device='cuda:0', dtype=torch.complex32)",
                         "arg_2 = rand_strided((3,), (1,), device='cuda:0', dtype=torch.int16)"],
                        "7, arg_0, arg_1, arg_2, 50,")
    # clamp 50 (xnumel; ks0 is no numel). read: 0-d fp64 = 1 el x 8 = 8; complex32 unknown -> 4 B, 100 clamped
    # to 50 -> 200. written: 3 int16 = 6
    assert io_bytes(text) == {"read": 8 + 200, "write": 6}


def test_io_bytes_int_args_without_a_numel_do_not_clamp():
    text = _kernel_file("arg_A, arg_B, out_ptr0, ks0",
                        ["arg_0 = rand_strided((64, 32), (32, 1), device='cuda:0', dtype=torch.bfloat16)",
                         "arg_1 = rand_strided((32, 16), (16, 1), device='cuda:0', dtype=torch.bfloat16)",
                         "arg_2 = rand_strided((64, 16), (16, 1), device='cuda:0', dtype=torch.bfloat16)"],
                        "arg_0, arg_1, arg_2, 64,")
    # no numel to clamp to: whole operands, (2048 + 512) x 2 B read, 1024 x 2 B written
    assert io_bytes(text) == {"read": 5120, "write": 2048}


# ==== analysis/kernels.py ===============================================================================

def _hatchet_rows(rows: list[dict]) -> pd.DataFrame:
    """Hatchet kernel rows: name, calls, time_ns, bytes and every flops key (0 unless given)."""
    full = [{"name": r["name"], "calls": r.get("calls", 1), "time_ns": r.get("time_ns", 0.0),
             "bytes": r.get("bytes", 0.0), **{k: r.get(k, 0.0) for k in FLOP_KEYS}} for r in rows]
    return pd.DataFrame(full)


def test_by_name_of_no_rows_is_an_empty_frame_with_the_columns():
    df = by_name(pd.DataFrame(columns=["name", "calls", "time_ns", "bytes", *FLOP_KEYS]))
    assert len(df) == 0
    assert list(df.columns) == ["calls", "time_ns", "bytes", *FLOP_KEYS]


def test_by_name_sums_per_name():
    df = by_name(_hatchet_rows([{"name": "a", "calls": 2, "time_ns": 10.0}, {"name": "b", "calls": 1},
                                {"name": "a", "calls": 3, "time_ns": 5.0, "flops16": 7.0}]))
    assert df.loc["a", "calls"] == 5 and df.loc["a", "time_ns"] == 15.0 and df.loc["a", "flops16"] == 7.0
    assert list(df.index) == ["a", "b"]


def test_library_costs_of_nothing():
    assert library_costs(None).empty
    assert library_costs(pd.DataFrame(columns=["kernel", "op", "flops", "flops_key", "bytes"])).empty


def test_library_costs_per_width_and_most_common_op():
    ops = pd.DataFrame([
        {"kernel": "g", "op": "aten::mm", "flops": 100.0, "flops_key": "flops16", "bytes": 10.0},
        {"kernel": "g", "op": "aten::addmm", "flops": 50.0, "flops_key": "flops32", "bytes": 5.0},
        {"kernel": "g", "op": "aten::mm", "flops": 30.0, "flops_key": "flops16", "bytes": 1.0},
        {"kernel": "h", "op": "aten::b", "flops": 0.0, "flops_key": "", "bytes": 2.0},
        {"kernel": "h", "op": "aten::a", "flops": 0.0, "flops_key": "", "bytes": 2.0},
    ])
    c = library_costs(ops)
    # g: 3 launches, 16 B; flops16 100 + 30, flops32 50, others 0; op: mm twice beats addmm once
    assert c.loc["g", "lib_calls"] == 3 and c.loc["g", "lib_bytes"] == 16.0
    assert [c.loc["g", f"lib_{k}"] for k in FLOP_KEYS] == [0.0, 130.0, 50.0, 0.0]
    assert c.loc["g", "op"] == "aten::mm"
    # h: a tie, the first op by name
    assert c.loc["h", "op"] == "aten::a" and c.loc["h", "lib_calls"] == 2


def test_classify_every_branch():
    for kind, cat in (("pointwise", "Inductor pointwise"), ("foreach", "Inductor pointwise"),
                      ("reduction", "Inductor reduction"), ("persistent_reduction", "Inductor reduction"),
                      ("flex_attention", "attention"), ("template_mm", "Inductor template"), (None, "other"),
                      ("other", "other")):
        assert classify("triton_x", "inductor", kind, "aten::mm") == cat
    # library: the op decides first, then the name
    assert classify("k", "library", None, "aten::_scaled_dot_product_flash") == "attention"
    assert classify("k", "library", None, "aten::my_attention") == "attention"
    assert classify("flash_fwd", "library", None, "aten::mm") == "GEMM"
    assert classify("k", "library", None, "aten::bmm") == "GEMM"
    assert classify("fmha_cutlass_fwd", "library", None, "") == "attention"
    assert classify("sm90_xmma_gemm", "library", None, "aten::copy_") == "GEMM"
    assert classify("elementwise_kernel", "library", None, "aten::copy_") == "other"


def test_kernel_table_origins_annotation_and_library_costs():
    steps = _hatchet_rows([
        {"name": "triton_poi_a", "calls": 4, "time_ns": 400.0},    # harvested, annotated
        {"name": "triton_red_b", "calls": 2, "time_ns": 300.0},    # not in kernels.json: still Inductor
        {"name": "triton_poi_attn_e", "calls": 1, "time_ns": 250.0},  # ditto, with a library-looking name
        {"name": "triton_poi_c", "calls": 2, "time_ns": 200.0},    # annotated with zero calls: not annotated
        {"name": "triton_poi_d", "calls": 2, "time_ns": 150.0},    # annotated with no bytes, some flops
        {"name": "void at::native::copy_kernel<float>(float*)", "calls": 6, "time_ns": 100.0},  # library, no costs
        {"name": "sm90_xmma_gemm", "calls": 2, "time_ns": 50.0},   # library with costs
        {"name": "nvjet_zero", "calls": 2, "time_ns": 10.0},       # library with costs but 0 bytes
    ])
    annotated = _hatchet_rows([
        {"name": "triton_poi_a", "calls": 2, "bytes": 1000.0, "flops32": 300.0},
        {"name": "triton_poi_c", "calls": 0, "bytes": 50.0},
        {"name": "triton_poi_d", "calls": 1, "bytes": 0.0, "flops32": 10.0},
        {"name": "sm90_xmma_gemm", "calls": 1, "bytes": 99.0},   # a library kernel's hatchet bytes are ignored
    ])
    harvested = {"triton_poi_a": {"name": "triton_poi_a", "kind": "pointwise", "aten_ops": ["aten::add", "aten::mul"]},
                 "triton_poi_c": {"name": "triton_poi_c", "kind": "pointwise"},
                 "triton_poi_d": {"name": "triton_poi_d", "kind": "pointwise", "aten_ops": []}}
    lib_ops = pd.DataFrame([
        {"kernel": "sm90_xmma_gemm", "op": "aten::mm", "flops": 64.0, "flops_key": "flops16", "bytes": 8.0},
        {"kernel": "nvjet_zero", "op": "aten::bmm", "flops": 5.0, "flops_key": "flops16", "bytes": 0.0},
    ])
    io = {"triton_poi_a": {"read": 600, "write": 400}, "triton_poi_c": None}
    df = kernel_table(steps, annotated, harvested, lib_ops, io, n_steps=2).set_index("name")

    a = df.loc["triton_poi_a"]
    # annotated step: 2 calls with 1000 B, 300 flops; timed: 4 calls -> x 2 = 2000 B, 600 flops32
    assert (a["origin"], a["kind"], a["category"], a["display"]) == \
        ("inductor", "pointwise", "Inductor pointwise", "triton_poi_a")
    assert (a["bytes"], a["flops32"], a["flops16"], a["flops"], a["annotated"]) == (2000.0, 600.0, 0.0, 600.0, True)
    assert a["aten_ops"] == "aten::add, aten::mul"
    assert (a["calls"], a["calls_per_step"], a["total_ns"]) == (4, 2.0, 400.0)     # 4 calls over 2 steps
    assert (a["read_bytes_per_call"], a["write_bytes_per_call"]) == (600, 400)

    b = df.loc["triton_red_b"]
    # no record: Inductor by its prefix; no kind -> classify(inductor, None) = "other"; nothing annotated
    assert (b["origin"], b["kind"], b["category"], b["aten_ops"]) == ("inductor", "other", "other", "")
    assert (b["bytes"], b["flops"], b["annotated"]) == (0.0, 0.0, False)
    assert all(b[k] == 0.0 for k in FLOP_KEYS)
    assert math.isnan(b["read_bytes_per_call"]) and math.isnan(b["write_bytes_per_call"])
    # an Inductor kernel is classified as Inductor even when its name matches the attention pattern
    assert tuple(df.loc["triton_poi_attn_e", ["origin", "kind", "category"]]) == ("inductor", "other", "other")

    c = df.loc["triton_poi_c"]
    # annotated row with 0 calls is not used; a record without aten_ops joins to ""
    assert (c["bytes"], c["flops"], c["annotated"], c["aten_ops"]) == (0.0, 0.0, False, "")
    assert math.isnan(c["read_bytes_per_call"])

    d = df.loc["triton_poi_d"]
    # 0 bytes but 10 flops per annotated call, x 2 timed calls = 20: annotated all the same
    assert (d["bytes"], d["flops32"], d["annotated"]) == (0.0, 20.0, True)

    lib = df.loc["void at::native::copy_kernel<float>(float*)"]
    # not in the op map: no costs, no op; display: short name (at::native:: dropped, template words kept)
    assert (lib["origin"], lib["kind"], lib["category"], lib["aten_ops"]) == ("library", "other", "other", "")
    assert (lib["bytes"], lib["flops"], lib["annotated"], lib["display"]) == (0.0, 0.0, False, "copy_kernel<float>")
    assert lib["calls_per_step"] == 3.0

    g = df.loc["sm90_xmma_gemm"]
    # one step's op map x 2 steps: 8 B -> 16, 64 flops16 -> 128; kind from classify = "gemm"
    assert (g["origin"], g["kind"], g["category"], g["aten_ops"]) == ("library", "gemm", "GEMM", "aten::mm")
    assert (g["bytes"], g["flops16"], g["flops"], g["annotated"]) == (16.0, 128.0, 128.0, True)

    z = df.loc["nvjet_zero"]
    # flops but 0 bytes: a library kernel is annotated only with bytes
    assert (z["flops16"], z["bytes"], z["annotated"]) == (10.0, 0.0, False)


def test_kernel_table_without_annotated_step_and_shared_short_names():
    steps = _hatchet_rows([
        {"name": "void at::native::copy_kernel<float>(int*)", "time_ns": 5.0},
        {"name": "void at::native::copy_kernel<float>(float*)", "time_ns": 9.0},
        {"name": "triton_poi_a", "time_ns": 1.0},
    ])
    for annotated in (None, _hatchet_rows([])):
        df = kernel_table(steps, annotated, {}, None, {}, 1).set_index("name")
        # both short to copy_kernel<float>: the longer (9 ns) keeps it, the other is numbered
        assert df.loc["void at::native::copy_kernel<float>(float*)", "display"] == "copy_kernel<float>"
        assert df.loc["void at::native::copy_kernel<float>(int*)", "display"] == "copy_kernel<float> #2"
        assert df.loc["triton_poi_a", "annotated"] == False       # noqa: E712 (numpy bool)
        assert df.loc["triton_poi_a", "bytes"] == 0.0


def test_kernel_table_of_no_kernels_is_empty():
    assert len(kernel_table(_hatchet_rows([]), None, {}, None, {}, 1)) == 0


# ==== runfiles.py, analysis/load.py ==================================================================================

def test_run_peaks_of_carries_the_gpu_name():
    assert load.run_peaks_of({}, {"env": {"gpu": {"name": "NVIDIA H100 80GB HBM3"}}})["gpu"] == \
        "NVIDIA H100 80GB HBM3"
    for manifest in ({}, {"env": None}, {"env": {"gpu": None}}, {"env": {"gpu": {}}}):
        assert load.run_peaks_of({}, manifest)["gpu"] == ""
    # measured ceilings are passed on: 700 TFLOP/s bf16 measured replaces the (absent) spec
    p = load.run_peaks_of({}, {"ceilings": {"flops16_tflops": 700}})
    assert p["tflops"]["flops16"] == 700.0 and p["source"]["flops16"] == "measured"


def test_kernel_records_missing_file_is_empty(tmp_path):
    run = SimpleNamespace(kernels_json=tmp_path / "kernels.json")
    assert runfiles.kernel_records(run) == []
    run.kernels_json.write_text(json.dumps([{"name": "k", "kind": "pointwise"}]))
    assert runfiles.kernel_records(run) == [{"name": "k", "kind": "pointwise"}]


def _damage(fn, path, text):
    path.write_text(text)
    with pytest.raises(runfiles.Damaged) as e:
        fn(path)
    return str(e.value)


MANIFEST_DAMAGE = [("[1]", "a JSON object expected, found a list"),
                   ('"x"', "a JSON object expected, found a string"),
                   ("3", "a JSON object expected, found int"),
                   ('{"env": []}', "'env' should be an object, found a list"),
                   ('{"env": {"gpu": "H100"}}', "'env.gpu' should be an object, found a string"),
                   ('{"profile": {"steps": 2.5}}', "'profile.steps' should be a whole number, found 2.5"),
                   ('{"profile": {"steps": true}}', "'profile.steps' should be a whole number, found True"),
                   ('{"env": null}', "'env' should be an object, found NoneType")]
RECORDS_DAMAGE = [("{}", "a list of kernel records expected, found an object"),
                  ('[{"name": "a", "kind": null}, 3]', "record 1 should be an object, found int"),
                  ('[{"kind": "pointwise"}]', "record 0 has no 'name'"),
                  ('[{"name": "a"}]', "record 0 has no 'kind'"),
                  ('[{"name": 1, "kind": null}]', "record 0: 'name' is int"),
                  ('[{"name": "a", "kind": null, "file": 2}]', "record 0: 'file' is int"),
                  ('[{"name": "a", "kind": null, "aten_ops": "x"}]', "record 0: 'aten_ops' is a string")]


def test_manifest_checks_each_section(tmp_path):
    p = tmp_path / "manifest.json"
    assert [_damage(runfiles.manifest_file, p, text) for text, _ in MANIFEST_DAMAGE] == [m for _, m in MANIFEST_DAMAGE]
    p.write_text('{"env": {"gpu": null}, "profile": {"steps": 3}, "stages": {}}')
    assert runfiles.manifest_file(p) == {"env": {"gpu": None}, "profile": {"steps": 3}, "stages": {}}
    p.write_text('{"profile": {}}')                  # steps missing: 1 is fine
    assert runfiles.manifest_file(p) == {"profile": {}}


def test_kernel_records_checks_each_record(tmp_path):
    p = tmp_path / "kernels.json"
    assert [_damage(runfiles.kernels_by_name, p, text) for text, _ in RECORDS_DAMAGE] == [m for _, m in RECORDS_DAMAGE]
    p.write_text('[{"name": "a", "kind": null, "file": null, "aten_ops": null}, {"name": "b", "kind": "pointwise"}]')
    assert runfiles.kernels_by_name(p) == {"a": {"name": "a", "kind": None, "file": None, "aten_ops": None},
                                           "b": {"name": "b", "kind": "pointwise"}}


def test_csv_reader_checks_columns_and_numbers(tmp_path):
    p = tmp_path / "t.csv"
    read = runfiles.csv_reader(("kernel", "op", "bytes"), ("bytes",), keep_default_na=False)
    assert _damage(read, p, "kernel,x\nk,1\n") == "no column 'op', 'bytes'"
    assert _damage(read, p, "kernel,op,bytes\nk,a,lots\n") == "column 'bytes' is not numeric"
    # keep_default_na=False: an op named NA stays the string "NA"
    p.write_text("kernel,op,bytes\nk,NA,3\n")
    df = read(p)
    assert df["op"].tolist() == ["NA"] and df["bytes"].tolist() == [3]


def test_stage_line_and_reader_warnings(tmp_path):
    # the first sentence ends at ". ", not at a decimal point
    assert runfiles.stage_line("ncu", {"status": "failed", "error": "exit 1.5 (x). More detail"}) == \
        "stage ncu failed: exit 1.5 (x)"
    assert runfiles.stage_line("harvest", {"status": "running"}) == "stage harvest did not finish"
    assert runfiles.stage_line("x", {"status": "failed", "error": "e" * 300}) == "stage x failed: " + "e" * 200
    manifest = {"stages": {"harvest": {"status": "failed", "error": "boom"}, "ncu": {"status": "ok"},
                           "attention": {"status": "interrupted"}}}
    r = runfiles.Reader(SimpleNamespace(), manifest)
    missing = tmp_path / "kernels.json"
    assert r.optional(missing, lambda p: 1, "no kinds", "harvest") is None
    assert r.optional(tmp_path / "n.csv", lambda p: 1, "no ncu", "ncu") is None          # stage ok: no cause
    assert r.optional(tmp_path / "a.csv", lambda p: 1, "no attn", "library_ops") is None  # stage never ran
    assert r.optional(tmp_path / "b.csv", lambda p: 1, "unused", "ncu", expected=False) is None
    (tmp_path / "c.json").write_text("{")
    assert r.optional(tmp_path / "c.json", lambda p: 1 / 0, "no c") is None
    (tmp_path / "d.json").write_text("{}")
    assert r.optional(tmp_path / "d.json", lambda p: 5, "no d") == 5
    r.failed_stages()
    assert r.warnings == [
        f"{missing} is missing (stage harvest failed: boom); no kinds",
        f"{tmp_path / 'n.csv'} is missing; no ncu",
        f"{tmp_path / 'a.csv'} is missing (the profile did not get to stage library_ops); no attn",
        f"{tmp_path / 'c.json'} is damaged (ZeroDivisionError: division by zero); no c",
        "stage attention interrupted",       # harvest was said with its file
    ]


def test_required_file_damage_is_a_user_error(tmp_path):
    p = tmp_path / "manifest.json"
    p.write_text("[]")
    with pytest.raises(UserError, match=r"manifest\.json is damaged \(a JSON object expected, found a list\); "
                                        r"the report needs it"):
        runfiles.required(p, runfiles.manifest_file)


GEMM = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"     # a library kernel of the recorded run


@pytest.fixture
def small_run(tmp_path):
    path = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), path)
    return path


def test_load_reads_an_op_named_na_as_text(small_run):
    # library_ops.csv: the GEMM's op renamed "NA" (pandas' default would read it as a missing value)
    ops = pd.read_csv(small_run / "library_ops.csv", keep_default_na=False)
    ops.loc[ops["kernel"] == GEMM, "op"] = "NA"
    ops.to_csv(small_run / "library_ops.csv", index=False)
    t = load.load_run_tables(small_run)
    assert t.kernels.set_index("name").loc[GEMM, "aten_ops"] == "NA"


@pytest.mark.parametrize("steps", [0, None])
def test_load_steps_missing_or_zero_is_one(small_run, steps):
    manifest = json.loads((small_run / "manifest.json").read_text())
    if steps is None:
        del manifest["profile"]["steps"]
    else:
        manifest["profile"]["steps"] = steps
    (small_run / "manifest.json").write_text(json.dumps(manifest))
    t = load.load_run_tables(small_run)
    # one timed step: calls per step == calls for every kernel; the manifest is handed on as read
    assert (t.kernels["calls_per_step"] == t.kernels["calls"]).all()
    assert t.manifest == manifest


def test_io_split_per_record(tmp_path):
    (tmp_path / "a.py").write_text(_kernel_file(
        "in_ptr0, out_ptr0, xnumel", ["arg_0 = rand_strided((8,), (1,), device='cuda:0', dtype=torch.float32)",
                                      "arg_1 = rand_strided((8,), (1,), device='cuda:0', dtype=torch.float16)"],
        "arg_0, arg_1, 8,"))
    run = SimpleNamespace(kernel_file=lambda f: tmp_path / f)
    reader = runfiles.Reader(run, {})
    harvested = {"a": {"name": "a", "kind": "pointwise", "file": "a.py"},
                 "b": {"name": "b", "kind": None},                      # no file: no split, no warning
                 "c": {"name": "c", "kind": None, "file": None},
                 "d": {"name": "d", "kind": None, "file": "gone.py"}}  # named but missing: a warning
    # a: 8 fp32 read = 32 B, 8 fp16 written = 16 B
    assert reader.io_split(harvested) == {"a": {"read": 32, "write": 16}, "b": None, "c": None, "d": None}
    assert reader.warnings == [f"{tmp_path / 'gone.py'} is missing; kernel d is shown without its read/write split"]


def _ncu_reader(tmp_path, stages, status=None, csv=None):
    run = SimpleNamespace(ncu_csv=tmp_path / "ncu.csv", ncu_status_json=tmp_path / "status.json")
    if status is not None:
        run.ncu_status_json.write_text(json.dumps(status))
    if csv is not None:
        run.ncu_csv.write_text(csv)
    return runfiles.Reader(run, {"stages": stages})


def test_ncu_table_missing_only_warns_where_ncu_was_run(tmp_path):
    # no ncu stage, no status: nothing expected, nothing said
    r = _ncu_reader(tmp_path, {})
    assert r.ncu() is None and r.warnings == []
    # the stage ran: the missing csv is said
    r = _ncu_reader(tmp_path, {"ncu": {"status": "ok"}})
    assert r.ncu() is None
    assert r.warnings == [f"{tmp_path / 'ncu.csv'} is missing; the report has no Nsight Compute columns"]


def test_ncu_table_status_lists_kernels_the_csv_lacks(tmp_path):
    status = {"k1": {"status": "ok"}, "k2": {"status": "ok"}, "k3": {"status": "failed"}, "k4": "ok"}
    r = _ncu_reader(tmp_path, {}, status, "name,stem,duration_ns\ntriton_a,k1,100\n")
    df = r.ncu()
    assert df["stem"].tolist() == ["k1"] and df["duration_ns"].tolist() == [100]
    # ok in status.json: k1, k2 (k3 failed, k4 not an object); the csv has k1 -> 1 lacking
    assert r.warnings == [f"{tmp_path / 'ncu.csv'} lacks 1 kernels that status.json lists as profiled "
                          "(a call of the ncu stage did not finish; run it again)"]
    # a status file but no csv: the csv is expected
    (tmp_path / "ncu.csv").unlink()
    r = _ncu_reader(tmp_path, {}, status)
    assert r.ncu() is None
    assert r.warnings == [f"{tmp_path / 'ncu.csv'} is missing (the profile did not get to stage ncu); "
                          "the report has no Nsight Compute columns"]
    # an empty status and no stage: not expected
    r = _ncu_reader(tmp_path, {}, {})
    assert r.ncu() is None and r.warnings == []


def test_io_bytes_in_out_read_only_when_loaded():
    text = _kernel_file("in_out_ptr0, in_out_ptr1, xnumel",
                        ["arg_0 = rand_strided((4,), (1,), device='cuda:0', dtype=torch.float32)",
                         "arg_1 = rand_strided((4,), (1,), device='cuda:0', dtype=torch.float16)"],
                        "arg_0, arg_1, 4,") + "    tmp0 = tl.load(in_out_ptr0 + (x0), xmask)\n"
    # in_out_ptr0 loaded: 16 B read + 16 B written; in_out_ptr1 stored only: 8 B written
    assert io_bytes(text) == {"read": 16, "write": 16 + 8}
    # a signature without get_args, or get_args without a jit signature: None
    assert io_bytes(text.split("\n\n\ndef get_args")[0]) is None
    assert launch_args(text.split("@triton.jit\n")[1]) is None


def test_ncu_table_damaged_status_is_said_and_the_csv_still_read(tmp_path):
    r = _ncu_reader(tmp_path, {"ncu": {"status": "ok"}}, [1], "name,duration_ns\ntriton_a,5\n")
    df = r.ncu()
    assert df["name"].tolist() == ["triton_a"]
    assert r.warnings == [f"{tmp_path / 'status.json'} is damaged (a JSON object expected, found a list); "
                          "the ncu table cannot be checked against it"]
