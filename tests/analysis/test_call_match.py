"""analysis/call_match.py: library calls paired by op and shape, whatever kernel ran them. The call tables are
written by hand (shapes as library_ops.csv spells them: FLUX's GEMMs of the two recorded example runs)."""
import json

import pandas as pd

from inductor_prof.analysis.call_match import match_calls, size_change
from inductor_prof.analysis.library_calls import pair_label

K256 = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"
K192 = "nvjet_sm90_tst_192x192_64x4_1x2_h_bz_coopB_bias_TNN"
K192V = "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"


def _addmm(m: int, k: int, n: int) -> str:
    return json.dumps([[n], [m, k], [k, n], [], [], [m, n]])


def _calls(*rows) -> pd.DataFrame:
    """rows: (id, kernel, op, dims, calls_per_step, step_ms[, modules])."""
    recs = [{"kernel": r[1], "op": r[2], "dims": r[3], "calls_per_step": r[4], "step_ms": r[5],
             "modules": json.dumps(r[6]) if len(r) > 6 else ""} for r in rows]
    return pd.DataFrame(recs, index=pd.Index([r[0] for r in rows], dtype=object))


def _pairs(a, b) -> list[tuple]:
    return [tuple(r) for r in match_calls(a, b).itertuples(index=False)]


def test_the_same_shape_on_another_kernel_is_one_pair():
    # B: cuBLAS ran the ff.net.0.proj GEMM on another kernel (as in examples/runs/flux-h100-768x1344); pairing
    # by kernel name would leave A's call removed and B's new
    a = _calls(("a1", K256, "aten::addmm", _addmm(4096, 3072, 12288), 19, 7.43),
               ("a2", K256, "aten::addmm", _addmm(4096, 3072, 3072), 76, 7.60))
    b = _calls(("b1", K192, "aten::addmm", _addmm(4096, 3072, 12288), 19, 7.61),
               ("b2", K256, "aten::addmm", _addmm(4096, 3072, 3072), 76, 7.59))
    assert _pairs(a, b) == [("a2", "b2", "op+shape"), ("a1", "b1", "op+shape (other kernel)")]


def test_a_gemm_whose_m_changed_pairs_by_its_weights():
    # another image size: M 4096 -> 4032 (double blocks) and 4608 -> 4544 (single blocks), same weights [K,N].
    # A's 4096-row GEMM is one size from B's 4032 and from B's 4544 calls alike; the same calls per step (76,
    # 114: the layers that call it) decide, then the nearer size
    a = _calls(("a4096", K256, "aten::addmm", _addmm(4096, 3072, 3072), 76, 7.6),
               ("a4608", K192V, "aten::addmm", _addmm(4608, 3072, 3072), 114, 13.7))
    b = _calls(("b4544", K192V, "aten::addmm", _addmm(4544, 3072, 3072), 114, 13.8),
               ("b4032", K256, "aten::addmm", _addmm(4032, 3072, 3072), 76, 7.6))
    assert sorted(_pairs(a, b)) == [("a4096", "b4032", "op (one size differs)"),
                                    ("a4608", "b4544", "op (one size differs)")]


def test_modules_decide_and_never_pair_other_layers():
    # same calls per step; the modules (library_ops.csv `modules`) say which layer each call is
    a = _calls(("a_ff", K256, "aten::addmm", _addmm(4096, 3072, 3072), 4, 1.0, ["blocks.*.ff"]),
               ("a_q", K256, "aten::addmm", _addmm(512, 3072, 3072), 4, 1.0, ["blocks.*.to_q"]))
    b = _calls(("b_q", K256, "aten::addmm", _addmm(1024, 3072, 3072), 4, 1.0, ["blocks.*.to_q"]),
               ("b_ff", K256, "aten::addmm", _addmm(4032, 3072, 3072), 4, 1.0, ["blocks.*.ff"]))
    assert sorted(_pairs(a, b)) == [("a_ff", "b_ff", "op (one size differs)"),
                                    ("a_q", "b_q", "op (one size differs)")]
    b_other = _calls(("b_x", K256, "aten::addmm", _addmm(4032, 3072, 3072), 4, 1.0, ["blocks.*.proj_out"]))
    assert _pairs(a.loc[["a_ff"]], b_other) == [("a_ff", None, ""), (None, "b_x", "")]


