"""`diff` pairs library calls by op and shape, and its gate judges them (issue 32): a GEMM shape cuBLAS moved to
another kernel is one row naming both kernels, gated like any pair; a kernel or call only in one run above
--min-share fails the gate; a run lacking what the gate needs, or runs of different targets or GPUs, are an
error for --fail-above (exit 2) unless --allow-different.

Run A is the recorded tests/data/flux_small. Run B is DERIVED from it in tmp_path (tests/diffcase.py: a
constructed input, not a profile): the ff.net.0.proj GEMM of the double blocks moved from the kernel
nvjet_..._256x128_... to nvjet_..._192x192_..._1x2_h_... (the kernel cuBLAS picked for that layer in the recorded
examples/runs/flux-h100-768x1344), in library_ops.csv and in the steps hatchet."""
import json

import pytest
from typer.testing import CliRunner

from diffcase import add_kernel, copy_run, edit_manifest, move_call, remove_kernel
from recorded import data_path
from inductor_prof.analysis.diff import compare
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.cli import app

runner = CliRunner()
A = data_path("flux_small")
RUNS = data_path("..", "..", "examples", "runs")
K256 = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"
K192 = "nvjet_sm90_tst_192x192_64x4_1x2_h_bz_coopB_bias_TNN"
FF0 = "[[12288], [4096, 3072], [3072, 12288], [], [], [4096, 12288]]"    # library_ops.csv's dims of the call
FF0_LABEL = "addmm [4096,3072]x[3072,12288]"
CAT_GELU = "triton_poi_fused_cat_gelu_permute_view_3"
# flux_small's library_ops.csv, K256's calls (ns in the traced step): FF0 767439 (2 calls), ff.net.2 734991 (2),
# to_q/k/v/out 793615 (8) in the double blocks, x_embedder 10977 (1) outside them: 2307022 in all, 2296045 in
# the blocks. The blocks' K256 nodes (steps hatchet) hand FF0's share of their time, 767439 / 2296045, to K192.
FRACTION = 767439 / 2296045
# K256 per step in A (steps hatchet): step_0 1146552 + 1142904 (double_0, double_1) + 10784 (step scope) =
# 2300240; step_1 1152824 + 1145816 + 11073 = 2309713; step_2 1149048 + 1145048 + 11136 = 2305232 ns
A_K256 = [2300240, 2309713, 2305232]
BLOCKS = [1146552 + 1142904, 1152824 + 1145816, 1149048 + 1145048]     # 2289456, 2298640, 2294096
PLAIN_STEP_MS = 15.503118999987464    # flux_small's plain steps: median of 15.503119, 15.295440, 15.561594


def _moved(tmp_path, factor=1.0):
    b = copy_run(tmp_path / "b")
    move_call(b, K256, FF0, K192, "double_", FRACTION, factor)
    return b


def _diff(a, b, **kw):
    return compare(load_side(a, "A"), load_side(b, "B"), **kw)


def _ff0(d):
    k = d.kernels
    return k[k["call"] == FF0_LABEL].iloc[0]


def test_a_call_moved_to_another_kernel_is_one_row_with_both_names(tmp_path):
    d = _diff(A, _moved(tmp_path))
    row = _ff0(d)
    assert (row["name_a"], row["name_b"], row["matched_by"]) == (K256, K192, "op+shape (other kernel)")
    assert row["status"] == "matched" and (d.kernels["call"] == FF0_LABEL).sum() == 1
    # A: K256's 6915185 ns over 3 steps, FF0's traced share 767439 / 2307022 of it = 766,787.2 ns per step
    # B: K192 holds FF0 alone: FRACTION of the blocks' 6882192 ns over 3 steps = 766,776.9 ns per step
    a_ms = sum(A_K256) / 3 * 767439 / 2307022 / 1e6
    b_ms = FRACTION * sum(BLOCKS) / 3 / 1e6
    assert row["ms_a"] == pytest.approx(a_ms, rel=1e-12) and row["ms_b"] == pytest.approx(b_ms, rel=1e-12)
    assert row["verdict"] == "within noise"        # -0.0013 %: the work did not change, only its kernel
    # nothing is new or removed, and the rows split each run's GPU time whole (per call, not per kernel)
    assert set(d.kernels["status"]) == {"matched"}
    gpu = d.steps.set_index("what").loc["GPU kernel time"]
    assert d.kernels["ms_a"].sum() == pytest.approx(gpu["a"], rel=1e-12)
    assert d.kernels["ms_b"].sum() == pytest.approx(gpu["b"], rel=1e-12)


