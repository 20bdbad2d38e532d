"""The report's "Proton's own cost" row (the step under Proton over the plain step, and the back-to-back GPU
steps): the manifest's medians through summarize() into the summary line, on the recorded decoder run's values,
and without the back-to-back part for a run recorded before back-to-back timing existed (tests/data/flux_small).
The compile row likewise."""
import json

import pandas as pd

from inductor_prof.analysis.summary import summarize
from inductor_prof.report.format import summary_rows
from inductor_prof.runfiles import n_steps
from recorded import REPO, data_path

PEAKS = {"gpu": "H100", "tflops": {}, "dram_gbps": None, "source": {"flops16": "-", "flops32": "-", "dram_gbps": "-"}}


def _rows(manifest: dict) -> dict:
    s = summarize(pd.DataFrame(), manifest, PEAKS, n_steps(manifest))
    return dict(summary_rows({**s, "peaks": PEAKS}))


def test_llama_row_reads_the_manifest_medians_and_their_ratio():
    manifest = json.loads((REPO / "examples/runs/llama-h100/manifest.json").read_text())
    prof = manifest["profile"]
    # re-recorded: step under Proton 8.9338 ms over plain 8.7127 ms = 1.0254 -> "1.025x"; back to back 8.2975 ms
    # under Proton over 8.3470 ms plain = 0.9941 -> "0.994x" (queued back to back, Proton's host cost hides)
    assert round(prof["proton_step_ms"] / prof["plain_step_ms"], 3) == 1.025
    assert round(prof["proton_back_to_back_ms"] / prof["plain_back_to_back_ms"], 3) == 0.994
    rows = _rows(manifest)
    assert rows["Proton's own cost"] == ("step 8.93 ms under Proton (1.025x the plain step); "
                                         "back to back 8.30 vs 8.35 ms (0.994x)")
    assert rows["step (plain)"] == "8.71 ms, 10 steps (no profiler: the launch gap is judged from it)"
    assert "step (back to back, GPU)" not in rows and "step (wall, under Proton)" not in rows


def test_ratio_is_proton_over_plain():
    # 12 ms under Proton over 10 ms plain = 1.200x; back to back 11 over 10 = 1.100x (swapped: 0.833x, 0.909x)
    rows = _rows({"profile": {"steps": 1, "proton_step_ms": 12.0, "plain_step_ms": 10.0,
                              "proton_back_to_back_ms": 11.0, "plain_back_to_back_ms": 10.0}})
    assert rows["Proton's own cost"] == ("step 12.00 ms under Proton (1.200x the plain step); "
                                         "back to back 11.00 vs 10.00 ms (1.100x)")


def test_a_run_recorded_before_has_no_back_to_back_part():
    # every examples/runs manifest now has back-to-back steps; the tests/data fixture was recorded before:
    # 16.2976 ms under Proton over 15.5031 ms plain = 1.0512 -> "1.051x", and nothing more
    manifest = json.loads(data_path("flux_small", "manifest.json").read_text())
    assert "plain_back_to_back_ms" not in manifest["profile"]
    assert _rows(manifest)["Proton's own cost"] == "step 16.30 ms under Proton (1.051x the plain step)"
    # without either step there is no row
    assert "Proton's own cost" not in _rows({"profile": {"steps": 1, "plain_step_ms": 10.0}})


def test_compile_row_of_the_recorded_decoder_sizes_run():
    manifest = json.loads((REPO / "examples/runs/llama-sizes-h100/manifest.json").read_text())
    c = manifest["stages"]["compile"]
    # re-recorded first steps: 10306.5 ms -> "10.3 s", 5672.8 ms -> "5.7 s" (the one recompile), 83.3 ms -> "83 ms"
    assert [round(v) for v in c["first_step_ms_by_size"].values()] == [10306, 5673, 83]
    assert _rows(manifest)["compile"] == ("regional, dynamic shapes, 2 graphs; first step 10.3 s at seq2048, "
                                          "5.7 s at seq1024, 83 ms at seq512")


def test_compile_row_of_one_size_and_of_old_runs():
    one = {"profile": {"steps": 1}, "stages": {"compile": {"how": "whole-model", "dynamic": False,
                                                          "graphs_compiled": 1, "first_step_ms": 999.6}}}
    assert _rows(one)["compile"] == "whole-model, static shapes, 1 graph; first step 1000 ms"   # 999.6 rounds up
    # the re-recorded flux run: 17714.8 ms -> "17.7 s"; the fixture recorded before compile was recorded: no row
    flux = json.loads((REPO / "examples/runs/flux-h100-768x1344/manifest.json").read_text())
    assert _rows(flux)["compile"] == "regional, static shapes, 3 graphs; first step 17.7 s"
    old = json.loads(data_path("flux_small", "manifest.json").read_text())
    assert "graphs_compiled" not in (old.get("stages", {}).get("compile") or {})
    assert "compile" not in _rows(old)


def test_category_rows_count_kernels_in_the_singular_and_plural():
    s = summarize(pd.DataFrame(), {"profile": {"steps": 1}}, PEAKS, 1)
    s["by_category"] = {"pointwise": {"step_ms": 0.25, "pct": 25.0, "tflops": None, "kernels": 1},
                        "gemm": {"step_ms": 0.75, "pct": 75.0, "tflops": 500.0, "kernels": 3}}
    rows = dict(summary_rows({**s, "peaks": PEAKS}))
    # written out: one kernel is "1 kernel", three are "3 kernels"; no TFLOP/s reads "-"
    assert rows["  pointwise"] == "0.25 ms/step  25.0%  - TFLOP/s  (1 kernel)"
    assert rows["  gemm"] == "0.75 ms/step  75.0%  500 TFLOP/s  (3 kernels)"


# ---- mutation audit (issue 30): the summary's fields of a manifest with little in it ---------------------------

def test_summary_fields_from_a_bare_manifest():
    peaks = {"gpu": "g"}
    # no profile section, the target from the settings (a module:factory run names no preset)
    s = summarize(pd.DataFrame(), {"settings": {"target": "m:f"}}, peaks, 1)
    assert (s["target"], s["step_ms_wall"], s["telemetry"], s["peaks"]) == ("m:f", None, None, peaks)
    assert (s["tflops_per_step"], s["inductor_annotated"]) == (0.0, 0)
    s = summarize(pd.DataFrame(), {"profile": {"gpu_telemetry": {"sm_mhz": 1755.0}}}, peaks, 1)
    assert s["telemetry"] == {"sm_mhz": 1755.0} and s["target"] is None