def test_size_change():
    assert size_change("aten::addmm", _addmm(4096, 3072, 12288), _addmm(4032, 3072, 12288)) == (4096, 4032)
    # M = K = 3072 in A: only the M positions change (one size: 3072 -> 4032)
    assert size_change("aten::addmm", _addmm(3072, 3072, 3072), _addmm(4032, 3072, 3072)) == (3072, 4032)
    # the weight changed (K): not the same GEMM at another size
    assert size_change("aten::addmm", _addmm(4096, 3072, 3072), _addmm(4096, 4032, 3072)) is None
    assert size_change("aten::addmm", _addmm(4096, 3072, 3072), _addmm(4032, 3072, 6144)) is None   # two sizes
    attn = "[[1, 24, {s}, 128], [1, 24, {s}, 128], [1, 24, {s}, 128], [], []]"
    assert size_change("aten::_cudnn_attention_forward", attn.format(s=4608), attn.format(s=4544)) == (4608, 4544)
    assert size_change("aten::cat", "[[[512, 3], [4096, 3]], []]", "[[512, 3], [4096, 3], []]") is None  # nesting


def test_kernels_without_calls_pair_by_name_and_the_rest_is_new_or_removed():
    # a library kernel library_ops.csv does not hold is one call of op "" (diff_kernels.items)
    a = _calls(("x", "memcpy_kernel", "", "", 2, 0.1), ("g", K256, "aten::addmm", _addmm(4096, 3072, 3072), 1, 1.0))
    b = _calls(("y", "memcpy_kernel", "", "", 2, 0.1), ("h", K256, "aten::mm", "[[4096, 3072], [3072, 3072]]", 1, 1.0))
    assert _pairs(a, b) == [("x", "y", "name"), ("g", None, ""), (None, "h", "")]


def test_pair_label():
    assert pair_label("aten::addmm", _addmm(4096, 3072, 12288), _addmm(4032, 3072, 12288)) == \
        "addmm [4096→4032,3072]x[3072,12288]"
    assert pair_label("aten::addmm", _addmm(512, 3072, 3072), None) == "addmm [512,3072]x[3072,3072]"
    attn = "[[1, 24, {s}, 128], [1, 24, {s}, 128], [1, 24, {s}, 128], [], []]"
    assert pair_label("aten::_cudnn_attention_forward", attn.format(s=4608), attn.format(s=4544)) == \
        "_cudnn_attention_forward [1,24,4608→4544,128] ×3"
    assert pair_label("", "", "") == ""


# ---- mutation audit (issue 30): tie-breaks, weights of every GEMM form, cells pandas reads as NaN -------------

def test_the_moved_call_pairs_with_the_nearest_time():
    # A's call (0.5 ms a step) ran on two other kernels in B: 2.0 ms (listed first) and 0.45 ms. The nearer time
    # is by ratio: |ln(0.5 / 0.45)| = 0.105 < |ln(0.5 / 2.0)| = 1.386; the other B call is new, A's call paired once
    shape = _addmm(4096, 3072, 3072)
    a = _calls(("a", K256, "aten::addmm", shape, 4, 0.5))
    b = _calls(("far", K192V, "aten::addmm", shape, 4, 2.0), ("near", K192, "aten::addmm", shape, 4, 0.45))
    assert _pairs(a, b) == [("a", "near", "op+shape (other kernel)"), (None, "far", "")]


