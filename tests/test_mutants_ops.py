"""count_ops rule by rule on small kernel bodies, for the branches a mutation audit found unpinned: integer
type inference, accumulators named _tmp, unary minus, statements mixing a reduction or a math call with
other ops, math calls through libdevice's module path, and two-argument tl.full constants. Each expected
count is worked out in the comment beside it (weights: inductor_prof/inductor/ops.py)."""
import pytest

from inductor_prof.inductor.ops import OpCounts, count_ops


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
