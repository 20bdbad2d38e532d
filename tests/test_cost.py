"""The one cost model (inductor_prof/cost.py): each formula against a value counted by hand."""
import math

import pandas as pd
import pytest

from inductor_prof import cost
from inductor_prof.mask_pairs import CAUSAL, NONE, MaskSpec
from inductor_prof.attention.semantics.shapes import from_call
from inductor_prof.cost import aten_op, conv_output, grouped_gemm
from inductor_prof.drivers.torch_profiler import op_cost

BF16 = "c10::BFloat16"


def test_gemm_flops():
    # (2, 3, 5) @ (2, 5, 7): 2 * 3 * 7 outputs, 5 multiply-adds each = 2 flops x 5 x 42 = 420
    assert cost.gemm_flops(3, 7, 5, batch=2) == 420


# B=1, Hq=2, Sq=Sk=4, D=8: a kept pair costs 4 * D = 32 flops per head, 64 over both heads
@pytest.mark.parametrize("mask,kept", [
    (NONE, 16),                                          # every pair of 4 x 4
    (CAUSAL, 1 + 2 + 3 + 4),                             # row i keeps keys 0..i
    (MaskSpec("window", window=2), 1 + 2 + 2 + 2),       # row i keeps i-1..i
    (MaskSpec("padding", key_lengths=(3,)), 4 * 3),      # every row keeps the first 3 keys
    (MaskSpec("causal_padding", key_lengths=(2,)), 1 + 2 + 2 + 2),   # j <= i and j < 2
])
def test_attention_flops_by_mask(mask, kept):
    assert cost.attention_flops(mask, 1, 2, 4, 4, 8) == 64 * kept


def test_attention_flops_padding_per_batch():
    # two batches keeping 4 and 1 keys of 4: 4 rows x (4 + 1) = 20 pairs, x 4 * D(8) * Hq(1) = 640
    assert cost.attention_flops(MaskSpec("padding", key_lengths=(4, 1)), 2, 1, 4, 4, 8) == 640


def test_attention_flops_llama_call():
    # Llama's call: B=2, Hq=32, S=2048, D=64. Dense: 4*64*2*32*2048*2048 = 68,719,476,736; causal keeps
    # 2048*2049/2 = 2,098,176 pairs per (batch, head): 4*64*2*32*2,098,176 = 34,376,515,584
    assert cost.attention_flops(NONE, 2, 32, 2048, 2048, 64) == 68_719_476_736
    assert cost.attention_flops(CAUSAL, 2, 32, 2048, 2048, 64) == 34_376_515_584


def test_attention_bytes_reads_kv_at_their_own_heads():
    # q and out (1, 4, 3, 2): 24 elements each; k and v (1, 2, 5, 2): 20 each (GQA: 2 kv heads); bf16: 88 x 2 B
    assert cost.attention_bytes(1, 4, 2, 3, 5, 2, 2) == 176


def test_sdpa_call_priced_alike_in_the_kernel_and_attention_tables():
    # the kernel table prices a library attention kernel from its traced op (is_causal recorded), the attention
    # table from the captured call's Shape: one call, one number (34,376,515,584 flop, test above)
    dims = [[2, 32, 2048, 64], [2, 8, 2048, 64], [2, 8, 2048, 64]]
    op = "aten::_scaled_dot_product_flash_attention"
    kernel = op_cost(op, dims, [BF16] * 3, ["", "", "", "", "True"])
    shape = from_call({"B": 2, "H": 32, "Hkv": 8, "Sq": 2048, "Sk": 2048, "D": 64, "dtype": "bfloat16",
                       "causal": True})
    assert kernel["flops"] == shape.flops == 34_376_515_584 and kernel["flops_key"] == "flops16"


FLEX_CALL = {"op": "flex_attention", "B": 1, "H": 2, "Hkv": 2, "Sq": 4, "Sk": 4, "D": 8, "dtype": "bfloat16",
             "causal": False, "mask_kind": "causal"}


