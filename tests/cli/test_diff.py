"""`diff`: kernel matching across renumbering, delta arithmetic, the noise rule, the gate's exit codes, JSON,
HTML and bad input. Run A is the recorded tests/data/flux_small (or its copy); run B is a copy changed in one
known way (tests/diffcase.py: constructed inputs, not profiles), so each expected number follows by hand
from the recorded files."""
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from diffcase import (add_kernel, change_launch_shape, copy_run, edit_manifest, remove_kernel, rename_kernel,
                      scale_kernel, set_plain_steps)
from recorded import data_path, without_age_warning
from inductor_prof.analysis.diff import attention_rows, compare
from inductor_prof.analysis.noise import spread_pct, verdict
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.analysis.match import Fingerprint, match_kernels
from inductor_prof.cli import app

runner = CliRunner()
GELU_10, GELU_12 = "triton_poi_fused_gelu_view_10", "triton_poi_fused_gelu_view_12"
CAT_GELU = "triton_poi_fused_cat_gelu_permute_view_3"
LN_2 = "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2"
# flux_small's plain steps (manifest): 15.503119, 15.295440, 15.561594 ms -> median 15.503119 ms
PLAIN_STEP_MS = 15.503118999987464


def _diff(a, b, **kw):
    return compare(load_side(a, "A"), load_side(b, "B"), **kw)


def _row(d, name_a):
    k = d.kernels
    return k[k["name_a"] == name_a].iloc[0]


@pytest.fixture
def run_b(tmp_path):
    return copy_run(tmp_path / "b")


def test_renumbered_kernels_match_by_kind_ops_and_shapes(run_b):
    # B: _12 -> _14, then _10 -> _12: B's "_12" is A's "_10" (512 tokens, 1x512x12288), not A's "_12"
    # (4096 tokens, 1x4096x12288). By name alone A's _12 would pair with it and "lose" 90% of its time.
    rename_kernel(run_b, GELU_12, "triton_poi_fused_gelu_view_14")
    rename_kernel(run_b, GELU_10, GELU_12)
    d = _diff(data_path("flux_small"), run_b)
    big, small = _row(d, GELU_12), _row(d, GELU_10)
    assert (big["name_b"], big["matched_by"]) == ("triton_poi_fused_gelu_view_14", "kind+ops+shapes")
    assert (small["name_b"], small["matched_by"]) == (GELU_12, "kind+ops+shapes")
    # the same launches, only renamed: no change at all
    assert big["delta_ms"] == 0 and small["delta_ms"] == 0 and big["verdict"] == "within noise"
    assert set(d.kernels["status"]) == {"matched"}
    assert d.kernels["matched_by"].isin(["name", "op+shape"]).sum() == len(d.kernels) - 2   # library: by call


def test_same_name_other_shape_and_renumbered_other_shape(run_b):
    # another resolution: GELU_12's launch shape changes; GELU_10 also renumbered to _16 with a new shape
    change_launch_shape(run_b, f"{GELU_12}.py", "(1, 4096, 12288)", "(1, 2048, 12288)")
    change_launch_shape(run_b, f"{GELU_10}.py", "(1, 512, 12288)", "(1, 256, 12288)")
    rename_kernel(run_b, GELU_10, "triton_poi_fused_gelu_view_16")
    d = _diff(data_path("flux_small"), run_b)
    assert _row(d, GELU_12)["matched_by"] == "name (shapes differ)"
    # the only gelu_view kernel left on each side: same kind, ATen ops and name stem
    assert tuple(_row(d, GELU_10)[["name_b", "matched_by"]]) == ("triton_poi_fused_gelu_view_16", "kind+ops")


