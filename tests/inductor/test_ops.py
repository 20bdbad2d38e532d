"""The flops definition rule by rule (inductor/ops.py, inductor/metrics.py): small hand-written kernel bodies and
launch arguments, every expected count derived by hand; and the math-call weights tied to the H100 measurement
they come from (examples/calibration/math-flops-h100.json, written by scripts/calibrate_math_flops.py)."""
import json
import textwrap
from decimal import ROUND_HALF_UP, Decimal

import pytest
import torch

from inductor_prof.inductor.metrics import elementwise_metrics, reduction_lanes
from inductor_prof.inductor.ops import MATH_FLOPS, OpCounts, count_ops
from recorded import REPO

CALIBRATION = REPO / "examples" / "calibration" / "math-flops-h100.json"
MEASURED = json.loads(CALIBRATION.read_text())["per_element_flops"]


def _two_decimals(x: float) -> float:
    # half up, as a person rounds 21.125 -> 21.13 (Python's round() gives 21.12: the float is exact, ties to even)
    return float(Decimal(repr(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _body(lines: str) -> str:
    head = "def k(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):\n"
    return head + textwrap.indent(textwrap.dedent(lines).strip("\n"), "    ") + "\n"


# ---- the weights come from the measurement ------------------------------------------------------------------

def test_math_flops_equal_the_h100_measurement():
    shared = set(MATH_FLOPS) & set(MEASURED)
    # every weight was measured except log2 (taken as 0 like exp2, its MUFU twin, which measured 0.0)
    assert set(MATH_FLOPS) - shared == {"log2"} and MEASURED["exp2"] == 0.0
    assert {k: MATH_FLOPS[k] for k in shared} == {k: _two_decimals(MEASURED[k]) for k in shared}
    # spot checks read off the JSON: tanh 9.26, erf 22.0, sin 18.277 -> 18.28, expm1 21.125 -> 21.13, pow 63.251
    assert (MATH_FLOPS["tanh"], MATH_FLOPS["erf"], MATH_FLOPS["sin"], MATH_FLOPS["expm1"], MATH_FLOPS["pow"]) == \
        (9.26, 22.0, 18.28, 21.13, 63.25)


# each call as the calibration wrote it (scripts/calibrate_math_flops.py CALLS); the others are libdevice.NAME(x)
CALL_AS_INDUCTOR_WRITES = {"maximum": "triton_helpers.maximum(tmp0, tmp1)",
                           "minimum": "triton_helpers.minimum(tmp0, tmp1)", "sigmoid": "tl.sigmoid(tmp0)",
                           "exp": "tl_math.exp(tmp0)", "abs": "tl_math.abs(tmp0)", "log": "tl_math.log(tmp0)",
                           "sin": "tl_math.sin(tmp0)", "cos": "tl_math.cos(tmp0)",
                           "fma": "libdevice.fma(tmp0, tmp1, tmp0)", "pow": "libdevice.pow(tmp0, tmp1)",
                           "div_rn": "libdevice.div_rn(tmp0, tmp1)"}


@pytest.mark.parametrize("name", sorted(set(MATH_FLOPS) & set(MEASURED)))
def test_a_math_call_counts_what_ncu_measured_for_it(name):
    call = CALL_AS_INDUCTOR_WRITES.get(name, f"libdevice.{name}(tmp0)")
    src = _body(f"""
        tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
        tmp1 = tl.load(in_ptr1 + (x0), xmask).to(tl.float32)
        tmp2 = {call}
        """)
    assert count_ops(src) == OpCounts(per_element=_two_decimals(MEASURED[name]))


@pytest.mark.parametrize("op, measured", [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "div")])
def test_an_operator_counts_what_ncu_measured_for_it(op, measured):
    # ncu counted one FP instruction per element for x + y, x - y, x * y and x / y alike
    assert MEASURED[measured] == 1.0
    src = _body(f"""
        tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
        tmp1 = tmp0 {op} tmp0
        """)
    assert count_ops(src) == OpCounts(per_element=1.0)


# ---- count_ops, rule by rule -----------------------------------------------------------------------------------

def test_integer_index_and_mask_arithmetic_counts_nothing():
    # all integer: index sums and products, comparisons, masks, tl.full(..., tl.int64) constants and sums with
    # them, a tl.where of two integer values; ncu counts no integer instruction as FP
    src = _body("""
        x0 = xindex % 3072
        tmp0 = x0 + 512
        tmp1 = tmp0 * 2
        tmp3 = tl.full([1], 4608, tl.int64)
        tmp4 = tmp0 < tmp3
        tmp5 = tmp1 - tmp3
        tmp6 = r0_mask & xmask
        tmp7 = tl.where(tmp4, tmp0, tmp5)
        tmp8 = tmp7 // 24
        tmp9 = tl.load(in_ptr0 + (tmp8 + 3072 * x0), tmp6 & tmp4, other=0.0)
        """)
    assert count_ops(src) == OpCounts(0, 0, 0)


def test_float_operators_count_one_each_also_on_an_index_cast_to_float():
    # tmp2 = index cast to fp32: a float from then on. tmp3 + (1), tmp4 * (1), tmp5 / (1), tmp6 - (1) -> 4
    src = _body("""
        tmp0 = x0 + 512
        tmp1 = tl.load(in_ptr0 + (tmp0), xmask).to(tl.float32)
        tmp2 = tmp0.to(tl.float32)
        tmp3 = tmp1 + tmp2
        tmp4 = tmp3 * tmp1
        tmp5 = tmp4 / tmp2
        tmp6 = tmp5 - tmp1
        """)
    assert count_ops(src) == OpCounts(per_element=4)


def test_unary_minus_counts_on_a_float_variable_not_on_a_literal():
    # tmp1 = -tmp0: an FP negation ncu counted (neg 1.0 in the calibration); tmp2 = -1e-06 is a constant;
    # tmp3 = tmp0 * tmp2 (1) -> 2 per element
    assert MEASURED["neg"] == 1.0
    src = _body("""
        tmp0 = tl.load(in_ptr0 + (x0), xmask).to(tl.float32)
        tmp1 = -tmp0
        tmp2 = -1e-06
        tmp3 = tmp0 * tmp2
        """)
    assert count_ops(src) == OpCounts(per_element=2)


def test_a_tl_full_float_constant_keeps_an_op_per_row():
    # Inductor's layer-norm tail: var / 3072 + eps, rsqrt, on the reduced row (tl.full constants are not
    # per-element data): / (1) and + (1) per row, rsqrt 0; x - mean (1) and * rstd (1) per element;
    # the welford combine 10 per lane
    src = _body("""
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072 * x0), r0_mask, other=0.0).to(tl.float32)
        tmp1, tmp2, tmp3 = triton_helpers.welford(tmp0, tmp0, tmp0, 1)
        tmp4 = tmp1[:, None]
        tmp5 = tmp2[:, None]
        tmp6 = tl.full([1, 1], 3072.0, tl.float32)
        tmp7 = (tmp5 / tmp6)
        tmp8 = tl.full([1, 1], 1e-06, tl.float32)
        tmp9 = tmp7 + tmp8
        tmp10 = libdevice.rsqrt(tmp9)
        tmp11 = tmp0 - tmp4
        tmp12 = tmp11 * tmp10
        """)
    assert count_ops(src) == OpCounts(per_element=2, per_lane=10, per_row=2)


def test_welford_reduce_counts_seven_per_element():
    # a looped layer norm's first loop: the update (sub, add, div, add, sub, FMA = 7) on each element; the
    # tl.where keeping the running values and `roffset == 0` count nothing
    src = _body("""
        tmp0 = tl.load(in_ptr0 + (r0_1 + 3072 * x0), r0_mask, other=0.0).to(tl.float32)
        tmp1_mean_next, tmp1_m2_next, tmp1_weight_next = triton_helpers.welford_reduce(
            tmp0, tmp1_mean, tmp1_m2, tmp1_weight, roffset == 0
        )
        tmp1_mean = tl.where(r0_mask & xmask, tmp1_mean_next, tmp1_mean)
        tmp1_m2 = tl.where(r0_mask & xmask, tmp1_m2_next, tmp1_m2)
        tmp1_weight = tl.where(r0_mask & xmask, tmp1_weight_next, tmp1_weight)
        """)
    assert count_ops(src) == OpCounts(per_element=7)


@pytest.mark.parametrize("reduce, per_lane", [
    ("tl.sum(tmp1, 1)[:, None]", 1),                                # one add per lane
    ("triton_helpers.welford(tmp1, tmp1, tmp1, 1)[0][:, None]", 10),  # sub, add, div, 2 FMA, add, 2 mul = 10
    ("triton_helpers.max2(tmp1, 1)[:, None]", 0),                   # FMNMX: no FP arithmetic
])
def test_a_cross_lane_reduction_counts_its_combine_per_lane(reduce, per_lane):
    # x * x (1 per element) reduced; the reduced row scaled by a tl.full constant (1 per row)
    src = _body(f"""
        tmp0 = tl.load(in_ptr0 + (r0_1 + 128 * x0), r0_mask, other=0.0).to(tl.float32)
        tmp1 = tmp0 * tmp0
        tmp2 = {reduce}
        tmp3 = tl.full([1, 1], 128.0, tl.float32)
        tmp4 = tmp2 / tmp3
        """)
    assert count_ops(src) == OpCounts(per_element=1, per_lane=per_lane, per_row=1)


def test_loop_sum_counts_its_running_add_per_element_and_its_final_sum_per_lane():
    # Inductor's looped sum: `_tmp4 + tmp3` per element in the loop (with x*x: 2), tl.sum over the lanes (1)
    src = _body("""
        _tmp4 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
        tmp0 = tl.load(in_ptr0 + (r0_1 + 128 * x0), r0_mask, other=0.0).to(tl.float32)
        tmp3 = tmp0 * tmp0
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(r0_mask, tmp5, _tmp4)
        tmp4 = tl.sum(_tmp4, 1)[:, None]
        """)
    assert count_ops(src) == OpCounts(per_element=2, per_lane=1, per_row=0)


# ---- lanes and padding: reduction_lanes and elementwise_metrics ------------------------------------------------

ROWS = 8
LN_OPS = OpCounts(per_element=12, per_lane=10, per_row=2)     # the recorded layer norm's counts


def test_looped_reduction_pads_each_row_to_whole_r0_blocks():
    x = torch.empty(ROWS, 3072, dtype=torch.bfloat16)
    out = torch.empty(ROWS, 3072, dtype=torch.bfloat16)
    args = {"in_ptr0": x, "out_ptr0": out, "xnumel": ROWS, "r0_numel": 3072, "XBLOCK": 1, "R0_BLOCK": 2048}
    # a row of 3072 at R0_BLOCK 2048 runs two blocks: 4096 lanes computed (the second block 1024 masked),
    # 2048 lanes per row for the cross-lane combine
    assert reduction_lanes(args) == (ROWS * 4096, 2048)
    # 12 x 8 x 4096 + 10 x 2048 x 8 + 2 x 8 = 393,216 + 163,840 + 16 = 557,072; bytes: the real 3072 per row,
    # read and written, 8 x 3072 x 2 B x 2 = 98,304
    assert elementwise_metrics(args, LN_OPS) == {"flops32": 557_072, "bytes": 98_304}


def test_looped_reduction_with_whole_blocks_has_no_padding():
    args = {"xnumel": ROWS, "r0_numel": 3072, "XBLOCK": 1, "R0_BLOCK": 512}
    # 3072 / 512 = 6 whole blocks: 3072 lanes computed per row, 512 for the combine
    assert reduction_lanes(args) == (ROWS * 3072, 512)
    # 12 x 8 x 3072 + 10 x 512 x 8 + 2 x 8 = 294,912 + 40,960 + 16 = 335,888
    assert elementwise_metrics(args, LN_OPS)["flops32"] == 335_888


def test_persistent_reduction_block_is_the_row_rounded_up_to_a_power_of_two():
    x = torch.empty(ROWS, 3000, dtype=torch.float32)
    out = torch.empty(ROWS, dtype=torch.float32)
    args = {"in_ptr0": x, "out_ptr0": out, "xnumel": ROWS, "r0_numel": 3000, "XBLOCK": 1}   # no R0_BLOCK argument
    # the row of 3000 is one block of 4096 lanes
    assert reduction_lanes(args) == (ROWS * 4096, 4096)
    # sum of squares: 1 per element, 1 per lane: 1 x 8 x 4096 + 1 x 4096 x 8 = 65,536; bytes 8 x 3000 x 4 + 8 x 4
    assert elementwise_metrics(args, OpCounts(1, 1, 0)) == {"flops32": 65_536, "bytes": 96_000 + 32}


def test_pointwise_kernel_has_no_padding_and_no_lanes():
    x = torch.empty(1000, dtype=torch.bfloat16)
    args = {"in_out_ptr0": x, "xnumel": 1000, "XBLOCK": 1024}
    assert reduction_lanes(args) == (1000, 0)      # XBLOCK does not pad: flops of the 1000 real elements
    # the tanh GELU: 17.26 x 1000 = 17,260; in_out loaded and stored: 1000 x 2 B x 2
    assert elementwise_metrics(args, OpCounts(per_element=17.26)) == {"flops32": 17_260, "bytes": 4000}
    # a 2-D pointwise tile (ynumel x xnumel) is no reduction either
    assert reduction_lanes({"ynumel": 24, "xnumel": 128, "YBLOCK": 32, "XBLOCK": 32}) == (24 * 128, 0)


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

def ops(body: str) -> OpCounts:
    return count_ops("def k(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):\n" + body)


@pytest.mark.parametrize("line,expect", [
    ("tmp1 = -x0", 0),                                    # unary minus on an index: integer
    ("tmp1 = tmp0 < tmp9\n    tmp2 = tmp1 * tmp1", 0),    # a comparison is a mask; mask * mask is integer
    ("tmp1 = x0 + 512", 0),                               # index + int literal
    ("tmp1 = x0 + 0.5", 1),                               # index + float literal: a float add
    ("tmp1 = x0 & r0_1", 0),                              # bit and
    ("tmp1 = tl.zeros([XBLOCK, 1], tl.int32)\n    tmp2 = tmp1 + tmp1", 0),
    ("tmp1 = tmp7.to(tl.int64)\n    tmp2 = tmp1 + tmp1", 0),
    ("tmp1 = tmp7.to(tl.float32)\n    tmp2 = tmp1 + tmp1", 1),
    ("tmp1 = tl.where(tmp9, x0, r0_1)\n    tmp2 = tmp1 + tmp1", 0),     # both branches integer
    ("tmp1 = tl.where(tmp9, x0, tmp7)\n    tmp2 = tmp1 + tmp1", 1),     # one branch a float
    ("tmp1 = tl.broadcast_to(x0, [XBLOCK, 1])\n    tmp2 = tmp1 + tmp1", 0),
    ("tmp1 = tl.reshape(x0, [XBLOCK])\n    tmp2 = tmp1 + tmp1", 0),
    ("tmp1 = x0[:, None]\n    tmp2 = tmp1 + tmp1", 0),   # a subscript of an index is an index
])
def test_integer_arithmetic_is_not_counted(line, expect):
    tmp7 = "tmp7 = tl.load(in_ptr0 + x0).to(tl.float32)\n    "
    assert ops("    " + tmp7 + line + "\n").per_element == expect


def test_unary_minus_on_a_float_counts_once_on_a_literal_never():
    # tmp2 = -tmp1: 1; tmp3 = tmp2 * -2.0: the multiply 1, the literal's minus 0 -> 2 in all
    body = "    tmp1 = tl.load(in_ptr0 + x0)\n    tmp2 = -tmp1\n    tmp3 = tmp2 * -2.0\n"
    assert ops(body).per_element == 2


def test_underscore_accumulators_are_temporaries():
    # a reduction loop's accumulator `_tmp4 = _tmp4 + tmp3` is a float add per element
    body = ("    _tmp4 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)\n"
            "    tmp3 = tl.load(in_ptr0 + r0_1)\n    tmp5 = _tmp4 + tmp3\n    _tmp4 = tl.where(r0_mask, tmp5, _tmp4)\n")
    assert ops(body).per_element == 1


def test_a_statement_with_a_reduction_and_more_ops_counts_them_all():
    # tl.sum(tmp1 * tmp2, 1): the multiply once per element, the sum's add once per lane
    body = "    tmp1 = tl.load(in_ptr0 + x0)\n    tmp2 = tmp1 + 1.0\n    tmp3 = tl.sum(tmp1 * tmp2, 1)\n"
    got = ops(body)
    assert (got.per_element, got.per_lane) == (2, 1)       # tmp2's add + the multiply; the combine
    # a Welford update and an op in one statement: 7 + 1
    body = ("    tmp1 = tl.load(in_ptr0 + x0)\n"
            "    tmp2, tmp3, tmp4 = triton_helpers.welford_reduce(tmp1 * 2.0, tmp5, tmp6, tmp7, roffset == 0)\n")
    assert ops(body).per_element == 8
    # two combines in one statement add: 1 (sum) + 10 (welford) per lane
    body = ("    tmp1 = tl.load(in_ptr0 + x0)\n"
            "    tmp2 = tl.sum(tmp1, 1) + triton_helpers.welford(tmp1, tmp1, tmp1, 1)[0]\n")
    assert ops(body).per_lane == 11


def test_a_reduction_makes_its_result_a_row_value():
    # tmp3 comes from the reduction, so tmp4 = tmp3 * 2.0 runs once per row, not per element
    body = "    tmp1 = tl.load(in_ptr0 + x0)\n    tmp3 = tl.sum(tmp1, 1)[:, None]\n    tmp4 = tmp3 * 2.0\n"
    assert ops(body) == OpCounts(0, 1, 1)


def test_math_calls_weigh_their_measured_cost_others_one():
    # tanh 9.26 and the multiply 1; a libdevice function not in the table (nextafter) counts 1; one reached
    # through a module path (tl.extra.cuda.libdevice.nextafter) is still libdevice's: 1
    body = ("    tmp1 = tl.load(in_ptr0 + x0)\n    tmp2 = libdevice.tanh(tmp1) * 0.5\n"
            "    tmp3 = libdevice.nextafter(tmp1, tmp2)\n    tmp4 = tl.extra.cuda.libdevice.nextafter(tmp1, tmp3)\n")
    assert ops(body).per_element == pytest.approx(9.26 + 1 + 1 + 1)


def test_two_argument_full_is_a_constant():
    # tl.full([1, 1], 3072.0) without a dtype is still a constant: tmp6 = tmp5 / tmp4 stays per row
    body = ("    tmp1 = tl.load(in_ptr0 + x0)\n    tmp5 = tl.sum(tmp1, 1)[:, None]\n"
            "    tmp4 = tl.full([1, 1], 3072.0)\n    tmp6 = tmp5 / tmp4\n")
    assert ops(body) == OpCounts(0, 1, 1)


def test_a_source_without_a_function_counts_nothing():
    assert count_ops("x = 1\n") == OpCounts(0, 0, 0)