def test_flex_kernel_priced_at_its_calls_kept_pairs():
    # its launch_metadata saw 4 * 8 * 1 * 2 * 4 * 4 = 1024 flop a launch (every pair); the captured call keeps
    # the causal 10 of 16 pairs: 640 a launch, 3 launches: 1920 (the attention table's row: Shape.flops = 640)
    table = pd.DataFrame({"name": ["triton_tem_fused_0", "triton_poi_0"], "kind": ["flex_attention", "pointwise"],
                          "calls": [3, 3], "flops8": [0.0, 0.0], "flops16": [3072.0, 0.0], "flops32": [0.0, 30.0],
                          "flops64": [0.0, 0.0], "flops": [3072.0, 30.0]})
    priced = cost.with_flex_masks(table, [FLEX_CALL])
    assert list(priced["flops"]) == [1920.0, 30.0] and list(priced["flops16"]) == [1920.0, 0.0]
    assert priced.at[0, "flops"] / 3 == from_call(FLEX_CALL).flops == 640
    # no captured call of that dense cost (another shape): the dense count stays
    other = {**FLEX_CALL, "Sq": 8, "Sk": 8}
    assert list(cost.with_flex_masks(table, [other])["flops"]) == [3072.0, 30.0]


def test_rates_in_decimal_units():
    # 2e12 flop and 1e9 B in 0.5 s: 4 TFLOP/s and 2 GB/s (a GiB would read 1.86)
    assert cost.rates(2e12, 1e9, 0.5) == (4.0, 2.0)


def test_ridge_in_gb_not_gib():
    # 1000 TFLOP/s over 4000 GB/s: 1e15 / 4e12 = 250 flop/B (with 2**30 B per GB: 232.8)
    assert cost.ridge(1000, 4000) == pytest.approx(250.0, rel=1e-12)


def test_pct_of_peak_picks_the_bounding_roof():
    # 500 TFLOP/s of an 800 roof = 62.5%; 1000 GB/s of a 4000 roof = 25%
    assert cost.pct_of_peak(500, 1000, 800, 4000, True) == 62.5
    assert cost.pct_of_peak(500, 1000, 800, 4000, False) == 25.0
    both = cost.pct_of_peak(pd.Series([500.0, 500.0]), pd.Series([1000.0, 1000.0]), 800, 4000,
                            pd.Series([True, False]))
    assert list(both) == [62.5, 25.0]


def test_seconds_at_roofs_is_the_longer():
    # 8e12 flop at 800 TFLOP/s: 10 ms; 2e10 B at 4000 GB/s: 5 ms -> 10 ms; an unknown roof bounds nothing
    assert cost.seconds_at_roofs(8e12, 2e10, 800, 4000) == pytest.approx(0.010, rel=1e-12)
    assert cost.seconds_at_roofs(8e12, 2e10, math.nan, 4000) == pytest.approx(0.005, rel=1e-12)


# ---- mutation audit: FlexAttention launches that hide Q and K, defaults, batch in the bytes ------------------

def test_flex_call_flops_when_the_captured_calls_cost_the_same():
    # two captured calls of one shape, causal (10 of 16 pairs): 4 * 8 * 2 heads * 10 = 640, bf16 -> flops16
    assert cost.flex_call_flops([FLEX_CALL, dict(FLEX_CALL)]) == ("flops16", 640)
    # each dimension read from its own key: B=2, H=3, Sq=5, Sk=6, D=16, dense fp32 -> 4*16*3*2*5*6 = 11,520
    odd = {"op": "flex_attention", "B": 2, "H": 3, "Sq": 5, "Sk": 6, "D": 16, "dtype": "float32"}
    assert cost.flex_call_flops([odd]) == ("flops32", 11_520)
    assert cost.flex_call_flops([{**odd, "dtype": "float16"}]) == ("flops16", 11_520)
    assert cost.flex_call_flops([{k: v for k, v in odd.items() if k != "dtype"}]) == ("flops32", 11_520)
    # two costs, or a call the capture did not finish: no one price
    assert cost.flex_call_flops([FLEX_CALL, odd]) is None
    assert cost.flex_call_flops([FLEX_CALL, {"op": "flex_attention", "B": 1}]) is None
    assert cost.flex_call_flops([]) is None


