"""The report's back-to-back step row: the manifest's medians through summarize() into the summary line, on the
recorded decoder run's values, and no row for a run recorded before back-to-back timing existed."""
import json

import pandas as pd

from inductor_prof.analysis.summary import summarize
from inductor_prof.report.format import summary_rows
from inductor_prof.runfiles import n_steps
from recorded import REPO

PEAKS = {"gpu": "H100", "tflops": {}, "dram_gbps": None, "source": {"flops16": "-", "flops32": "-", "dram_gbps": "-"}}


def _rows(manifest: dict) -> dict:
    s = summarize(pd.DataFrame(), manifest, PEAKS, n_steps(manifest))
    return dict(summary_rows({**s, "peaks": PEAKS}))


def test_llama_row_reads_the_manifest_medians_and_their_ratio():
    manifest = json.loads((REPO / "examples/runs/llama-h100/manifest.json").read_text())
    prof = manifest["profile"]
    # recorded: 8.7873... ms under Proton, 8.4567... ms plain -> 8.7873 / 8.4567 = 1.0391 -> "1.039x"
    assert round(prof["proton_back_to_back_ms"] / prof["plain_back_to_back_ms"], 3) == 1.039
    assert _rows(manifest)["step (back to back, GPU)"] == "8.79 ms under Proton, plain 8.46 ms (1.039x)"


def test_ratio_is_proton_over_plain():
    # 11 ms under Proton over 10 ms plain = 1.100x (swapped it would read 0.909x)
    rows = _rows({"profile": {"steps": 1, "proton_back_to_back_ms": 11.0, "plain_back_to_back_ms": 10.0}})
    assert rows["step (back to back, GPU)"] == "11.00 ms under Proton, plain 10.00 ms (1.100x)"


def test_a_run_recorded_before_has_no_row():
    manifest = json.loads((REPO / "examples/runs/flux-h100-768x1344/manifest.json").read_text())
    assert "plain_back_to_back_ms" not in manifest["profile"]
    assert "step (back to back, GPU)" not in _rows(manifest)


def test_compile_row_of_the_recorded_decoder_sizes_run():
    manifest = json.loads((REPO / "examples/runs/llama-sizes-h100/manifest.json").read_text())
    c = manifest["stages"]["compile"]
    # recorded first steps: 7203.2 ms -> "7.2 s", 3405.99 ms -> "3.4 s" (the one recompile), 58.3 ms -> "58 ms"
    assert [round(v) for v in c["first_step_ms_by_size"].values()] == [7203, 3406, 58]
    assert _rows(manifest)["compile"] == ("regional, dynamic shapes, 2 graphs; first step 7.2 s at seq2048, "
                                          "3.4 s at seq1024, 58 ms at seq512")


def test_compile_row_of_one_size_and_of_old_runs():
    one = {"profile": {"steps": 1}, "stages": {"compile": {"how": "whole-model", "dynamic": False,
                                                          "graphs_compiled": 1, "first_step_ms": 999.6}}}
    assert _rows(one)["compile"] == "whole-model, static shapes, 1 graph; first step 1000 ms"   # 999.6 rounds up
    old = json.loads((REPO / "examples/runs/flux-h100-768x1344/manifest.json").read_text())
    assert "compile" not in _rows(old)


def test_category_rows_count_kernels_in_the_singular_and_plural():
    s = summarize(pd.DataFrame(), {"profile": {"steps": 1}}, PEAKS, 1)
    s["by_category"] = {"pointwise": {"step_ms": 0.25, "pct": 25.0, "tflops": None, "kernels": 1},
                        "gemm": {"step_ms": 0.75, "pct": 75.0, "tflops": 500.0, "kernels": 3}}
    rows = dict(summary_rows({**s, "peaks": PEAKS}))
    # written out: one kernel is "1 kernel", three are "3 kernels"; no TFLOP/s reads "-"
    assert rows["  pointwise"] == "0.25 ms/step  25.0%  - TFLOP/s  (1 kernel)"
    assert rows["  gemm"] == "0.75 ms/step  75.0%  500 TFLOP/s  (3 kernels)"
