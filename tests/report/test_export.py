"""report/export.py and report/diff_export.py: `report --json` and `diff --json` are valid JSON (RFC 8259 has
no NaN or Infinity; Python's json writes both unless told not to): a NaN or an infinite value is null. A
library kernel's calls by shape: its JSON record's `calls_by_shape`, and CSV rows after the kernels (column
`shape`), on the recorded FLUX run (examples/runs/flux-h100)."""
import json
import math

import pytest

import pandas as pd

from recorded import REPO, data_path
from inductor_prof.analysis import load_run_tables
from inductor_prof.analysis.diff import compare
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.report import diff_export, export


def _strict(text: str):
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def test_report_json_writes_null_for_infinite_and_nan():
    tables = load_run_tables(data_path("flux_small"))
    tables.summary["gpu_kernel_ms_per_step"] = math.inf                 # a top-level summary number
    first = next(iter(tables.summary["by_category"]))
    tables.summary["by_category"][first]["step_ms"] = -math.inf         # a nested one
    df = tables.kernels.copy()
    df.loc[df.index[0], "tflops"] = math.inf                             # a kernel table cell
    df.loc[df.index[1], "tflops"] = math.nan
    obj = _strict(export.to_json(tables, df))
    assert obj["summary"]["gpu_kernel_ms_per_step"] is None
    assert obj["summary"]["by_category"][first]["step_ms"] is None
    assert obj["kernels"][0]["tflops"] is None and obj["kernels"][1]["tflops"] is None


def test_diff_json_writes_null_for_infinite_and_nan():
    run = data_path("flux_small")
    d = compare(load_side(run, "A"), load_side(run, "B"))
    d.steps.loc[0, "change_pct"] = math.inf
    d.steps.loc[0, "noise_pct"] = math.nan
    d.kernels.loc[0, "share_pct"] = -math.inf
    obj = _strict(diff_export.to_json(d))
    assert obj["steps"][0]["change_pct"] is None and obj["steps"][0]["noise_pct"] is None
    assert obj["kernels"][0]["share_pct"] is None


def test_json_text_cleans_nested_values():
    assert _strict(export.json_text({"a": [1.5, math.inf, {"b": math.nan}], "c": (2, -math.inf)})) == \
        {"a": [1.5, None, {"b": None}], "c": [2, None]}


def test_numpy_scalars_become_numbers():
    np = pytest.importorskip("numpy")
    assert _strict(export.json_text({"n": np.int64(3), "x": np.float64(0.5), "i": np.float32("inf")})) == \
        {"n": 3, "x": 0.5, "i": None}


@pytest.mark.parametrize("doc", [
    {"a": [1, 2.5, -0.0, 1e300, 3e-7, True, False, None, "é\"\\\n\u2028"], "b": {}, "c": [], "d": {"e": {"f": [[]]}}},
    [], {}, "text", 7, 0.1, None, [[1, [2, [3]]], ()], {"": "", "k é": ("t", 1)}])
def test_json_text_writes_what_json_dumps_writes(doc):
    # no object in a list: the fast writer (_indented) byte for byte against the standard library's indent=1
    assert export.json_text(doc) == json.dumps(doc, indent=1, allow_nan=False)


def test_json_text_writes_each_object_of_a_list_on_one_line():
    doc = {"kernels": [{"name": "k1", "x": [1, {"y": None}]}, {}, {"name": "é", "n": 2.5}], "s": {"t": [[{"u": 1}]]}}
    text = export.json_text(doc)
    assert json.loads(text) == doc
    # the layout of json.dumps(indent=1) down to the lists, json.dumps' one line for each object in one
    assert text == ('{\n "kernels": [\n  {"name": "k1", "x": [1, {"y": null}]},\n  {},\n'
                    '  {"name": "\\u00e9", "n": 2.5}\n ],\n "s": {\n  "t": [\n   [\n    {"u": 1}\n   ]\n  ]\n }\n}')


def test_json_text_leaves_other_values_to_json_dumps():
    # keys that are not strings: json.dumps turns them into strings, as before
    assert export.json_text({1: "a", None: [2]}) == json.dumps({1: "a", None: [2]}, indent=1)
    assert json.loads(export.json_text({"r": [{1: "a"}]})) == {"r": [{"1": "a"}]}
    with pytest.raises(ValueError):   # a value JSON cannot hold raises as it did (json.dumps, default=_clean)
        export.json_text({"s": {1, 2}})
    with pytest.raises(ValueError):
        export.json_text({"r": [{"s": {1, 2}}]})


def test_json_text_passes_over_what_is_clean_already():
    doc = {"rows": export.records(pd.DataFrame({"x": [1.5, math.nan], "n": ["a", "b"]}), []), "s": {"y": math.inf}}
    assert export.json_text(doc, cleaned=("rows",)) == export.json_text(doc)
    assert _strict(export.json_text(doc, cleaned=("rows",))) == {"rows": [{"x": 1.5, "n": "a"}, {"x": None, "n": "b"}],
                                                                 "s": {"y": None}}