def test_flex_kernel_without_q_and_k_in_its_launch_priced_at_its_calls():
    # a launch whose arguments hid Q and K has no flops of its own: 640 a captured call, 3 launches
    table = pd.DataFrame({"name": ["triton_tem_fused_1"], "kind": ["flex_attention"], "calls": [3],
                          "flops8": [0.0], "flops16": [0.0], "flops32": [0.0], "flops64": [0.0], "flops": [0.0]})
    priced = cost.with_flex_masks(table, [FLEX_CALL])
    assert (priced.at[0, "flops"], priced.at[0, "flops16"]) == (1920.0, 1920.0)


def test_flex_kept_fraction_over_the_calls_of_that_dense_cost():
    dense = 1024.0        # 4 * 8 * 1 * 2 * 4 * 4: FLEX_CALL's every pair
    window = {**FLEX_CALL, "mask_kind": "window", "window": 1}          # 4 of 16 pairs
    # two calls of that dense cost: (10 + 4) / (16 + 16); a call of another cost and an unfinished one left out
    other = {**FLEX_CALL, "Sq": 8}
    sdpa = {**FLEX_CALL, "op": "sdpa"}
    got = cost.flex_kept_fraction(dense, [FLEX_CALL, {"op": "flex_attention", "B": 1}, window, other, sdpa])
    assert got == pytest.approx(14 / 32)
    assert cost.flex_kept_fraction(dense * (1 + 1e-10), [FLEX_CALL]) == pytest.approx(10 / 16)   # rounding
    assert cost.flex_kept_fraction(dense * 1.001, [FLEX_CALL]) is None


def test_gemm_defaults_and_the_batch_in_attention_bytes():
    assert cost.gemm_flops(3, 7, 5) == 210                      # batch 1
    # B=2: q and out (2, 4, 3, 2) 48 elements each, k and v (2, 2, 5, 2) 40 each: 176 x 2 B
    assert cost.attention_bytes(2, 4, 2, 3, 5, 2, 2) == 352


# ---- mutation audit (issue 30): speed of light with one roof unknown, FlexAttention pricing's edges ------------

def test_seconds_at_roofs_with_one_roof_unknown():
    # per row: a kernel of no flops (no compute roof: NaN) at 4000 GB/s: 2e10 B -> 5 ms; a GEMM with no memory
    # roof: 8e12 flop at 800 TFLOP/s -> 10 ms. The unknown roof counts 0, never a second
    got = cost.seconds_at_roofs(pd.Series([0.0, 8e12]), pd.Series([2e10, 0.0]), pd.Series([math.nan, 800.0]),
                                pd.Series([4000.0, math.nan]))
    assert list(got) == [pytest.approx(0.005), pytest.approx(0.010)]
    assert cost.seconds_at_roofs(8e12, 2e10, 800, math.nan) == pytest.approx(0.010, rel=1e-12)
    # memory-bound scalar: 1e12 flop at 800 (1.25 ms) and 2e10 B at 4000 GB/s (5 ms): the longer
    assert cost.seconds_at_roofs(1e12, 2e10, 800, 4000) == pytest.approx(0.005, rel=1e-12)


def test_flex_pricing_takes_flexattention_calls_and_kernels_only():
    table = pd.DataFrame({"name": ["triton_tem_fused_0", "triton_tem_fused_mm_1"],
                          "kind": ["flex_attention", "template_mm"], "calls": [1, 1], "flops8": [0.0, 0.0],
                          "flops16": [1024.0, 1024.0], "flops32": [0.0, 0.0], "flops64": [0.0, 0.0],
                          "flops": [1024.0, 1024.0]})
    # one launch of the dense 1024 flop (FLEX_CALL's shape): the flex kernel at the causal 640; a GEMM template
    # of the same flops count is no attention and keeps its 1024
    assert list(cost.with_flex_masks(table, [FLEX_CALL])["flops"]) == [640.0, 1024.0]
    # an SDPA call of that shape prices nothing (only FlexAttention calls do); nor does a table of no kinds
    sdpa = {**FLEX_CALL, "op": "aten::_scaled_dot_product_cudnn_attention"}
    assert list(cost.with_flex_masks(table, [sdpa])["flops"]) == [1024.0, 1024.0]
    no_kind = table.drop(columns="kind")
    assert cost.with_flex_masks(no_kind, [FLEX_CALL]) is no_kind