def test_calls_of_no_time_still_pair():
    # a call with 0 ms in either run has no time ratio (ranked last, no log of 0): it pairs all the same
    shape = _addmm(4096, 3072, 3072)
    for ms_a, ms_b in ((0.0, 1.0), (1.0, 0.0)):
        a = _calls(("a", K256, "aten::addmm", shape, 4, ms_a))
        b = _calls(("b", K192, "aten::addmm", shape, 4, ms_b))
        assert _pairs(a, b) == [("a", "b", "op+shape (other kernel)")]


def test_kernels_without_calls_never_pair_across_kernel_names():
    # op "" rows (no library_ops.csv row) pair by name only: two different kernels stay removed and new
    a = _calls(("x", "memcpy_kernel", "", "", 2, 0.1))
    b = _calls(("y", "memset_kernel", "", "", 2, 0.1))
    assert _pairs(a, b) == [("x", None, ""), (None, "y", "")]


def test_a_gemm_whose_weights_changed_is_not_paired():
    # K 3072 -> 4032 changes mat1 and mat2 alike (one size), but the weight [K,N] is another matrix
    a = _calls(("a", K256, "aten::addmm", _addmm(4096, 3072, 3072), 4, 1.0))
    b = _calls(("b", K256, "aten::addmm", _addmm(4096, 4032, 3072), 4, 1.0))
    assert _pairs(a, b) == [("a", None, ""), (None, "b", "")]


def test_the_same_modules_then_the_same_kernel_win():
    # A's call (modules ff) is one size from two B calls: one with no modules recorded, one of the same modules
    # (farther in size: 4096 -> 2048 vs 4096 -> 4032): the same modules win
    a = _calls(("a", K256, "aten::addmm", _addmm(4096, 3072, 3072), 4, 1.0, ["blocks.*.ff"]))
    b = _calls(("unknown", K256, "aten::addmm", _addmm(4032, 3072, 3072), 4, 1.0),
               ("ff", K256, "aten::addmm", _addmm(2048, 3072, 3072), 4, 1.0, ["blocks.*.ff"]))
    assert _pairs(a, b)[0] == ("a", "ff", "op (one size differs)")
    # same modules and calls: the same kernel wins over a nearer size on another kernel
    b = _calls(("other", K192, "aten::addmm", _addmm(4032, 3072, 3072), 4, 1.0),
               ("same", K256, "aten::addmm", _addmm(2048, 3072, 3072), 4, 1.0))
    assert _pairs(a.assign(modules=""), b)[0] == ("a", "same", "op (one size differs)")


def test_modules_read_as_nan_count_as_none():
    # library_ops.csv's empty `modules` cell reads as NaN: no modules, so the calls pair as if none were given
    a = _calls(("a", K256, "aten::addmm", _addmm(4096, 3072, 3072), 4, 1.0)).assign(modules=float("nan"))
    b = _calls(("b", K256, "aten::addmm", _addmm(4032, 3072, 3072), 4, 1.0)).assign(modules=float("nan"))
    assert _pairs(a, b) == [("a", "b", "op (one size differs)")]


def test_the_pairs_table_names_its_columns():
    assert list(match_calls(_calls(), _calls()).columns) == ["id_a", "id_b", "matched_by"]


def test_size_change_of_every_gemm_form():
    # aten::linear(input [M,K], weight [N,K], bias [N]): the weight is the last MATRIX input, not the bias; K
    # 3072 -> 4032 changes input and weight (one size), the bias stays: not the same GEMM
    lin = "[[4096, {k}], [3072, {k}], [3072]]"
    assert size_change("aten::linear", lin.format(k=3072), lin.format(k=4032)) is None
    # baddbmm(self [b,M,N], batch1 [b,M,K], batch2 [b,K,N]): M 4096 -> 4032 keeps batch2, the weight
    bad = "[[8, {m}, 64], [8, {m}, 128], [8, 128, 64], [], []]"
    assert size_change("aten::baddbmm", bad.format(m=4096), bad.format(m=4032)) == (4096, 4032)
    # no dims recorded ("" or a cell read as NaN): nothing to compare
    assert size_change("aten::mm", "", "") is None
    assert size_change("aten::mm", float("nan"), float("nan")) is None