def test_removed_and_new_kernels(run_b):
    remove_kernel(run_b, LN_2)
    add_kernel(run_b, "constructed_new_kernel", 1000)
    d = _diff(data_path("flux_small"), run_b)
    removed = _row(d, LN_2)
    # A: 11553 + 11617 + 11745 ns over 3 steps = 34915 ns / 3 = 0.0116383 ms per step
    assert removed["status"] == "removed" and removed["verdict"] == "removed"
    assert removed["ms_a"] == pytest.approx(34915 / 3 / 1e6) and removed["delta_ms"] == pytest.approx(-34915 / 3 / 1e6)
    new = d.kernels[d.kernels["name_b"] == "constructed_new_kernel"].iloc[0]
    assert new["status"] == "new" and new["name_a"] is None
    assert new["ms_b"] == pytest.approx(0.001) and new["delta_ms"] == pytest.approx(0.001)   # 1000 ns a step
    # the GPU time per step moves by exactly the two: +1000 ns - 34915/3 ns
    gpu = d.steps.set_index("what").loc["GPU kernel time"]
    assert gpu["delta"] == pytest.approx((1000 - 34915 / 3) / 1e6)


def test_delta_arithmetic_of_a_slower_kernel(run_b):
    scale_kernel(run_b, CAT_GELU, 1.5)
    d = _diff(data_path("flux_small"), run_b)
    r = _row(d, CAT_GELU)
    # A per step (steps hatchet): 392456, 393000, 392968 ns -> 1178424 ns / 3 = 0.392808 ms per step
    assert r["ms_a"] == pytest.approx(0.392808)
    assert r["ms_b"] == pytest.approx(0.589212)          # x1.5
    assert r["delta_ms"] == pytest.approx(0.196404)
    assert r["change_pct"] == pytest.approx(50.0)
    # spread: sorted 392456, 392968, 393000; Q1 = 392712, Q3 = 392984 (linear); IQR 272 / median 392968;
    # B is A x1.5, the same spread
    assert r["noise_pct"] == pytest.approx(100 * 272 / 392968)
    # share: B's 0.589212 ms of B's plain step 15.503119 ms (the larger of the two runs')
    assert r["share_pct"] == pytest.approx(100 * 0.589212 / PLAIN_STEP_MS)
    assert r["verdict"] == "slower"
    cats = d.categories.set_index("what")
    assert cats.loc["Inductor pointwise", "delta"] == pytest.approx(0.196404)
    assert cats.loc["GEMM", "delta"] == 0 and cats.loc["Inductor pointwise", "verdict"] == "slower"
    # attention is one kernel here (cuDNN SDPA): per step 2346161, 2347987, 2347471 ns; Q1 2346816, Q3 2347729
    assert cats.loc["attention", "noise_pct"] == pytest.approx(100 * 913 / 2347471)
    # no other kernel moved
    assert (d.kernels.drop(d.kernels.index[d.kernels["name_a"] == CAT_GELU])["delta_ms"] == 0).all()


def test_noise_rule_by_hand():
    # 100..104: median 102, Q1 101, Q3 103 -> IQR 2 -> 1.9608 %
    assert spread_pct([104, 100, 102, 101, 103]) == pytest.approx(100 * 2 / 102)
    # flux_small's plain steps: sorted 15.295440, 15.503119, 15.561594; Q1 = 15.399280, Q3 = 15.532357
    assert spread_pct([15.503119, 15.295440, 15.561594]) == pytest.approx(100 * (15.532357 - 15.399280) / 15.503119,
                                                                          rel=1e-5)
    assert spread_pct([5.0]) != spread_pct([5.0])          # one step: no spread (NaN)
    assert verdict(1.9, 2.0) == "within noise" and verdict(2.0, 2.0) == "within noise"
    assert verdict(2.1, 2.0) == "slower" and verdict(-2.1, 2.0) == "faster"


def _raw_step_ns(run, names=None) -> list[float]:
    """Time of the kernels `names` (None: all) in each step scope, walking the hatchet's JSON (independent of the
    parser)."""
    root = json.loads((run / "proton" / "steps.hatchet").read_text())[0]

    def total(node):
        kids = node.get("children") or []
        if not kids:
            return node["metrics"].get("time (ns)", 0) if names is None or node["frame"]["name"] in names else 0
        return sum(total(k) for k in kids)
    return [total(step) for step in root["children"]]


def _steps_pair(tmp_path, a_ms, b_ms):
    a, b = copy_run(tmp_path / "a"), copy_run(tmp_path / "b")
    set_plain_steps(a, a_ms)
    set_plain_steps(b, b_ms)
    return a, b