# ---- collectives: nccl-tests' algbw and busbw, worked by hand ----------------------------------------------------

def test_collective_message_is_the_larger_side():
    # all_gather of 1 Mi bf16 elements a rank among 4: output 4 Mi elements, 8 MiB
    assert cost.collective_bytes(1 << 20, 4 << 20, 2) == 8 * 2**20
    # reduce_scatter, the other way round: input 4 Mi elements of 4 bytes
    assert cost.collective_bytes(4 << 20, 1 << 20, 4) == 16 * 2**20
    assert cost.collective_bytes(1000, 1000, 2) == 2000   # all_reduce: the buffer


@pytest.mark.parametrize("collective, group, busbw", [
    # 1 GB in 10 ms: algbw 100 GB/s in every case
    ("all_reduce", 2, 100.0),         # 100 * 2 * 1/2
    ("all_reduce", 8, 175.0),         # 100 * 2 * 7/8
    ("all_gather", 8, 87.5),          # 100 * 7/8
    ("reduce_scatter", 4, 75.0),      # 100 * 3/4
    ("all_to_all", 2, 50.0),          # 100 * 1/2
    ("broadcast", 8, 100.0),          # 100 * 1
    ("reduce", 8, 100.0),
    ("send_recv", 2, 100.0),
])
def test_collective_rates_as_nccl_tests(collective, group, busbw):
    algbw, bus = cost.collective_rates(collective, 1e9, group, 0.010)
    assert algbw == pytest.approx(100.0) and bus == pytest.approx(busbw)


def test_collective_without_a_bus_factor_has_no_busbw():
    algbw, bus = cost.collective_rates("barrier", 0, 2, 1e-5)
    assert algbw == 0 and bus != bus


# ---- library ops of other families: rows as torch.profiler recorded them on an H200 (2026-11-28, torch 2.11,
# examples/models: fp8_mlp, moe, convnet; the runs under examples/runs/) -------------------------------------------

def test_fp8_scaled_mm_is_8_bit_work_with_its_own_widths():
    # fp8_mlp's gate projection: (8192 x 4096) e4m3 @ (4096 x 14336) e4m3, fp32 scalar scales, bf16 out (code 15)
    dims = [[8192, 4096], [4096, 14336], [], [], [], [], [], [], [8192, 14336]]
    types = ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "", "", "Scalar", "Scalar",
             "c10::BFloat16"]
    scalars = ["", "", "", "", "", "", "15", "False", ""]
    c = aten_op("aten::_scaled_mm", dims, types, scalars)
    assert c["flops_key"] == "flops8" and c["flops"] == 2 * 8192 * 4096 * 14336
    # A and B one byte an element, the two 0-d fp32 scales 4 bytes each, the bf16 output 2 bytes an element
    assert c["bytes"] == 8192 * 4096 + 4096 * 14336 + 4 + 4 + 2 * 8192 * 14336
    assert c["unpriced"] == ""


def test_row_wise_scales_are_read_too():
    # the down projection: scale_a one per token (8192 x 1), scale_b one per output channel (1 x 4096)
    dims = [[8192, 14336], [14336, 4096], [8192, 1], [1, 4096], [], [], [], []]
    types = ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "", "", "Scalar", "Scalar"]
    c = aten_op("aten::_scaled_mm", dims, types, ["", "", "", "", "", "", "15", "False"])
    assert c["bytes"] == 8192 * 14336 + 14336 * 4096 + 4 * 8192 + 4 * 4096 + 2 * 8192 * 4096


def test_int8_gemm_writes_int32():
    c = aten_op("aten::_int_mm", [[8192, 4096], [4096, 14336], [8192, 14336]],
                ["signed char", "signed char", "int"], ["", "", ""])
    assert (c["flops_key"], c["dtype"]) == ("flops8", "int8")
    # operands a byte an element; the output is int32: 4 bytes (an out= tensor is the output, counted once)
    assert c["bytes"] == 8192 * 4096 + 4096 * 14336 + 4 * 8192 * 14336


