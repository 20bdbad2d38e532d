"""Each annotation formula on small constructed inputs (every expected value derived by hand), and harvest's
parsing of the recorded output code."""
import re

import pytest
import torch

from recorded import data_path
from inductor_prof.aten import flops_key_for_dtype
from inductor_prof.inductor.kernel_files import io_bytes
from inductor_prof.inductor.metrics import (KernelMetrics, attention_metrics, distinct_bytes, elementwise_metrics,
                                            iteration_numel, launch_metrics, loaded_in_out, mm_metrics)
from inductor_prof.inductor.ops import OpCounts, count_ops
from inductor_prof.inductor.output_code import harvest_cache, parse_output_code
from inductor_prof.pipeline.harvest import write_kernels

# ---- count_ops -----------------------------------------------------------------------------------------

OPS_EACH_ONCE = '''
def k(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    x0 = xindex % 3072
    x1 = xindex // 3072
    tmp0 = tl.load(in_ptr0 + (x0 + 3072 * x1), xmask).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2 - tmp1
    tmp4 = tmp3 * tmp0
    tmp5 = tmp4 / tmp1
    tmp6 = libdevice.exp(tmp5)
    tmp7 = tl_math.abs(tmp6)
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = triton_helpers.maximum(tmp8, tmp0)
    tmp10 = tl.full([1], 0.5, tl.float32)
    tmp11 = tl.where(tmp0 > tmp10, tmp9, tmp10)
    tmp12 = tmp11.to(tl.bfloat16)
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK])
    tl.store(out_ptr0 + (x0 + 3072 * x1), tmp13, xmask)
'''


def test_count_ops_counts_each_operator_once_and_math_calls_as_ncu_measured():
    # + - * / on floats: 4. Math calls at what ncu counted per call on the H100
    # (examples/calibration/math-flops-h100.json): exp 1 (the multiply by log2(e) before the MUFU ex2),
    # abs 0 (a sign-bit mask), rsqrt 0 (MUFU, not an FP instruction), maximum 0 (FMNMX) -> 5 per element.
    # Not counted: x0/x1 index arithmetic (not a tmp), the loads with their index sums, tl.full, tl.where and its
    # comparison, .to, broadcast_to, store. No reduction: nothing per lane or per row.
    assert count_ops(OPS_EACH_ONCE) == OpCounts(per_element=5, per_lane=0, per_row=0)


def test_count_ops_counts_every_operator_of_a_nested_expression():
    src = '''
def k(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = (tmp0 * tmp0) + libdevice.exp(tmp0 - tmp0) / tmp0
'''
    # *, +, exp (1, as measured), -, / -> 5
    assert count_ops(src) == OpCounts(5, 0, 0)


def test_count_ops_ignores_loads_stores_and_their_index_arithmetic():
    src = '''
def k(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    tmp0 = tl.load(in_ptr0 + (x0 + 3072 * x1 + 6144), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (tl.broadcast_to(x0 // 24 + 24 * x1, [XBLOCK])), xmask & ymask, other=0.0)
    tmp2 = tmp0.to(tl.float32)
    tl.store(out_ptr0 + (x0 + 128 * x1), tmp2, xmask)
'''
    assert count_ops(src) == OpCounts(0, 0, 0)


PER_ROW = '''
def k(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    tmp0 = tl.load(in_ptr0 + (r1 + 4096*x0), rmask).to(tl.float32)
    tmp1 = tmp0 * tmp0
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4 = tl.sum(tmp2, 1)[:, None]
    tmp5 = 4096.0
    tmp6 = tmp4 / tmp5
    tmp7 = -1e-06
    tmp8 = tmp6 - tmp7
    tmp9 = libdevice.rsqrt(tmp8)
    tmp10 = tmp0 * tmp9
    tl.store(out_ptr0 + (r1 + 4096*x0), tmp10, rmask)
'''