def test_step_change_within_noise_is_not_a_regression(tmp_path):
    # A 100..104 (median 102, spread 1.9608 %), B 101.5..105.5 (median 103.5): +1.4706 %, within noise
    a, b = _steps_pair(tmp_path, [100, 101, 102, 103, 104], [101.5, 102.5, 103.5, 104.5, 105.5])
    step = _diff(a, b).steps.iloc[0]
    assert step["what"] == "step (plain)" and step["gated"]
    assert step["change_pct"] == pytest.approx(100 * 1.5 / 102)
    assert step["noise_pct"] == pytest.approx(100 * 2 / 102)     # max(2/102, 2/103.5)
    assert step["verdict"] == "within noise"
    # GPU time per step (kernel leaves under step_0/1/2 summed): 12465767, 12494185, 12495714 ns; Q1 = 12479976,
    # Q3 = 12494949.5 -> IQR 14973.5 over the median 12494185; A and B have the same hatchet
    gpu = _diff(a, b).steps.set_index("what").loc["GPU kernel time"]
    assert gpu["noise_pct"] == pytest.approx(100 * 14973.5 / 12494185) and gpu["delta"] == 0
    # Inductor pointwise: the kernels kernels.json calls pointwise, summed per step from the raw hatchet
    pointwise = {k["name"] for k in json.loads((a / "kernels" / "kernels.json").read_text()) if k["kind"] == "pointwise"}
    v = sorted(_raw_step_ns(a, pointwise))
    q1, q3 = v[0] + (v[1] - v[0]) / 2, v[1] + (v[2] - v[1]) / 2       # three steps, linear quartiles
    cats = _diff(a, b).categories.set_index("what")
    assert cats.loc["Inductor pointwise", "noise_pct"] == pytest.approx(100 * (q3 - q1) / v[1])
    r = runner.invoke(app, ["diff", str(a), str(b), "--fail-above", "0"])
    assert r.exit_code == 0, r.output
    assert "gate (--fail-above 0% beyond noise, step and kernels >= 1% of the step): passed" in r.output


def test_gate_on_the_step(tmp_path):
    # B 110..114 (median 112): +9.8039 %, noise 1.9608 % -> 7.8431 points beyond noise
    a, b = _steps_pair(tmp_path, [100, 101, 102, 103, 104], [110, 111, 112, 113, 114])
    r = runner.invoke(app, ["diff", str(a), str(b), "--fail-above", "5"])
    assert r.exit_code == 1, r.output
    assert "step (plain): +9.8% (noise 2.0%)" in r.output
    assert runner.invoke(app, ["diff", str(a), str(b), "--fail-above", "7.8"]).exit_code == 1
    assert runner.invoke(app, ["diff", str(a), str(b), "--fail-above", "7.9"]).exit_code == 0
    assert runner.invoke(app, ["diff", str(a), str(b)]).exit_code == 0     # no gate asked for


def test_gate_on_a_kernel_and_min_share(run_b):
    scale_kernel(run_b, CAT_GELU, 1.5)      # +50 %, noise 0.07 %, 3.80 % of the step
    a = str(data_path("flux_small"))
    r = runner.invoke(app, ["diff", a, str(run_b), "--fail-above", "10"])
    assert r.exit_code == 1, r.output
    assert f"{CAT_GELU}: +50.0% (noise 0.1%, 3.8% of the step)" in r.output
    assert runner.invoke(app, ["diff", a, str(run_b), "--fail-above", "49.9"]).exit_code == 1
    assert runner.invoke(app, ["diff", a, str(run_b), "--fail-above", "50"]).exit_code == 0
    # below --min-share the kernel is not gated
    assert runner.invoke(app, ["diff", a, str(run_b), "--fail-above", "10", "--min-share", "3.9"]).exit_code == 0
    assert runner.invoke(app, ["diff", a, str(run_b), "--fail-above", "10", "--min-share", "3.7"]).exit_code == 1