def test_grouped_gemm_counts_its_tokens_once():
    # moe's gate/up projection: 8192 tokens x top-2 = 16384 rows split over 8 experts by the offsets
    c = aten_op("aten::_grouped_mm", [[16384, 2048], [8, 2048, 11264], [8], [], []],
                ["c10::BFloat16", "c10::BFloat16", "int", "", ""], ["", "", "", "", ""])
    # each row goes through one expert: 2 * 16384 * 2048 * 11264, not 8 times that
    assert c["flops"] == 2 * 16384 * 2048 * 11264 and c["flops_key"] == "flops16"
    # x and the 8 experts' weights (bf16), the int32 offsets, the (16384 x 11264) bf16 output
    assert c["bytes"] == 2 * 16384 * 2048 + 2 * 8 * 2048 * 11264 + 4 * 8 + 2 * 16384 * 11264


@pytest.mark.parametrize("a, b, flops, out", [
    ([6, 32, 16], [6, 16, 8], 2 * 6 * 32 * 16 * 8, [6, 32, 8]),      # batched: every group its own M
    ([32, 48], [48, 8], 2 * 32 * 48 * 8, [32, 8]),                   # K split into groups (a weight gradient)
    ([6, 32, 16], [16, 40], 2 * 32 * 16 * 40, [32, 40]),             # N split into groups
])
def test_grouped_gemm_forms(a, b, flops, out):
    assert grouped_gemm(a, b) == (flops, out)


def test_convolution_flops_from_its_output_size():
    # convnet's conv_in as recorded: x (8, 4, 64, 64), w (128, 4, 3, 3), padding 1, stride 1, dilation 1, groups 1
    dims = [[8, 4, 64, 64], [128, 4, 3, 3], [], [], [], [], [], [], []]
    types = ["c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "Scalar", "Scalar",
             "Scalar", "Scalar"]
    scalars = ["", "", "[1, 1]", "[1, 1]", "[1, 1]", "1", "False", "False", "True"]
    c = aten_op("aten::cudnn_convolution", dims, types, scalars)
    # output 8 x 128 x 64 x 64 (padding 1 keeps 64); each output: 4 channels x 9 taps, 2 flops each
    assert c["flops"] == 2 * (8 * 128 * 64 * 64) * 4 * 9 and c["flops_key"] == "flops16"
    assert c["bytes"] == 2 * (8 * 4 * 64 * 64 + 128 * 4 * 9 + 8 * 128 * 64 * 64)


def test_strided_dilated_grouped_convolution():
    # stride 2 halves 64 -> 32: (64 + 2 - 2 - 1) // 2 + 1 = 32; dilation 2 with padding 2 keeps 32;
    # 32 groups: each output sees 256 / 32 = 8 input channels
    scal = lambda pad, stride, dil, groups: ["", "", pad, stride, dil, groups, "False", "False", "True"]  # noqa: E731
    types = ["c10::BFloat16"] * 2 + ["ScalarList"] * 3 + ["Scalar"] * 4
    down = aten_op("aten::cudnn_convolution", [[8, 128, 64, 64], [128, 128, 3, 3]] + [[]] * 7, types,
                   scal("[1, 1]", "[2, 2]", "[1, 1]", "1"))
    assert down["flops"] == 2 * (8 * 128 * 32 * 32) * 128 * 9
    dilated = aten_op("aten::cudnn_convolution", [[8, 256, 32, 32], [512, 256, 3, 3]] + [[]] * 7, types,
                      scal("[2, 2]", "[1, 1]", "[2, 2]", "1"))
    assert dilated["flops"] == 2 * (8 * 512 * 32 * 32) * 256 * 9
    grouped = aten_op("aten::cudnn_convolution", [[8, 512, 16, 16], [512, 16, 3, 3]] + [[]] * 7, types,
                      scal("[1, 1]", "[1, 1]", "[1, 1]", "32"))
    assert grouped["flops"] == 2 * (8 * 512 * 16 * 16) * 16 * 9