def test_count_ops_per_row_after_a_reduction():
    # per element: tmp1 square (1), tmp10 = x * rstd (mixes an element and a row: 1) -> 2
    # per lane: the tl.sum combines once per lane with one add -> 1
    # per row: tmp6 = sum / 4096 (1), tmp8 = - eps (1; literal operands do not break row-ness), rsqrt (0: MUFU,
    #   not an FP instruction to ncu) -> 2
    assert count_ops(PER_ROW) == OpCounts(per_element=2, per_lane=1, per_row=2)


def test_count_ops_per_row_with_inductor_style_constants():
    # Inductor writes constants as tl.full([1, 1], c, dtype): still constants, so rsqrt(var / n + eps) stays
    # per row: the same counts as with bare literals above
    src = PER_ROW.replace("tmp5 = 4096.0", "tmp5 = tl.full([1, 1], 4096.0, tl.float32)").replace(
        "tmp7 = -1e-06", "tmp7 = tl.full([1, 1], -1e-06, tl.float32)")
    assert src.count("tl.full(") == 2
    assert count_ops(src) == OpCounts(per_element=2, per_lane=1, per_row=2)


# ---- iteration space and distinct bytes ----------------------------------------------------------------

def test_iteration_numel_is_the_product_of_numels_and_rows_are_x_y():
    t = torch.empty(4)
    args = {"in_ptr0": t, "ynumel": 5, "xnumel": 6, "r0_numel": 7, "XBLOCK": 64, "R0_BLOCK": 8, "flag": True}
    # all: 5 * 6 * 7 = 210 (block sizes and bools are not numels); rows: y * x = 30
    assert iteration_numel(args) == (210, 30)
    assert iteration_numel({"in_ptr0": t, "XBLOCK": 64}) == (0, 0)


def test_distinct_bytes_counts_an_aliased_tensor_once():
    buf = torch.empty(1000, dtype=torch.float32)
    other = torch.empty(10, dtype=torch.float32)
    # buf passed twice (same data_ptr): 4000 B once; other 40 B
    assert distinct_bytes({"in_ptr0": buf, "in_ptr1": buf, "in_ptr2": other}) == 4000 + 40


def test_distinct_bytes_clamps_a_whole_buffer_to_the_iterations():
    big = torch.empty(10_000, dtype=torch.float16)
    out = torch.empty(100, dtype=torch.float16)
    # Inductor passes the base buffer of a slice: 100 elements iterated -> 100 x 2 B read, 100 x 2 B written
    assert distinct_bytes({"in_ptr0": big, "out_ptr0": out}, clamp_numel=100) == 200 + 200
    assert distinct_bytes({"in_ptr0": big, "out_ptr0": out}) == 20_000 + 200     # no clamp given


def test_distinct_bytes_in_out_twice_only_when_loaded():
    io = torch.empty(256, dtype=torch.bfloat16)        # 512 B
    src = torch.empty(256, dtype=torch.bfloat16)       # 512 B read
    out = torch.empty(256, dtype=torch.float32)        # 1024 B written once
    args = {"in_out_ptr0": io, "in_ptr0": src, "out_ptr0": out}
    assert distinct_bytes(args, in_out_read=frozenset({"in_out_ptr0"})) == 2 * 512 + 512 + 1024
    assert distinct_bytes(args, in_out_read=frozenset()) == 512 + 512 + 1024       # stored only
    assert distinct_bytes(args) == 2 * 512 + 512 + 1024                            # unknown: read and written


def test_loaded_in_out_reads_the_kernel_body():
    body = "tmp0 = tl.load(in_out_ptr1 + (x0), xmask)\ntl.store(in_out_ptr0 + (x0), tmp0)\n" \
           "tl.store(in_out_ptr1 + (x0), tmp0)"
    assert loaded_in_out(body) == frozenset({"in_out_ptr1"})