def test_the_moved_call_is_shown_with_both_kernels(tmp_path):
    b = _moved(tmp_path)
    r = runner.invoke(app, ["diff", str(A), str(b), "--width", "120"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(f" {FF0_LABEL} "))
    assert lines[i + 1].strip() == f"A: {K256}" and lines[i + 2].strip() == f"B: {K192}"
    obj = json.loads(runner.invoke(app, ["diff", str(A), str(b), "--json"]).stdout)
    row = next(k for k in obj["kernels"] if k["call"] == FF0_LABEL)
    assert (row["name_a"], row["name_b"], row["dims_a"], row["dims_b"]) == (K256, K192, FF0, FF0)
    assert not obj["new_kernels"] and not obj["removed_kernels"]
    html = tmp_path / "d.html"
    assert runner.invoke(app, ["diff", str(A), str(b), "--html", str(html)]).exit_code == 0
    assert f">{FF0_LABEL}</td>" in html.read_text()


def test_the_gate_judges_the_moved_call(tmp_path):
    # B's FF0 1.2 times as long on its new kernel: 1.2 x 766,776.9 = 920,132.3 ns against 766,787.2: +19.9986 %.
    # Noise: A's K256 per step sorted 2300240, 2305232, 2309713: IQR (2307472.5 - 2302736) / 2305232 = 0.2055 %;
    # B's K192 is FRACTION x 1.2 x BLOCKS: (2296368 - 2291776) / 2294096 = 0.2002 %; the larger, 0.2055 %.
    # Share: 0.920132 ms of B's plain step 15.503119 ms = 5.935 % (>= --min-share 1).
    slower = _moved(tmp_path, factor=1.2)
    row = _ff0(_diff(A, slower))
    a_ns = sum(A_K256) * 767439 / 2307022
    assert row["change_pct"] == pytest.approx(100 * (1.2 * FRACTION * sum(BLOCKS) / a_ns - 1))
    assert row["noise_pct"] == pytest.approx(100 * 4736.5 / 2305232)
    assert row["share_pct"] == pytest.approx(100 * 1.2 * FRACTION * sum(BLOCKS) / 3 / 1e6 / PLAIN_STEP_MS)
    r = runner.invoke(app, ["diff", str(A), str(slower), "--fail-above", "10", "--width", "250"])
    assert r.exit_code == 1, r.output
    assert f"  {FF0_LABEL} ({K256} -> {K192}): +20.0% (noise 0.2%, 5.9% of the step)" in r.stdout
    # 20.00 - 0.21 = 19.79 points beyond noise: --fail-above 19.7 fails, 19.8 passes; below --min-share, not gated
    assert len(_diff(A, slower, fail_above=19.7).regressions()) == 1
    assert _diff(A, slower, fail_above=19.8).regressions() == []
    assert _diff(A, slower, fail_above=10, min_share=6).regressions() == []
    # the same call 20 % faster on its new kernel: a speed-up never fails
    faster = _moved(tmp_path / "f", factor=0.8)
    assert runner.invoke(app, ["diff", str(A), str(faster), "--fail-above", "0"]).exit_code == 0


def test_new_and_removed_kernels_above_min_share_fail_the_gate(tmp_path):
    # B launches a kernel A never ran, 1,000,000 ns a step: 1 / 15.503119 = 6.45 % of the step, judged against
    # nothing. A's CAT_GELU (392,808 ns a step, 2.53 % of the step) is gone from C.
    b = copy_run(tmp_path / "b")
    add_kernel(b, "constructed_new_kernel", 1_000_000)
    r = runner.invoke(app, ["diff", str(A), str(b), "--fail-above", "10"])
    assert r.exit_code == 1, r.output
    assert "  constructed_new_kernel: only in run B (new), 6.5% of the step, judged against nothing" in r.stdout
    assert _diff(A, b, fail_above=10, min_share=6.5).regressions() == []
    c = copy_run(tmp_path / "c")
    remove_kernel(c, CAT_GELU)
    r = runner.invoke(app, ["diff", str(A), str(c), "--fail-above", "10", "--json"])
    assert r.exit_code == 1, r.output
    assert json.loads(r.stdout)["gate"]["regressions"] == [
        f"{CAT_GELU}: only in run A (removed), 2.5% of the step, judged against nothing"]
    assert _diff(A, c, fail_above=10, min_share=2.6).regressions() == []


def test_a_run_without_library_ops_is_an_error_for_the_gate(tmp_path):
    b = copy_run(tmp_path / "b")
    (b / "library_ops.csv").unlink()
    r = runner.invoke(app, ["diff", str(A), str(b), "--fail-above", "5"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"error: --fail-above: run B has no readable {b / 'library_ops.csv'} (library calls are "
                        "paired by op and shape from it); pass --allow-different to gate anyway\n")
    # --allow-different: a warning, and the gate judges library kernels by name (as both runs then are)
    r = runner.invoke(app, ["diff", str(A), str(b), "--fail-above", "5", "--allow-different"])
    assert r.exit_code == 0, r.output
    assert f"warning: gating anyway (--allow-different): run B has no readable {b / 'library_ops.csv'}" in r.stderr
    assert "kernels: run B has no readable library_ops.csv: library kernels paired by name" in r.stdout
    # no gate: the diff renders, the missing file said
    r = runner.invoke(app, ["diff", str(A), str(b)])
    assert r.exit_code == 0 and f"{b / 'library_ops.csv'} is missing" in r.stderr
    # no library kernel holds 50 % of the step (the largest, nvjet_..._192x192_..._2x1_v_..., 5.16 ms of
    # 15.50): no library row is gated, so the table is not needed
    assert runner.invoke(app, ["diff", str(A), str(b), "--fail-above", "5", "--min-share", "50"]).exit_code == 0


@pytest.mark.parametrize("edit, said", [
    (lambda m: m["target"].update(preset="flux-schnell"),
     "runs of different targets (A: flux, B: flux-schnell; manifest.json target)"),
    (lambda m: m["env"]["gpu"].update(name="NVIDIA A100-SXM4-80GB"),
     "runs on different GPUs (A: NVIDIA H100 80GB HBM3, B: NVIDIA A100-SXM4-80GB; manifest.json env.gpu)")])
def test_runs_of_different_targets_or_gpus_are_an_error_for_the_gate(tmp_path, edit, said):
    b = copy_run(tmp_path / "b")
    edit_manifest(b, edit)
    r = runner.invoke(app, ["diff", str(A), str(b), "--fail-above", "5"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"error: --fail-above: {said}; pass --allow-different to gate anyway\n"
    r = runner.invoke(app, ["diff", str(A), str(b), "--fail-above", "5", "--allow-different"])
    assert r.exit_code == 0, r.output
    assert f"warning: gating anyway (--allow-different): {said}" in r.stderr
    assert runner.invoke(app, ["diff", str(A), str(b)]).exit_code == 0     # no gate: a warning only


def test_the_two_flux_examples_pair_each_gemm_by_its_weights():
    """The recorded FLUX runs at 1024x1024 and 768x1344: every shape differs (4096 -> 4032 image tokens, 4608 ->
    4544 joint), so each GEMM pairs by op with the same weights, one size apart. cuBLAS ran ff.net.0.proj on
    nvjet_..._256x128_... at 4096 rows (library_ops.csv: 19 calls, 7,431,287 ns) and on nvjet_..._192x192_1x2_h
    at 4032 rows (19 calls, 7,608,797 ns): one row naming both, where pairing by name showed the 256x128 kernel
    -34.6 % and the other as new (+7.876 ms, never gated)."""
    d = _diff(RUNS / "flux-h100", RUNS / "flux-h100-768x1344")
    k = d.kernels
    assert set(k["status"]) == {"matched"}
    row = k[k["call"] == "addmm [4096→4032,3072]x[3072,12288]"].iloc[0]
    assert (row["name_a"], row["name_b"], row["matched_by"]) == (K256, K192, "op (one size differs)")
    # A: K256 232,859,747 ns over 10 steps (steps hatchet) x 7431287 / 22133252 (its 4 calls' traced ns:
    # 7599610 + 7431287 + 7091411 + 10944) = 7.8183 ms a step; B: K192 runs this call alone: 78,755,366 ns / 10
    # = 7.8755 ms (+0.73 %, within its 2.5 % noise)
    assert row["ms_a"] == pytest.approx(23.2859747 * 7431287 / 22133252, rel=1e-9)
    assert row["ms_b"] == pytest.approx(7.8755366, rel=1e-9)
    assert row["verdict"] == "within noise"