@pytest.mark.parametrize("flags, option, value", [
    (["--fail-above", "nan"], "--fail-above", "nan"), (["--fail-above", "inf"], "--fail-above", "inf"),
    (["--fail-above", "10", "--min-share", "nan"], "--min-share", "nan"),
    (["--fail-above", "10", "--min-share", "inf"], "--min-share", "inf")])
def test_gate_thresholds_that_are_not_numbers_are_refused(run_b, flags, option, value):
    """The kernel above got 50 % slower (> 10 % + noise: exit 1 with a real threshold). A nan compares false
    with every change, so `--fail-above nan` or `--min-share nan` passed the gate (exit 0) over it; an infinite
    one cannot gate anything either. Each is bad input: one line, exit 2."""
    scale_kernel(run_b, CAT_GELU, 1.5)
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b), *flags])
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith(f"error: {option} must be a number, 0 or more") and r.stderr.rstrip().endswith(value)


def test_identical_real_runs_pass_the_strictest_gate():
    run = str(data_path("..", "..", "examples", "runs", "flux-h100"))
    r = runner.invoke(app, ["diff", run, run, "--fail-above", "0", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    # 57 kernels: 18 Inductor kernels (kernels.json) by name, 39 library kernels split by library_ops.csv into
    # 61 calls (distinct kernel, op, dims), each paired with itself by op and shape
    assert len(obj["kernels"]) == 18 + 61
    assert {k["matched_by"] for k in obj["kernels"]} == {"name", "op+shape"}
    assert all(k["delta_ms"] == 0 for k in obj["kernels"]) and not obj["new_kernels"] and not obj["removed_kernels"]
    # its own numbers. Plain steps (manifest, re-recorded 2026-11-24), sorted: 131.496527, 131.497795, 131.907141,
    # 132.757921, 132.784939, 133.250834, 133.653058, 133.795881, 140.950603, 143.970345 ms -> median of 10 =
    # mean of the 5th and 6th = (132.784939 + 133.250834) / 2 = 133.0178865 ms
    steps = {s["what"]: s for s in obj["steps"]}
    assert steps["step (plain)"]["a"] == pytest.approx((132.784939000004 + 133.25083400000892) / 2, rel=1e-12)
    # GPU kernel time per step, the report's: all kernel time over the 10 steps. The kernel leaves under
    # step_0..9 summed per step (the raw walk below), sorted: 120966787, 126955964, 127314572, 127375083,
    # 127555930, 127868878, 127873231, 128164832, 129876107, 142259928 ns = 1,286,211,312 ns / 10 = 128.6211312 ms
    per_step = sorted(_raw_step_ns(Path(run)))
    assert per_step == [120966787, 126955964, 127314572, 127375083, 127555930, 127868878, 127873231, 128164832,
                        129876107, 142259928]
    assert steps["GPU kernel time"]["b"] == pytest.approx(1_286_211_312 / 10 / 1e6, rel=1e-12)
    assert len(obj["attention"]) == 11 and all(a["change_pct"] == 0 for a in obj["attention"])


def test_json_document(run_b):
    scale_kernel(run_b, CAT_GELU, 1.5)
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b), "--json", "--fail-above", "10"])
    assert r.exit_code == 1
    obj = json.loads(r.stdout)
    assert set(obj) >= {"schema_version", "a", "b", "runs", "warnings", "missing", "noise_rule", "steps",
                        "categories", "kernels", "new_kernels", "removed_kernels", "attention", "gate"}
    assert obj["schema_version"] == 1
    line = f"{CAT_GELU}: +50.0% (noise 0.1%, 3.8% of the step)"
    assert obj["gate"] == {"verdict": "failed", "fail_above_pct": 10.0, "min_share_pct": 1.0, "failed": True,
                           "exit_code": 1, "gaps": [], "allow_different": False, "regressions": [line],
                           "failing": [{"table": "kernels", "what": CAT_GELU, "reason": "slower",
                                        "detail": "+50.0% (noise 0.1%, 3.8% of the step)", "line": line}]}
    # flux_small was recorded before the manifest kept inductor-prof's version (env.inductor_prof: null)
    assert obj["runs"] == {"a": {"path": str(data_path("flux_small")), "target": "flux",
                                 "gpu": "NVIDIA H100 80GB HBM3", "tool_version": None},
                           "b": {"path": str(run_b), "target": "flux", "gpu": "NVIDIA H100 80GB HBM3",
                                 "tool_version": None}}
    top = obj["kernels"][0]
    assert top["name_a"] == CAT_GELU and top["delta_ms"] == pytest.approx(0.196404)
    # the row the gate failed on says so; no other row, no step
    assert top["fails_gate"] and not any(k["fails_gate"] for k in obj["kernels"][1:])
    assert not any(s["fails_gate"] for s in obj["steps"])
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b), "--json"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["gate"] == {
        "verdict": "not gated", "fail_above_pct": None, "min_share_pct": 1.0, "failed": False, "exit_code": 0,
        "gaps": [], "allow_different": False, "regressions": [], "failing": []}
    # flux_small has no attention.csv: that view says so, the rest is there
    assert obj["missing"] == [{"view": "attention", "what": "run A has no attention.csv"},
                              {"view": "attention", "what": "run B has no attention.csv"}]