def test_elementwise_flops_key_follows_fp64_tensors():
    x = torch.empty(10, 20, dtype=torch.float64)
    out = torch.empty(10, 20, dtype=torch.float64)
    ops = OpCounts(per_element=3, per_lane=1, per_row=2)
    # 10 rows of 20, no R0_BLOCK: a persistent block of 32 (20 rounded up to a power of 2) lanes per row.
    # fp64 kernel: 3 ops x 10 x 32 padded elements (960) + 1 x 32 lanes x 10 rows (320) + 2 x 10 rows (20)
    #   = 1300 in flops64; bytes: the 200 real elements x 8 B read + written
    m = elementwise_metrics({"in_ptr0": x, "out_ptr0": out, "xnumel": 10, "r0_numel": 20}, ops)
    assert m == {"flops64": 960 + 320 + 20, "bytes": 2 * 200 * 8}
    h = elementwise_metrics({"in_ptr0": x.half(), "out_ptr0": out.half(), "xnumel": 10, "r0_numel": 20}, ops)
    assert h == {"flops32": 960 + 320 + 20, "bytes": 2 * 200 * 2}   # 16-bit data still computes in fp32


def test_flops_key_per_dtype():
    assert [flops_key_for_dtype(d) for d in (torch.bfloat16, torch.float16, torch.float32, torch.float64,
                                             torch.float8_e4m3fn, torch.float8_e5m2)] == \
        ["flops16", "flops16", "flops32", "flops64", "flops8", "flops8"]


# ---- templates -----------------------------------------------------------------------------------------

def test_mm_metrics_batched_by_the_first_operands_batch_dims():
    a = torch.empty(2, 3, 32, 16, dtype=torch.bfloat16)     # batch 2 x 3 = 6, M 32, K 16
    b = torch.empty(16, 8, dtype=torch.bfloat16)            # N 8, broadcast over the batch
    c = torch.empty(2, 3, 32, 8, dtype=torch.bfloat16)
    m = mm_metrics({"arg_A": a, "arg_B": b, "out_ptr0": c})
    # 2 * batch * M * N * K = 2 * 6 * 32 * 8 * 16 = 49,152; bytes (3072 + 128 + 1536) el x 2 B
    assert m == {"flops16": 2 * 6 * 32 * 8 * 16, "bytes": (6 * 32 * 16 + 16 * 8 + 6 * 32 * 8) * 2}
    assert m["flops16"] == 49_152


def test_mm_metrics_key_by_operand_width_and_positional_fallback():
    a = torch.empty(4, 8, dtype=torch.float32)
    b = torch.empty(8, 2, dtype=torch.float32)
    # no arg_A/arg_B names: the first two tensors are the operands; 2 * 4 * 2 * 8 = 128 in fp32
    assert mm_metrics({"in_ptr0": a, "in_ptr1": b}) == {"flops32": 128, "bytes": (32 + 16) * 4}
    f8 = mm_metrics({"arg_A": a.to(torch.float8_e4m3fn), "arg_B": b.to(torch.float8_e4m3fn)})
    assert f8 == {"flops8": 128, "bytes": 32 + 16}


def test_attention_metrics_with_different_query_and_key_lengths():
    B, H, Sq, Sk, D = 2, 3, 40, 56, 16
    q = torch.empty(B, H, Sq, D, dtype=torch.bfloat16)
    k = torch.empty(B, H, Sk, D, dtype=torch.bfloat16)
    v = torch.empty(B, H, Sk, D, dtype=torch.bfloat16)
    o = torch.empty(B, H, Sq, D, dtype=torch.bfloat16)
    m = launch_metrics("flex_attention", {"arg_Q": q, "arg_K": k, "arg_V": v, "out_ptr0": o})
    # QK^T: 2*Sq*Sk*D, PV: 2*Sq*Sk*D per (B, H) -> 4 * 2 * 3 * 40 * 56 * 16 = 860,160 (Sq x Sq would be 614,400)
    assert m["flops16"] == 4 * B * H * Sq * Sk * D == 860_160
    assert m["bytes"] == (2 * B * H * Sq * D + 2 * B * H * Sk * D) * 2
    assert attention_metrics({"arg_Q": q, "arg_K": k, "arg_V": v}) == \
        {"flops16": 860_160, "bytes": (B * H * Sq * D + 2 * B * H * Sk * D) * 2}


