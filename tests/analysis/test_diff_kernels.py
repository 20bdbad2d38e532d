"""analysis/diff_kernels.py: a run's time split into items (an Inductor kernel; a library kernel per call of
library_ops.csv), on the recorded tests/data/flux_small."""
import pytest

from recorded import data_path
from inductor_prof.analysis.diff_kernels import items
from inductor_prof.analysis.load import load_run_tables

K256 = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"


@pytest.fixture(scope="module")
def small():
    return load_run_tables(data_path("flux_small"))


def test_a_library_kernel_is_split_by_its_calls(small):
    it = items(small.kernels.set_index("name"), small.library_ops)
    mine = it[it["kernel"] == K256].set_index("dims")
    # library_ops.csv, K256's calls (traced ns): 767439, 734991, 793615, 10977 (2307022 in all); the steps
    # hatchet's K256: 6915185 ns over 3 steps. Each call: its share of that.
    assert len(mine) == 4
    ff0 = mine.loc["[[12288], [4096, 3072], [3072, 12288], [], [], [4096, 12288]]"]
    assert ff0["step_ms"] == pytest.approx(6915185 / 3 * 767439 / 2307022 / 1e6, rel=1e-12)
    assert ff0["calls_per_step"] == 2 and ff0["op"] == "aten::addmm"
    assert ff0["modules"] == ""          # recorded before library_ops.csv had a `modules` column
    assert mine["step_ms"].sum() == pytest.approx(6915185 / 3 / 1e6, rel=1e-12)
    # 18 Inductor kernels one item each (id: the name); the time of the run unchanged by the split
    assert (it["origin"] == "inductor").sum() == 18 and len(it) == 18 + 61
    assert it["step_ms"].sum() == pytest.approx(small.kernels["step_ms"].sum(), rel=1e-12)


def test_without_library_ops_a_library_kernel_is_one_item(small):
    it = items(small.kernels.set_index("name"), None)
    row = it.loc[K256]
    assert (row["op"], row["dims"]) == ("", "") and row["step_ms"] == pytest.approx(6915185 / 3 / 1e6, rel=1e-12)
    assert len(it) == 57


def test_the_modules_of_a_call():
    # examples/runs/flux-h100 (re-recorded with provenance): the 4096-row ff.net.0.proj GEMM's module pattern
    run = load_run_tables(data_path("..", "..", "examples", "runs", "flux-h100"))
    it = items(run.kernels.set_index("name"), run.library_ops)
    ff0 = it[(it["kernel"] == K256) & (it["dims"] == "[[12288], [4096, 3072], [3072, 12288], [], [], [4096, 12288]]")]
    assert list(ff0["modules"]) == ['["transformer_blocks.*.ff.net.0.proj"]']


# ---- mutation audit (issue 30): the rows of library calls in full, and each row's one-line label ---------------

def _call_item(kernel, display, dims, ms, calls=2.0):
    return {"kernel": kernel, "display": display, "kind": "gemm", "category": "GEMM", "origin": "library",
            "op": "aten::addmm", "dims": dims, "modules": "", "calls_per_step": calls, "step_ms": ms}


def test_rows_of_library_calls_in_full():
    import json

    import pandas as pd

    from inductor_prof.analysis.diff_kernels import ITEM_COLUMNS, row_label, rows

    def addmm(m):
        return json.dumps([[3072], [m, 3072], [3072, 3072], [], [], [m, 3072]])
    a = pd.DataFrame([_call_item("nv_a", "nv_a", addmm(4096), 1.0), _call_item("nv_a", "nv_a", addmm(512), 0.5)],
                     index=pd.Index(["a1", "a2"], dtype=object), columns=ITEM_COLUMNS)
    b = pd.DataFrame([_call_item("nv_b", "nv_b", addmm(4032), 1.5)], index=pd.Index(["b1"], dtype=object),
                     columns=ITEM_COLUMNS)
    pairs = pd.DataFrame({"id_a": pd.Series(["a1", "a2"], dtype=object), "id_b": pd.Series(["b1", None], dtype=object),
                          "matched_by": ["op (one size differs)", ""]})
    moved, gone = (r for _, r in rows(a, b, pairs, None, None, 10.0, 10.0).iterrows())
    # the moved call: one row naming both kernels, its shapes in each run, the size that changed
    assert (moved["name_a"], moved["name_b"], moved["display_b"], moved["kind"]) == ("nv_a", "nv_b", "nv_b", "gemm")
    assert (moved["dims_a"], moved["dims_b"]) == (addmm(4096), addmm(4032))
    assert moved["call"] == "addmm [4096→4032,3072]x[3072,3072]"
    assert moved["label"] == "addmm [4096→4032,3072]x[3072,3072] (nv_a -> nv_b)"
    # the removed call: its own shape only, no second kernel
    assert (gone["dims_b"], gone["display_b"], gone["call"]) == ("", "", "addmm [512,3072]x[3072,3072]")
    assert gone["label"] == "addmm [512,3072]x[3072,3072] (nv_a)"
    # an Inductor kernel (no call): its name alone
    assert row_label({"display": "triton_poi_0", "display_b": "", "call": ""}) == "triton_poi_0"
    assert row_label({"display": "triton_poi_0", "display_b": "triton_poi_3", "call": ""}) == \
        "triton_poi_0 -> triton_poi_3"


def test_a_kernel_item_in_full(small):
    it = items(small.kernels.set_index("name"), None)
    row = it.loc[K256]
    assert list(it.columns) == ["kernel", "display", "kind", "category", "origin", "op", "dims", "modules",
                                "calls_per_step", "step_ms"]
    k = small.kernels.set_index("name").loc[K256]
    assert (row["kernel"], row["modules"], row["calls_per_step"]) == (K256, "", float(k["calls_per_step"]))