def test_different_gpu_warns_and_still_compares(run_b):
    edit_manifest(run_b, lambda m: m["env"]["gpu"].update(name="NVIDIA A100-SXM4-80GB"))
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b)])
    assert r.exit_code == 0, r.output
    assert without_age_warning(r.stderr.splitlines()) == [("warning: runs on different GPUs (A: NVIDIA H100 80GB "
                                                           "HBM3, B: NVIDIA A100-SXM4-80GB); comparing what matches")]
    # flux_small: 57 kernels, 18 Inductor (by name) and 39 library ones in 61 calls (by op and shape)
    assert "Kernels and library calls: 79 matched (61 by op+shape, 18 by name), 0 new, 0 removed" in r.stdout


def test_different_tool_version_warns_and_the_gate_refuses(run_b):
    """A run recorded by another inductor-prof version may count differently: compared with a warning, never
    gated unless told to (the version is the manifest's env.inductor_prof; flux_small's is null: unknown)."""
    edit_manifest(run_b, lambda m: m["env"].update(inductor_prof="0.2.0"))
    a = str(data_path("flux_small"))
    r = runner.invoke(app, ["diff", a, str(run_b), "--json"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["warnings"] == ["runs of different inductor-prof versions (A: unknown, B: 0.2.0); "
                                                "comparing what matches"]
    r = runner.invoke(app, ["diff", a, str(run_b), "--fail-above", "5"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == ("error: --fail-above: runs of different inductor-prof versions (A: unknown, B: 0.2.0; "
                        "manifest.json env.inductor_prof); pass --allow-different to gate anyway\n")
    r = runner.invoke(app, ["diff", a, str(run_b), "--fail-above", "5", "--allow-different", "--json"])
    assert r.exit_code == 0
    gate = json.loads(r.stdout)["gate"]
    assert gate["verdict"] == "passed" and gate["allow_different"] and gate["gaps"] == [
        "runs of different inductor-prof versions (A: unknown, B: 0.2.0; manifest.json env.inductor_prof)"]


def test_different_target_warns(run_b):
    edit_manifest(run_b, lambda m: m["target"].update(preset="flux-schnell"))
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b), "--json"])
    assert r.exit_code == 0
    assert json.loads(r.stdout)["warnings"] == ["runs of different targets (A: flux, B: flux-schnell); "
                                                "comparing what matches"]


def test_missing_tables_name_the_view_and_the_rest_renders(run_b):
    (run_b / "proton" / "steps.hatchet").unlink()
    (run_b / "kernels" / "kernels.json").unlink()
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b)])
    assert r.exit_code == 0, r.output
    assert "kernels: run B has no proton/steps.hatchet" in r.stdout
    assert "categories: run B has no proton/steps.hatchet" in r.stdout
    assert "kernels: run B has no kernels/kernels.json: Inductor kernels matched by name only" in r.stdout
    assert "step (plain)" in r.stdout and "GPU kernel time" not in r.stdout