def test_transposed_convolution_doubles_its_input():
    # convnet's up1 as recorded: x (8, 512, 16, 16), w (512, 256, 4, 4), padding 1, output_padding 0, stride 2:
    # output (16 - 1) * 2 - 2 + 3 + 0 + 1 = 32 a side, 256 channels; each input scattered to 256 x 16 outputs
    dims = [[8, 512, 16, 16], [512, 256, 4, 4]] + [[]] * 8
    types = ["c10::BFloat16"] * 2 + ["ScalarList"] * 4 + ["Scalar"] * 4
    scalars = ["", "", "[1, 1]", "[0, 0]", "[2, 2]", "[1, 1]", "1", "False", "False", "True"]
    c = aten_op("aten::cudnn_convolution_transpose", dims, types, scalars)
    assert c["flops"] == 2 * (8 * 512 * 16 * 16) * 256 * 16
    assert c["bytes"] == 2 * (8 * 512 * 16 * 16 + 512 * 256 * 16 + 8 * 256 * 32 * 32)


def test_convolution_output_size_is_torchs():
    torch = pytest.importorskip("torch")
    x = torch.zeros(1, 3, 17, 23)
    for stride, pad, dil in ((1, 0, 1), (2, 1, 1), (3, 2, 2)):
        conv = torch.nn.functional.conv2d(x, torch.zeros(5, 3, 3, 4), stride=stride, padding=pad, dilation=dil)
        assert conv_output([17, 23], [3, 4], [stride] * 2, [pad] * 2, [dil] * 2) == list(conv.shape[2:])
        up = torch.nn.functional.conv_transpose2d(x, torch.zeros(3, 5, 3, 4), stride=stride, padding=pad,
                                                  output_padding=stride - 1, dilation=dil)
        assert conv_output([17, 23], [3, 4], [stride] * 2, [pad] * 2, [dil] * 2, True, [stride - 1] * 2) \
            == list(up.shape[2:])


def test_memory_ops_priced_by_the_bytes_they_move():
    # moe's index_add as recorded: self (8192 x 2048) bf16, index (16384) int64, source (16384 x 2048) bf16:
    # each input read once, and an output as large as the largest input (source) written once
    c = aten_op("aten::index_add", [[8192, 2048], [], [16384], [16384, 2048], []],
                ["c10::BFloat16", "Scalar", "long int", "c10::BFloat16", "Scalar"], ["", "0", "", "", "1"])
    assert (c["flops"], c["flops_key"]) == (0, "")
    assert c["bytes"] == 2 * 8192 * 2048 + 8 * 16384 + 2 * 16384 * 2048 + 2 * 16384 * 2048
    # a copy reads its source and writes self; a fill only writes
    assert aten_op("aten::copy_", [[4, 8], [4, 8], []], ["float", "c10::BFloat16", "Scalar"])["bytes"] == 4 * 32 + 2 * 32
    assert aten_op("aten::fill_", [[4, 8], []], ["float", "Scalar"])["bytes"] == 4 * 32


@pytest.mark.parametrize("dims, types, why", [
    ([[], []], ["Scalar", "Scalar"], "no tensor inputs recorded"),
    ([[4, 8], [8, 2]], ["c10::complex<float>", "c10::complex<float>"], "unknown dtype"),
    ([[4, 8, 3, 3]], ["float"], "aten::cudnn_convolution: "),       # a convolution without its weight
    ([["s0", 8], ["s0", 2]], ["float", "float"], "no tensor inputs recorded"),   # symbolic sizes: no shape
])
def test_an_op_without_a_price_says_why(dims, types, why):
    op = "aten::cudnn_convolution" if len(dims) == 1 else "aten::mm"
    c = aten_op(op, dims, types)
    assert (c["flops"], c["bytes"]) == (0, 0) and why in c["unpriced"]


# ---- attention backward (training steps) ------------------------------------------------------------------