def test_kernel_metrics_routes_by_kind_as_triton_calls_it():
    q = torch.empty(1, 2, 8, 4, dtype=torch.float16)
    k = torch.empty(1, 2, 24, 4, dtype=torch.float16)
    metrics = KernelMetrics.for_source("triton_tem_fused_flex_attention_0", "def k(arg_Q, arg_K):\n    pass\n",
                                       "template")
    assert metrics.kind == "flex_attention"
    assert metrics((1, 1, 1), None, {"arg_Q": q, "arg_K": k})["flops16"] == 4 * 1 * 2 * 8 * 24 * 4


def test_kernel_metrics_repr_round_trips_in_out_read():
    # the annotated copies are written from repr(): what the kernel loads must survive it
    # ... and so must the per-lane combines of a reduction (a layer norm: 12 per element, 10 per lane, 2 per row)
    for m in (KernelMetrics("reduction", 13, 2, frozenset()), KernelMetrics("pointwise", 4, 0, ("in_out_ptr0",)),
              KernelMetrics("reduction", 12, 2, frozenset(), ops_per_lane=10),
              KernelMetrics("pointwise", 17.26, 0, ("in_out_ptr0",))):
        back = eval(repr(m), {"KernelMetrics": KernelMetrics})
        assert (back.kind, back.ops_per_element, back.ops_per_lane, back.ops_per_row, back.in_out_read) == \
            (m.kind, m.ops_per_element, m.ops_per_lane, m.ops_per_row, m.in_out_read)
    assert KernelMetrics("reduction", 12, 2, frozenset(), ops_per_lane=10).ops_per_lane == 10


# ---- read / write split --------------------------------------------------------------------------------

IO_FILE = '''
@triton.jit
def k(in_out_ptr0, in_out_ptr1, in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    tmp0 = tl.load(in_out_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr0 + (x0), xmask)
    tmp2 = tl.load(in_ptr1 + (x0 % 64), xmask)
    tl.store(in_out_ptr0 + (x0), tmp0 + tmp1, xmask)
    tl.store(in_out_ptr1 + (x0), tmp2, xmask)
    tl.store(out_ptr0 + (x0), tmp1, xmask)


def get_args():
    arg_0 = rand_strided((8, 128), (128, 1), device='cuda:0', dtype=torch.bfloat16)
    arg_1 = rand_strided((1024,), (1,), device='cuda:0', dtype=torch.float32)
    arg_2 = rand_strided((4096,), (1,), device='cuda:0', dtype=torch.float16)
    arg_3 = rand_strided((64,), (1,), device='cuda:0', dtype=torch.float64)
    arg_4 = rand_strided((1024,), (1,), device='cuda:0', dtype=torch.int8)
    return arg_0, arg_1, arg_2, arg_3, arg_4, 1024,
'''


def test_io_bytes_read_write_split():
    # xnumel 1024.
    # read:  in_out_ptr0 loaded 1024 bf16 = 2048; in_ptr0 4096 fp16 clamped to 1024 = 2048; in_ptr1 64 fp64 = 512
    # write: in_out_ptr0 2048; in_out_ptr1 (stored only, not read) 1024 fp32 = 4096; out_ptr0 1024 int8 = 1024
    assert io_bytes(IO_FILE) == {"read": 2048 + 2048 + 512, "write": 2048 + 4096 + 1024}
    assert io_bytes(IO_FILE.split("\n\ndef get_args")[0]) is None


def test_io_bytes_on_a_recorded_kernel():
    text = data_path("flux_small", "kernels", "triton_poi_fused_add_mul_split_unsqueeze_view_11.py").read_text()
    # in_out_ptr0 (1, 512, 3072) bf16 3,145,728 B loaded and stored; in_ptr0 same size 3,145,728 B;
    # in_ptr1 (1, 18432) 36,864 B; in_ptr2 (512, 3072) 3,145,728 B
    assert io_bytes(text) == {"read": 3 * 3_145_728 + 36_864, "write": 3_145_728}