def test_json_text_cleans_nested_cells_records_left():
    np = pytest.importorskip("numpy")
    df = pd.DataFrame({"n": ["a", "b"], "shapes": [[{"x": math.nan, "i": np.int64(2)}], [{"x": 1.5, "y": [math.inf]}]]})
    rows = export.records(df, [], nested=False)
    assert rows[0]["shapes"][0]["i"] is df["shapes"][0][0]["i"]   # left as it is, for the writer to check
    # the writer refuses the NaN, infinity and numpy scalar, and the whole is cleaned and written again
    assert _strict(export.json_text({"rows": rows}, cleaned=("rows",))) == \
        {"rows": [{"n": "a", "shapes": [{"x": None, "i": 2}]}, {"n": "b", "shapes": [{"x": 1.5, "y": [None]}]}]}
    assert export.json_text({"rows": rows}, cleaned=("rows",)) == export.json_text({"rows": export.records(df, [])})


def test_json_text_of_a_whole_report_is_a_kernel_a_line(flux):
    text = export.to_json(flux, flux.kernels)
    doc = _strict(text)
    lines = text.split("\n")
    # the 57 kernels, one line each as json.dumps writes the record, in the table's order
    assert [json.loads(line.strip().rstrip(",")) for line in lines if line.startswith('  {"name": ')][:57] == \
        doc["kernels"] and len(doc["kernels"]) == 57
    assert json.dumps(doc["kernels"][0]) in text


# ---- a library kernel's calls by shape ---------------------------------------------------------------------

FLUX = REPO / "examples" / "runs" / "flux-h100"
K256 = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"


@pytest.fixture(scope="module")
def flux():
    return load_run_tables(FLUX)


def test_json_gives_every_kernel_its_calls_by_shape(flux):
    obj = _strict(export.to_json(flux, flux.kernels))
    for k in obj["kernels"]:
        assert isinstance(k["calls_by_shape"], list)
        assert bool(k["calls_by_shape"]) == (k["origin"] == "library")     # [] for an Inductor kernel
        times = [s["step_ms"] for s in k["calls_by_shape"]]
        assert times == sorted(times, reverse=True)                          # the longest first
    k = next(k for k in obj["kernels"] if k["name"] == K256)
    # library_ops.csv, the traced step: 76 + 19 + 19 + 1 = 115 launches, as Proton's 1,150 over 10 steps
    assert [s["calls_per_step"] for s in k["calls_by_shape"]] == [76, 19, 19, 1] and k["calls_per_step"] == 115
    top = k["calls_by_shape"][0]
    # 7,599,610 ns over 76 calls; 7.59961 of the kernel table's 128.621 ms of GPU time a step
    assert (top["shape"], top["op"]) == ("[4096,3072]x[3072,3072]", "aten::addmm")
    assert top["avg_us"] == pytest.approx(99.99487, abs=1e-5) and top["step_ms"] == pytest.approx(7.59961)
    assert top["pct_of_gpu_time"] == pytest.approx(100 * 7.59961 / obj["summary"]["gpu_kernel_ms_per_step"])
    assert top["pct_of_gpu_time"] == pytest.approx(5.909, abs=1e-3)
    assert top["dims"] == [[3072], [4096, 3072], [3072, 3072], [], [], [4096, 3072]]
    assert top["modules"][0] == "transformer_blocks.*.attn.to_q" and k["calls_by_shape"][3]["best_us"] is None


def test_csv_adds_a_row_per_shape_after_the_kernels(flux, tmp_path):
    out = tmp_path / "k.csv"
    export.to_csv(flux.kernels, out)
    csv = pd.read_csv(out, keep_default_na=False)
    assert list(csv.columns[:2]) == ["name", "shape"] and "calls_by_shape" not in csv.columns
    kernels, shapes = csv[csv["shape"] == "all"], csv[csv["shape"] != "all"]
    assert len(kernels) == 57 and list(kernels.index) == list(range(57))      # the kernel table first, whole
    assert kernels["calls"].astype(str).str.isdigit().all()                   # counts still written as integers
    assert len(shapes) == sum(len(s) for s in flux.kernels["calls_by_shape"])
    mine = shapes[shapes["name"] == K256]
    assert list(mine["shape"]) == ["[4096,3072]x[3072,3072]", "[4096,3072]x[3072,12288]",
                                   "[4096,12288]x[12288,3072]", "[4096,64]x[64,3072]"]
    row = mine.iloc[0]
    assert row["aten_ops"] == "aten::addmm" and row["calls_per_step"] == 76 and row["calls"] == ""
    assert float(row["avg_us"]) == pytest.approx(99.99487, abs=1e-5) and row["category"] == "GEMM"
    assert row["dims"] == "[[3072], [4096, 3072], [3072, 3072], [], [], [4096, 3072]]"
    assert row["modules"].startswith('["transformer_blocks.*.attn.to_q"') and row["module"].startswith("*.attn.to_q")


def test_csv_of_a_table_without_kernels_is_its_header(tmp_path):
    export.to_csv(pd.DataFrame(columns=["name", "calls"]), tmp_path / "k.csv")
    assert (tmp_path / "k.csv").read_text() == "name,shape,calls\n"