def test_run_without_step_times_keeps_the_gpu_row(run_b):
    edit_manifest(run_b, lambda m: [m["stages"].pop(s) for s in ("plain_steps", "proton_steps")])
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b)])
    assert r.exit_code == 0, r.output
    assert "steps: run B has no per-step times in its manifest" in r.stdout
    assert "GPU kernel time" in r.stdout and "step (plain)" not in r.stdout


def test_gate_fails_when_run_b_has_neither_steps_nor_kernels(run_b):
    # B's profile stopped before its timed steps (its build failed): nothing was compared, so the gate must not
    # say "passed" and exit 0
    edit_manifest(run_b, lambda m: [m["stages"].pop(s) for s in ("plain_steps", "proton_steps")])
    (run_b / "proton" / "steps.hatchet").unlink()
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b), "--fail-above", "5"])
    assert r.exit_code == 2 and r.stdout == ""     # the gate lacks what it needs: bad input, one line
    assert r.stderr == (f"error: --fail-above: run B has no per-step times in {run_b / 'manifest.json'} "
                        f"(stages.plain_steps.step_ms); run B has no {run_b / 'proton' / 'steps.hatchet'} (each "
                        "kernel's time per step); pass --allow-different to gate anyway\n")
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b), "--fail-above", "5",
                            "--allow-different"])
    assert r.exit_code == 1, r.output
    assert "gate (--fail-above 5% beyond noise, step and kernels >= 1% of the step): FAILED, 1 regression(s)" in r.stdout
    assert "nothing to judge: no step time and no kernel table in both runs" in r.stdout
    assert runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b)]).exit_code == 0   # no gate asked


def test_bad_input_exits_2(tmp_path):
    a = str(data_path("flux_small"))
    r = runner.invoke(app, ["diff", a, str(tmp_path)])
    assert r.exit_code == 2
    assert r.output.strip() == f"error: {tmp_path} is not an inductor-prof run folder (no manifest.json)"
    assert runner.invoke(app, ["diff", a, a, "--fail-above", "-1"]).exit_code == 2
    blocker = tmp_path / "file"
    blocker.write_text("")
    r = runner.invoke(app, ["diff", a, a, "--html", str(blocker / "d.html")])
    assert r.exit_code == 2
    assert r.output.strip() == f"error: cannot write --html {blocker / 'd.html'}: Not a directory"
    # before either run is read: a missing run folder is not reached
    r = runner.invoke(app, ["diff", str(tmp_path / "no-a"), a, "--html", str(tmp_path)])
    assert r.exit_code == 2 and r.output.strip() == f"error: cannot write --html {tmp_path}: it is a folder"