# ---- harvest -------------------------------------------------------------------------------------------

CACHE = data_path("flux_small", "cache")
WRAPPERS = sorted(CACHE.glob("*.py"))


@pytest.mark.parametrize("path", WRAPPERS, ids=lambda p: p.name[:5])
def test_parse_output_code_finds_every_kernel(path):
    text = path.read_text()
    records = parse_output_code(text, path.name)
    assert len(records) == text.count("async_compile.triton(")
    for r in records:
        assert f"{r.name} = async_compile.triton('{r.name}', '''" in text


def test_parse_output_code_reads_the_aten_comment():
    # cfbm5...py line 605, read by hand:
    # "# Topologically Sorted Source Nodes: [out_3, hidden_states_1, linear_1, mlp_hidden_states,
    #   hidden_states_3], Original ATen: [aten.permute, aten.view, aten.gelu, aten.cat]"
    path = CACHE / "cfbm5rlikdd3i4nwrjisdwdnpvd6rcylvg2fbg63hvhuqer6e47w.py"
    rec = next(r for r in parse_output_code(path.read_text()) if r.name == "triton_poi_fused_cat_gelu_permute_view_3")
    assert rec.aten_ops == ["aten.permute", "aten.view", "aten.gelu", "aten.cat"]
    assert rec.source_nodes == ["out_3", "hidden_states_1", "linear_1", "mlp_hidden_states", "hidden_states_3"]
    assert rec.kind == "pointwise" and rec.heuristic == "pointwise"


def _annotated_metrics(text: str) -> KernelMetrics:
    decorator = re.search(r"@triton\.jit\(launch_metadata=(KernelMetrics\(.*\))\)\n", text).group(1)
    return eval(decorator, {"KernelMetrics": KernelMetrics})


def _cpu_args(text: str, name: str) -> dict:
    params = [p.split(":")[0].strip() for p in re.search(rf"def {name}\(([^)]*)\)", text).group(1).split(",")]
    src = text[text.index("def get_args():"):text.index("\ndef call(")]
    ns = {"torch": torch,
          "rand_strided": lambda size, stride, device=None, dtype=None: torch.empty_strided(size, stride, dtype=dtype)}
    exec(src, ns)
    return dict(zip(params, ns["get_args"]()))


def _harvested():
    records = harvest_cache(CACHE)
    counts = {}
    for r in records:
        counts[r.name] = counts.get(r.name, 0) + 1
    stored_only = []   # read off the bodies: an in_out_ptr stored to and never loaded
    for r in records:
        stored = set(re.findall(r"tl\.store\((in_out_ptr\d+)", r.source))
        if stored - set(re.findall(r"tl\.load\((in_out_ptr\d+)", r.source)):
            stored_only.append(r.name)
    return records, counts, set(stored_only)


RECORDS, COUNTS, STORED_ONLY = _harvested()
@pytest.mark.parametrize("rec", [pytest.param(r, id=f"{r.name[:60]}.{r.source_sha}") for r in RECORDS])
def test_annotated_copy_gives_the_live_metrics(rec, tmp_path):
    rows = write_kernels([rec], tmp_path)
    text = (tmp_path / rows[0]["annotated_file"]).read_text()
    args = _cpu_args(text, rec.name)
    live = KernelMetrics.for_source(rec.name, rec.source, rec.heuristic)
    assert _annotated_metrics(text)((1, 1, 1), None, args) == live((1, 1, 1), None, args)


def test_stored_only_kernels_are_the_layer_norm_and_rope_ones():
    # two names (the layer norm one with two sources): the annotated copies the fix above is about
    assert STORED_ONLY == {"triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1",
                           "triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_"
                           "neg_permute_stack_unbind_unsqueeze_view_2"}
    assert COUNTS["triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1"] == 2