def test_cudnn_attention_backward_is_two_and_a_half_forwards_at_flux_shape():
    from inductor_prof.cost import aten_op

    # FLUX.1-dev's attention (1, 24, 4608, 128) bf16, dense: grad_out, q, k, v, out (B, H, S, D), logsumexp
    # (B, H, S) float32, then the rest; is_causal at position 14 ("False")
    q = [1, 24, 4608, 128]
    dims = [q, q, q, q, q, [1, 24, 4608], [], [], [], [], [], [], [], [], []]
    types = ["c10::BFloat16"] * 5 + ["float"] + [""] * 9
    scalars = [""] * 14 + ["False"]
    cost = aten_op("aten::_scaled_dot_product_cudnn_attention_backward", dims, types, scalars)
    # by hand: 4608^2 = 21,233,664 pairs per head; x 24 heads x 128 x 10 flops (5 matmuls of 2D) per pair
    assert cost["flops"] == 652_298_158_080 and cost["flops_key"] == "flops16"
    # the forward's 4 * D per pair: 260,919,263,232; the backward 2.5 times it
    forward = aten_op("aten::_scaled_dot_product_cudnn_attention", [q, q, q], ["c10::BFloat16"] * 3, [])
    assert cost["flops"] == 2.5 * forward["flops"] == 2.5 * 260_919_263_232
    # q, out, dO read + dq written: 4 x 24 x 4608 x 128 x 2 B; k, v read + dk, dv written: the same (no GQA);
    # logsumexp 24 x 4608 x 4 B: 113,246,208 + 113,246,208 + 442,368
    assert cost["bytes"] == 226_934_784


def test_flash_attention_backward_causal_gqa_in_bshd_layout():
    from inductor_prof.cost import aten_op

    # the decoder's attention: B 2, S 2048, 32 query / 8 key-value heads of 64, causal; _flash_attention_backward
    # records (B, S, H, D); is_causal at position 11
    q, k = [2, 2048, 32, 64], [2, 2048, 8, 64]
    dims = [q, q, k, k, q, [2, 32, 2048], [], [], [], [], [], [], [], []]
    types = ["c10::BFloat16"] * 5 + ["float"] + [""] * 8
    scalars = [""] * 11 + ["True"]
    cost = aten_op("aten::_flash_attention_backward", dims, types, scalars)
    # causal pairs: 2048 x 2049 / 2 = 2,098,176 per sequence, 4,196,352 over the batch; x 32 heads x 64 x 10
    assert cost["flops"] == 85_941_288_960
    # q-side: 4 x 2 x 32 x 2048 x 64 = 33,554,432 elements; k-side: 4 x 2 x 8 x 2048 x 64 = 8,388,608; x 2 B;
    # logsumexp 2 x 32 x 2048 x 4 B = 524,288
    assert cost["bytes"] == 2 * (33_554_432 + 8_388_608) + 524_288


def test_a_gather_moves_the_elements_it_picks_not_its_source():
    # examples/runs/llama-h200's aten::gather (the embedding lookup through an expanded index), as the H200's
    # torch.profiler recorded it: source [128256, 2048] bf16, dim 0, index [4096, 2048] int64 with strides [1, 0]
    # (one index a row, broadcast along the row), out [4096, 2048] bf16. By hand: 4096 x 2048 picked elements
    # read and written at 2 B = 33,554,432 B, plus 4096 distinct index elements at 8 B = 32,768: 33,587,200 B
    # (priced at the whole table it was 1,134,559,232 B, 103 TB/s in its 10,976 ns)
    c = cost.aten_op("aten::gather", [[128256, 2048], [], [4096, 2048], [], [4096, 2048]],
                     ["c10::BFloat16", "Scalar", "long int", "Scalar", "c10::BFloat16"], ["", "0", "", "False", ""],
                     [[2048, 1], [], [1, 0], [], [2048, 1]])
    assert c["bytes"] == 33_587_200 and c["unpriced"] == ""
    # without strides the index counts whole: 4096 x 2048 x 8 more
    assert cost.aten_op("aten::gather", [[128256, 2048], [], [4096, 2048]],
                        ["c10::BFloat16", "Scalar", "long int"], ["", "0", ""])["bytes"] == 33_554_432 + 67_108_864
    # an embedding of 2 x 2048 token ids into a [128256, 2048] table: 4096 rows of 2048 picked, ids read once
    assert cost.aten_op("aten::embedding", [[128256, 2048], [2, 2048]],
                        ["c10::BFloat16", "long int"], ["", ""])["bytes"] == 33_554_432 + 4096 * 8
    # index_select along dim 1 of a [64, 1000] fp32 tensor with 10 indices: 64 x 10 picked, 2 x 2560 + 80
    assert cost.aten_op("aten::index_select", [[64, 1000], [], [10]], ["float", "Scalar", "long int"],
                        ["", "1", ""])["bytes"] == 2 * 640 * 4 + 80