def test_html_is_self_contained_and_escaped(tmp_path):
    run = str(data_path("..", "..", "examples", "runs", "flux-h100"))
    out = tmp_path / "d.html"
    r = runner.invoke(app, ["diff", run, run, "--html", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text()
    assert "http" not in html and "<script" not in html
    # library kernels' short names hold "<...>" (the functor and type of at::native::vectorized_elementwise_kernel
    # <4, at::native::FillFunctor<double>, ...>): escaped, not tags
    assert "vectorized_elementwise_kernel&lt;FillFunctor,double&gt;" in html
    # headers and rows: steps, categories, kernels and library calls (18 + 61, as in the JSON above), attention
    assert html.count("<tr>") == 1 + 3 + 1 + 5 + 1 + 79 + 1 + 11


def test_terminal_fits_100_columns(run_b):
    rename_kernel(run_b, GELU_12, "triton_poi_fused_gelu_view_14")
    add_kernel(run_b, "new_[bold]_<b>_kernel", 1000)               # user text: neither rich markup nor HTML
    html = run_b / "d.html"
    r = runner.invoke(app, ["diff", str(data_path("flux_small")), str(run_b), "--top", "0", "--html", str(html)])
    assert r.exit_code == 0
    assert max(len(line) for line in r.stdout.splitlines()) <= 100
    assert "B: triton_poi_fused_gelu_view_14" in r.stdout        # the renumbered pair, both names shown
    from inductor_prof.names import short_name
    assert "[bold]" in short_name("new_[bold]_<b>_kernel")
    assert short_name("new_[bold]_<b>_kernel") in r.stdout     # the report's short name, "[bold]" kept
    assert 'title="new_[bold]_&lt;b&gt;_kernel"' in html.read_text()


def test_attention_deltas_by_backend_and_shape():
    att = pd.read_csv(data_path("..", "..", "examples", "runs", "flux-h100", "attention.csv"))
    b = att.copy()
    b.loc[b["backend"] == "gluon_fa3", "ms"] *= 1.1                       # 0.382400 ms -> 0.420640 ms
    b = b[b["backend"] != "triton_fa2"]                                   # not run in B
    rows = attention_rows(att, b).set_index("backend")
    # attention.csv (re-recorded 2026-11-24), gluon_fa3's ms: 0.3824000060558319
    assert rows.loc["gluon_fa3", "ms_a"] == pytest.approx(0.3824000060558319, rel=1e-12)
    assert rows.loc["gluon_fa3", "ms_b"] == pytest.approx(0.3824000060558319 * 1.1, rel=1e-12)
    assert rows.loc["gluon_fa3", "change_pct"] == pytest.approx(10.0)
    assert rows.loc["sdpa_cudnn", "change_pct"] == 0
    assert rows.loc["triton_fa2", "ms_b"] != rows.loc["triton_fa2", "ms_b"]       # NaN: only in A
    assert "flash_attn2" not in rows.index                                # unavailable in both: no row


def test_launch_args_of_a_recorded_kernel_file():
    # the file's signature (in_out_ptr0, xnumel, XBLOCK) and get_args(): arg_0 = rand_strided((1, 4096, 12288),
    # ..., bfloat16), then 50331648 (= 4096 x 12288); XBLOCK is a constexpr get_args does not pass
    from inductor_prof.inductor.kernel_files import launch_args
    text = (data_path("flux_small", "kernels") / f"{GELU_12}.py").read_text()
    assert launch_args(text) == [("in_out_ptr0", "arg_0", ("1, 4096, 12288", "bfloat16")),
                                 ("xnumel", "50331648", None)]
    assert launch_args(text.split("def get_args")[0]) is None


def _fp(name: str, code: str) -> Fingerprint:
    return Fingerprint(key=frozenset({("pointwise", ("aten.gelu",), (("x", "8"),))}), code=frozenset({code}),
                       config=frozenset(), stem="triton_poi_fused_gelu", kind="pointwise", aten_ops=("aten.gelu",))


def test_among_same_fingerprints_the_same_code_wins():
    # B has two kernels of A's kind, ops and shapes; _7 has A's code, _5 (first by name) another
    a = {"triton_poi_fused_gelu_1": _fp("triton_poi_fused_gelu_1", "c1")}
    b = {"triton_poi_fused_gelu_5": _fp("triton_poi_fused_gelu_5", "c2"),
         "triton_poi_fused_gelu_7": _fp("triton_poi_fused_gelu_7", "c1")}
    m = match_kernels(list(a), list(b), a, b)
    assert m.values.tolist() == [["triton_poi_fused_gelu_1", "triton_poi_fused_gelu_7", "kind+ops+shapes"],
                                 [None, "triton_poi_fused_gelu_5", ""]]


def test_renamed_kernel_keeps_its_code_fingerprint():
    from inductor_prof.analysis.match import fingerprints
    rec = next(k for k in json.loads(data_path("flux_small", "kernels", "kernels.json").read_text())
               if k["name"] == GELU_12)
    text = data_path("flux_small", "kernels", rec["file"]).read_text()
    renamed = {**rec, "name": "triton_poi_fused_gelu_view_14", "file": "x.py"}
    fa = fingerprints([rec], {rec["file"]: text})[GELU_12]
    fb = fingerprints([renamed], {"x.py": text.replace(GELU_12, "triton_poi_fused_gelu_view_14")})
    assert fb["triton_poi_fused_gelu_view_14"].code == fa.code and fb["triton_poi_fused_gelu_view_14"].key == fa.key


def test_missing_second_run_is_named_before_the_first_is_read(tmp_path):
    run = tmp_path / "a"
    shutil.copytree(data_path("flux_small"), run)
    (run / "kernels" / "kernels.json").write_text('{"broken')      # damaged, but B's absence is said first
    r = runner.invoke(app, ["diff", str(run), str(tmp_path / "nope")])
    assert r.exit_code == 2 and r.output.strip() == f"error: {tmp_path / 'nope'} does not exist"


def test_damaged_kernels_json_is_warned_and_the_rest_compares(tmp_path):
    run = tmp_path / "a"
    shutil.copytree(data_path("flux_small"), run)
    (run / "kernels" / "kernels.json").write_text('{"broken')
    r = runner.invoke(app, ["diff", str(run), str(data_path("flux_small")), "--json"])
    assert r.exit_code == 0
    assert f"warning: run A: {run / 'kernels' / 'kernels.json'} is damaged (JSONDecodeError" in r.stderr
    assert json.loads(r.stdout)["kernels"]        # kernels still compared, by name


# `diff` of two runs whose attention.csv differ in mask kind: one run without masks (its `mask` column empty,
# read as float NaN), the other with text masks. The recorded decoder runs examples/runs/llama-h100 (causal,
# no mask) and llama-padded-h100 (causal + padding) are such a pair.

RUNS = data_path("..", "..", "examples", "runs")


def test_attention_rows_of_a_run_without_masks_and_one_with():
    a = pd.read_csv(RUNS / "llama-h100" / "attention.csv")
    b = pd.read_csv(RUNS / "llama-padded-h100" / "attention.csv")
    assert a["mask"].isna().all() and (b["mask"] == "causal_padding").all()   # the dtypes that clashed
    rows = attention_rows(a, b)
    # available rows, read from the CSVs (re-recorded 2026-11-24, the lean attention stage: no teaching backends):
    # A 7 backends at (2,32/8,2048,64),causal (triton_fa2, gluon_fa3, cuda_mma_fa2, sdpa, sdpa_flash, sdpa_cudnn,
    # flex_compiled; sdpa_efficient refused); B 3 at the padded shape (sdpa, sdpa_cudnn, flex_compiled; its label:
    # ",causal+padding,kv repeated"); no (backend, shape) in both, so 7 + 3 rows, none paired
    assert len(rows) == 10
    assert rows["ms_a"].notna().sum() == 7 and rows["ms_b"].notna().sum() == 3
    assert not (rows["ms_a"].notna() & rows["ms_b"].notna()).any()
    sdpa_b = rows[(rows["backend"] == "sdpa") & rows["ms_b"].notna()].iloc[0]
    assert sdpa_b["ms_b"] == pytest.approx(0.3001, abs=1e-4)     # llama-padded-h100 attention.csv: sdpa 0.3001.. ms
    assert sdpa_b["mask"] == "causal_padding"


def test_diff_cli_of_the_two_decoder_runs():
    r = CliRunner().invoke(app, ["diff", str(RUNS / "llama-h100"), str(RUNS / "llama-padded-h100")])
    assert r.exit_code == 0, r.output
    assert "causal+padding,kv repeated" in r.stdout


def test_attention_numbers_are_whole_at_80_columns():
    # the newcomer trial: at 80 columns the attention table cut its ms to "0.…"; now the shape wraps instead
    runs = Path(__file__).resolve().parents[2] / "examples" / "runs"
    r = runner.invoke(app, ["diff", str(runs / "llama-h100"), str(runs / "llama-padded-h100"), "--width", "80"])
    assert r.exit_code == 0
    table = r.stdout.split("Attention backends", 1)[1].split("noise:", 1)[0]
    assert max(len(line) for line in r.stdout.splitlines()) <= 80
    rows = [ln for ln in table.splitlines() if ln.startswith(" gluon_fa3") or ln.startswith(" sdpa_cudnn")]
    # attention.csv of each run, by hand: gluon_fa3 0.098 ms in A (352 TFLOP/s); sdpa_cudnn 0.299 ms in B (115)
    assert any("0.098" in ln and "352->-" in ln for ln in rows)
    assert any("0.299" in ln and "-->115" in ln for ln in rows)
    assert "…" not in table
