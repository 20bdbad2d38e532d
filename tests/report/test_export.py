"""report/export.py and report/diff_export.py: `report --json` and `diff --json` are valid JSON (RFC 8259 has
no NaN or Infinity; Python's json writes both unless told not to): a NaN or an infinite value is null."""
import json
import math

import pytest

from recorded import data_path
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