def test_nll_loss_moves_one_value_a_row():
    # llama-train-h200's loss (H200 records): log-probs [4094, 128256] fp32, targets [4094] int64. One class's
    # log-prob a row read (forward) or its gradient written (backward, into a zeroed grad_input): 4094 x 4 B, plus
    # the targets 4094 x 8 B = 49,128 B (priced at the whole [4094, 128256] it was 4.2 GB, 215 TB/s)
    fwd = cost.aten_op("aten::nll_loss_forward", [[4094, 128256], [4094], [], [], []],
                       ["float", "long int", "", "Scalar", "Scalar"], ["", "", "", "1", "-100"],
                       [[128256, 1], [1], [], [], []])
    bwd = cost.aten_op("aten::nll_loss_backward", [[], [4094, 128256], [4094], [], [], [], []],
                       ["float", "float", "long int", "", "Scalar", "Scalar", "float"],
                       ["", "", "", "", "1", "-100", ""], [[], [128256, 1], [1], [], [], [], []])
    assert fwd["bytes"] == bwd["bytes"] == 4094 * 4 + 4094 * 8


# FLUX's training step on the H200 (flux --train, SDPA on flash: session 28's call 1), two library_ops.csv rows as
# recorded: the flash kernels' own ops take (B, S, H, D), 24 heads of 128 over 4608 tokens, not causal
FLUX_FLASH_FORWARD = (
    [[1, 4608, 24, 128]] * 3 + [[]] * 12,
    ["c10::BFloat16"] * 3 + ["", "", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "", "", "", ""],
    ["", "", "", "", "", "4608", "4608", "0.", "False", "False", "0.088388347648318433", "", "", "", ""])
FLUX_FLASH_BACKWARD = (
    [[1, 4608, 24, 128]] * 5 + [[1, 24, 4608], [], [], [], [], [], [], [2], [], [], [], []],
    ["c10::BFloat16"] * 5 + ["float", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "long unsigned int",
                             "long unsigned int", "Scalar", "", ""],
    ["", "", "", "", "", "", "", "", "4608", "4608", "0.", "False", "", "", "0.088388347648318433", "", ""])


def test_flash_forward_op_read_in_its_own_bshd_layout():
    from inductor_prof.cost import aten_op

    cost = aten_op("aten::_flash_attention_forward", *FLUX_FLASH_FORWARD)
    # every pair: 4608^2 = 21,233,664 per head; x 24 heads x 128 x 4 (QK^T and PV, 2 flops a multiply-add)
    assert cost["flops"] == 260_919_263_232
    # read as (B, H, S, D) it was 4 x 4608 x 24^2 x 128 = 1,358,954,496: heads and tokens swapped
    # q, k, v read and out written: 4 x 4608 x 24 x 128 x 2 B
    assert cost["bytes"] == 113_246_208
    assert (cost["flops_key"], cost["unpriced"]) == ("flops16", "")


def test_flash_backward_with_its_philox_seed_tensors_is_priced():
    from inductor_prof.cost import aten_op

    # its philox seed and offset are uint64 tensors ("long unsigned int"): they made it "unknown dtype"
    cost = aten_op("aten::_flash_attention_backward", *FLUX_FLASH_BACKWARD)
    assert cost["unpriced"] == ""
    assert cost["flops"] == 652_298_158_080        # 10 x 128 x 24 x 4608^2: 2.5 x the forward's
    # q, out, dO read and dq written, k, v read and dk, dv written: 8 x 4608 x 24 x 128 x 2 B = 226,492,416;
    # the float32 logsumexp 24 x 4608 x 4 B = 442,368
    assert cost["bytes"] == 226_934_784
