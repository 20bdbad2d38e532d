"""analysis/diff.py: the regression gate's direction and its step, a renamed kernel's noise, the per-size GPU
time. Run A is the recorded tests/data/flux_small (or examples/runs/flux-small-sizes-h100); run B a copy changed
in one known way (tests/diffcase.py: constructed inputs), so each expectation follows by hand."""
import json
import math

import numpy as np
import pytest

from diffcase import copy_run, edit_manifest, rename_kernel, set_plain_steps
from recorded import data_path
from inductor_prof.analysis.diff import compare
from inductor_prof.analysis.diff_inputs import load_side, per_step_ns

CAT_GELU = "triton_poi_fused_cat_gelu_permute_view_3"
SIZES_RUN = data_path("..", "..", "examples", "runs", "flux-small-sizes-h100")


def _diff(a, b, **kw):
    return compare(load_side(a, "A"), load_side(b, "B"), **kw)


def _set_steps(run, stage, step_ms):
    def edit(m):
        m["stages"][stage]["step_ms"] = step_ms
    edit_manifest(run, edit)


def _pair(tmp_path):
    return copy_run(tmp_path / "a"), copy_run(tmp_path / "b")


def test_a_faster_step_passes_the_gate(tmp_path):
    # A 100..104: median 102, spread (IQR 2) / 102 = 1.96 %. B 90..94: median 92, -10/102 = -9.80 %. A slow-down
    # gate: -9.80 - 1.96 < 5, passes. Gating the size of the change (|-9.80| - 1.96 = 7.84 > 5) would fail it.
    a, b = _pair(tmp_path)
    set_plain_steps(a, [100, 101, 102, 103, 104])
    set_plain_steps(b, [90, 91, 92, 93, 94])
    d = _diff(a, b, fail_above=5)
    step = d.steps.set_index("what").loc["step (plain)"]
    assert step["change_pct"] == pytest.approx(-100 * 10 / 102) and step["verdict"] == "faster"
    assert d.regressions() == []
    # the same runs the other way round: +10/92 = +10.87 %, 10.87 - 2/92 (2.17 %) = 8.70 > 5: a regression
    assert _diff(b, a, fail_above=5).regressions() == ["step (plain): +10.9% (noise 2.2%)"]


def test_the_gate_watches_the_plain_step_not_the_step_under_proton(tmp_path):
    # plain steps the same in both (100..104); under Proton B is 150..154 (+50/102 = +49 %): that is the
    # profiler's cost, not the model's, so only the plain step is gated and the gate passes
    a, b = _pair(tmp_path)
    for run in (a, b):
        set_plain_steps(run, [100, 101, 102, 103, 104])
    _set_steps(a, "proton_steps", [100, 101, 102, 103, 104])
    _set_steps(b, "proton_steps", [150, 151, 152, 153, 154])
    d = _diff(a, b, fail_above=5)
    steps = d.steps.set_index("what")
    assert steps.loc["step (under Proton)", "change_pct"] == pytest.approx(100 * 50 / 102)
    assert list(steps["gated"]) == [True, False, False]      # plain, under Proton, GPU kernel time
    assert d.regressions() == []


def test_without_plain_steps_the_step_under_proton_is_gated(tmp_path):
    # the documented fallback (noise.NOISE_RULE: "the step (plain, else under Proton)")
    a, b = _pair(tmp_path)
    for run in (a, b):
        edit_manifest(run, lambda m: m["stages"].pop("plain_steps"))
    _set_steps(a, "proton_steps", [100, 101, 102, 103, 104])
    _set_steps(b, "proton_steps", [150, 151, 152, 153, 154])
    d = _diff(a, b, fail_above=5)
    assert list(d.steps["what"]) == ["step (under Proton)", "GPU kernel time"]
    assert d.regressions() == ["step (under Proton): +49.0% (noise 2.0%)"]


def _scale_in_first_step(run, name, factor):
    _scale_in_steps(run, name, factor, steps=1)


def _scale_in_steps(run, name, factor, steps=4):
    """`name`'s time x factor in the first `steps` steps of the steps hatchet: with 10 steps, 4 slow ones reach
    the upper quartile (numpy's linear 75th percentile sits between the 7th and 8th values), so the kernel's
    spread grows by construction."""
    path = run / "proton" / "steps.hatchet"
    data = json.loads(path.read_text())

    def walk(node):
        if node["frame"]["name"] == name and "time (ns)" in node.get("metrics", {}):
            node["metrics"]["time (ns)"] *= factor
        for child in node.get("children") or []:
            walk(child)
    for step in data[0]["children"][:steps]:
        walk(step)
    path.write_text(json.dumps(data))


def test_a_renamed_kernels_noise_is_run_bs_own(tmp_path):
    # B: CAT_GELU renamed (Inductor's renumbering) and twice as long in step_0 only. Its per-step ns:
    # A (steps hatchet) 392456, 393000, 392968: sorted 392456, 392968, 393000; Q1 392712, Q3 392984 (linear),
    #   spread 272 / 392968 = 0.069 %;
    # B 784912, 393000, 392968: sorted 392968, 393000, 784912; Q1 392984, Q3 (393000 + 784912) / 2 = 588956,
    #   spread 195972 / 393000 = 49.87 %.
    # The noise is the larger: B's, found under B's name (A's name is not in run B).
    b = copy_run(tmp_path / "b")
    renamed = "triton_poi_fused_cat_gelu_permute_view_9"
    rename_kernel(b, CAT_GELU, renamed)
    _scale_in_first_step(b, renamed, 2)
    d = _diff(data_path("flux_small"), b)
    row = d.kernels[d.kernels["name_a"] == CAT_GELU].iloc[0]
    assert (row["name_b"], row["matched_by"]) == (renamed, "kind+ops+shapes")
    assert row["noise_pct"] == pytest.approx(100 * 195972 / 393000)
    # B's mean: (784912 + 393000 + 392968) / 3 = 523626.67 ns against A's 392808: +33.3 %, within 49.87 %
    assert row["change_pct"] == pytest.approx(100 * (1570880 / 3 - 392808) / 392808)
    assert row["verdict"] == "within noise"


def test_the_step_is_the_sum_of_each_sizes_median():
    # flux-small-sizes-h100 (re-recorded 2026-11-24), plain steps by size (manifest): 1024x1024 15.877247,
    # 13.327533, 34.507187 ms (median 15.877247); 512x512 16.404668, 12.541158, 10.870262 ms (median 12.541158).
    # The step, as `report` shows it (profile.plain_step_ms): 15.877247 + 12.541158 = 28.418405 ms. The per-pass
    # sums 32.281915, 25.868691, 45.377449 have the median 32.281915: another number, which pairs steps that
    # were not taken together.
    step = 15.877247000048555 + 12.541157999976349
    d = _diff(SIZES_RUN, SIZES_RUN)
    assert d.steps.set_index("what").loc["step (plain)", "a"] == pytest.approx(step, rel=1e-12)
    manifest = json.loads((SIZES_RUN / "manifest.json").read_text())
    assert manifest["profile"]["plain_step_ms"] == pytest.approx(step, rel=1e-12)
    # a kernel's share of the step is taken of that same step
    k = d.kernels.iloc[0]
    assert k["share_pct"] == pytest.approx(100 * k["ms_a"] / step, rel=1e-12)


def test_the_gpu_time_of_a_size_is_its_mean_step():
    # the steps hatchet's kernel leaves summed per step scope (re-recorded run): 1024x1024 8481219, 8488580,
    # 8491248 ns, mean 25461047 / 3 (the median would be 8488580); 512x512 2975503, 2974885, 2976234 ns, mean
    # 8926622 / 3 (median 2975503). The report's GPU time per step is all the time over the steps: the mean.
    sizes = _diff(SIZES_RUN, SIZES_RUN).sizes
    gpu = sizes[sizes["what"] == "GPU kernel time"].set_index("size")
    assert gpu.loc["1024x1024", "a"] == pytest.approx(25461047 / 3 / 1e6, rel=1e-12)
    assert gpu.loc["512x512", "b"] == pytest.approx(8926622 / 3 / 1e6, rel=1e-12)


# ---- mutation audit: the pure row builders and the gate's edges, on tables written by hand ---------------------

import pandas as pd  # noqa: E402

from inductor_prof.analysis import diff as diff_module  # noqa: E402
from inductor_prof.analysis import diff_kernels  # noqa: E402
from inductor_prof.analysis.noise import beyond_noise  # noqa: E402


def _ktable(rows):
    return pd.DataFrame(rows).set_index("name")


def _k(name, ms, calls, category="GEMM", origin="library"):
    # an item of diff_kernels.items: a kernel seen as one call of op ""
    return {"name": name, "kernel": name, "step_ms": ms, "display": f"d_{name}", "kind": "k", "category": category,
            "origin": origin, "op": "", "dims": "", "modules": "", "calls_per_step": calls}


def test_kernel_rows_by_hand():
    ka = _ktable([_k("x", 1.0, 2), _k("gone", 0.5, 1, "other", "inductor"), _k("y_a", 2.0, 4)])
    kb = _ktable([_k("x", 1.5, 3), _k("new", 3.0, 1, "attention", "inductor"), _k("y_b", 2.0, 4)])
    pairs = [("x", "x", "name"), ("gone", None, ""), (None, "new", ""), ("y_a", "y_b", "renamed")]
    matches = pd.DataFrame({c: pd.Series(v, dtype=object) for c, v in zip(("id_a", "id_b", "matched_by"), zip(*pairs))})
    # per-step times of x: A 1, 1, 1, 1 (no spread), B 1, 2, 2, 3 (IQR 0.5 / median 2 = 25%), y_a the same
    steps_a = pd.DataFrame([[1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 2.0, 3.0], [1.0, 2.0, 2.0, 3.0]],
                           index=["x", "y_a", "gone"])      # a removed kernel's spread is known, and not its noise
    steps_b = pd.DataFrame([[1.0, 2.0, 2.0, 3.0], [2.0, 2.0, 2.0, 2.0]], index=["x", "y_b"])
    df = diff_kernels.rows(ka, kb, matches, steps_a, steps_b, 10.0, 20.0)
    # ordered by |delta|: new 3.0, x 0.5, gone 0.5 (stable: x first), y 0
    assert list(df["display"]) == ["d_new", "d_x", "d_gone", "d_y_a"]
    new, x, gone, y = (df.iloc[i] for i in range(4))
    assert (x["status"], x["matched_by"], x["category"], x["origin"]) == ("matched", "name", "GEMM", "library")
    assert (x["calls_per_step_a"], x["calls_per_step_b"], x["ms_a"], x["ms_b"], x["delta_ms"]) == (2, 3, 1, 1.5, 0.5)
    # +50 %, noise the larger spread (25 %), share the larger of 1/10 and 1.5/20
    assert (x["change_pct"], x["noise_pct"], x["share_pct"], x["verdict"]) == (50.0, 25.0, 10.0, "slower")
    assert (y["noise_pct"], y["verdict"], y["matched_by"]) == (25.0, "within noise", "renamed")
    assert (new["status"], new["verdict"], new["category"], new["origin"]) == ("new", "new", "attention", "inductor")
    assert math.isnan(new["calls_per_step_a"]) and new["calls_per_step_b"] == 1 and new["delta_ms"] == 3.0
    assert math.isnan(new["noise_pct"]) and new["share_pct"] == 15.0 and new["name_a"] is None
    assert (gone["status"], gone["delta_ms"], gone["share_pct"], gone["name_b"]) == ("removed", -0.5, 5.0, None)
    assert math.isnan(gone["calls_per_step_b"]) and math.isnan(gone["noise_pct"])
    # no step time on either side: no share
    df = diff_kernels.rows(ka, kb, matches, None, None, 0.0, 0.0)
    assert df["share_pct"].isna().all() and df["noise_pct"].isna().all()


def test_category_steps_and_rows_by_hand():
    steps = pd.DataFrame([[1.0, 3.0], [2.0, 2.0], [4.0, 4.0]], index=["g", "h", "stray"])
    kernels = pd.DataFrame({"category": ["GEMM", "GEMM"]}, index=["g", "h"])
    cat = diff_module.category_steps(steps, kernels)
    # a kernel of no category counts as "other"
    assert cat.to_dict("index") == {"GEMM": {0: 3.0, 1: 5.0}, "other": {0: 4.0, 1: 4.0}}
    assert diff_module.category_steps(None, kernels) is None
    assert diff_module.category_steps(pd.DataFrame(), kernels) is None
    a = {"by_category": {"GEMM": {"step_ms": 4.0, "kernels": 2}, "other": {"step_ms": 2.0, "kernels": 1}}}
    b = {"by_category": {"GEMM": {"step_ms": 5.0, "kernels": 3}, "attention": {"step_ms": 1.0, "kernels": 1}}}
    cat_b = pd.DataFrame([[4.0, 6.0]], index=["GEMM"])
    rows = diff_module.category_rows(a, b, cat, cat_b).set_index("what")
    # GEMM: A's spread IQR (4.5-3.5)/4 = 25 %, B's (5.5-4.5)/5 = 20 %: noise 25; +25 % is within it
    assert (rows.loc["GEMM", "noise_pct"], rows.loc["GEMM", "verdict"]) == (25.0, "within noise")
    assert (rows.loc["GEMM", "kernels_a"], rows.loc["GEMM", "kernels_b"]) == (2, 3)
    assert (rows.loc["attention", "a"], rows.loc["attention", "kernels_a"]) == (0.0, 0)
    assert (rows.loc["other", "b"], rows.loc["other", "kernels_b"], rows.loc["other", "change_pct"]) == (0.0, 0, -100.0)


def test_attention_rows_by_hand():
    a = pd.DataFrame({"backend": ["sdpa", "gluon", "absent"], "shape": ["s"] * 3, "ms": [2.0, 1.0, float("nan")],
                      "tflops": [1.0, 2.0, float("nan")], "ok": [True, True, False], "available": [True, "True", False],
                      "only_a": [1, 2, 3]})
    b = pd.DataFrame({"backend": ["sdpa", "gluon"], "shape": ["s", "s"], "ms": [1.0, 1.0], "tflops": [2.0, 2.0],
                      "ok": [True, False], "available": ["true", "TRUE"]})
    m = diff_module.attention_rows(a, b)
    # the backends that ran, by the keys both runs have; ok of each run kept
    assert list(m.index) == [0, 1] and sorted(m["backend"]) == ["gluon", "sdpa"]
    by = m.set_index("backend")
    assert (by.loc["sdpa", "change_pct"], by.loc["gluon", "change_pct"]) == (-50.0, 0.0)
    assert (by.loc["sdpa", "ok_b"], by.loc["gluon", "ok_b"], by.loc["gluon", "ok_a"]) == (True, False, True)
    assert "only_a" not in m.columns and "index" not in m.columns


def _gate(steps, kernels, fail_above=5.0, min_share=1.0):
    return diff_module.Diff("a", "b", pd.DataFrame(steps), kernels, None, None, min_share, fail_above)


def test_the_gate_at_its_edges():
    step = {"what": ["step (plain)"], "change_pct": [7.0], "noise_pct": [2.0], "gated": [True]}
    # 7 - 2 = 5: not more than 5, passes; a kernel at exactly the share is watched
    assert _gate(step, None).regressions() == []
    kernels = pd.DataFrame({"status": ["matched", "matched", "new"], "share_pct": [1.0, 0.9, 50.0],
                            "change_pct": [9.0, 90.0, 90.0], "noise_pct": [float("nan")] * 3,
                            "label": ["k1", "small", "fresh"]})
    # a new kernel of that share fails too: its time is judged against nothing
    assert _gate(step, kernels).regressions() == ["k1: +9.0% (noise unknown, 1.0% of the step)",
                                                  "fresh: only in run B (new), 50.0% of the step, judged against nothing"]
    slower = {**step, "change_pct": [7.1]}
    assert _gate(slower, kernels.iloc[:0]).regressions() == ["step (plain): +7.1% (noise 2.0%)"]
    nothing = {"what": [], "change_pct": [], "noise_pct": [], "gated": []}
    assert _gate(nothing, None).regressions() == [
        "nothing to judge: no step time and no kernel table in both runs (a profile that did not get that far?)"]
    assert _gate(nothing, None, fail_above=None).regressions() == []
    assert beyond_noise(7.0, float("nan")) == 7.0


def test_run_warnings_and_setting_changes_by_hand():
    a = {"settings": {"target": "flux", "steps": 10, "ncu": {"set": "basic", "sudo": False}},
         "env": {"torch": "2.11", "gpu": {"name": "H100"}, "host": "x"}}
    b = {"target": {"preset": "flux"}, "settings": {"steps": 20, "ncu": {"set": "full", "sudo": False}},
         "env": {"torch": "2.13", "gpu": {"name": "H200"}}}
    # the target from the settings when the run names no preset; another GPU is said
    assert diff_module.run_warnings(a, b) == ["runs on different GPUs (A: H100, B: H200); comparing what matches"]
    assert diff_module.run_warnings({"settings": {"target": "x"}}, {"target": {"preset": "y"}}) == [
        "runs of different targets (A: x, B: y); comparing what matches"]
    changes = diff_module.setting_changes(a, b)
    # nested settings flattened with dots; versions from env; what is equal, or skipped, is not said
    assert "ncu.set: basic -> full" in changes and "steps: 10 -> 20" in changes
    assert "env.torch: 2.11 -> 2.13" in changes and "target: flux -> None" in changes
    assert not any(c.startswith(("ncu.sudo", "env.host")) for c in changes)
    assert diff_module.setting_changes({}, {}) == []
    # a switch an older run did not record (None) against one left off (False): not a change; turned on, it is
    old, new = {"settings": {"retune": None}}, {"settings": {"retune": False}}
    assert diff_module.setting_changes(old, new) == [] == diff_module.setting_changes({}, new)
    assert diff_module.setting_changes(old, {"settings": {"retune": True}}) == ["retune: None -> True"]


# ---- mutation audit (issue 30): the whole comparison of two runs, and the tables' edges -------------------------

FLUX_H100 = data_path("..", "..", "examples", "runs", "flux-h100")
GEMM = "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"


def test_a_run_and_its_copy_compared_in_full(tmp_path):
    # A: the gelu kernel 3x slower in 4 of its 10 steps; B: the 192x192 GEMM the same. Each run diffed against
    # itself gives its own spreads (the larger of two equal spreads); A against B takes, per kernel, category
    # and GPU time, the larger of the two: A's for the gelu kernel and its category, B's for the GEMM
    a, b = copy_run(tmp_path / "a", FLUX_H100), copy_run(tmp_path / "b", FLUX_H100)
    _scale_in_steps(a, CAT_GELU, 3)
    _scale_in_steps(b, GEMM, 3)
    d, own_a, own_b = _diff(a, b), _diff(a, a), _diff(b, b)
    # the document: both paths, the defaults, the runs' facts, nothing missing, warned, changed or lacking
    assert (d.a, d.b, d.min_share, d.fail_above, d.allow_different) == (str(a), str(b), 1.0, None, False)
    facts = {"target": "flux", "gpu": "NVIDIA H100 80GB HBM3", "tool_version": "0.1.0"}
    assert d.runs == {"a": {"path": str(a), **facts}, "b": {"path": str(b), **facts}}
    assert (d.warnings, d.missing, d.changes, d.gaps, d.sizes) == ([], [], [], [], None)
    # steps: the same manifest, so the same steps (change 0); GPU time noise is the larger run's spread
    steps = d.steps.set_index("what")
    assert list(d.steps.columns) == ["what", "a", "b", "delta", "change_pct", "noise_pct", "verdict", "gated"]
    plain = steps.loc["step (plain)"]
    assert (plain["a"], plain["delta"], plain["change_pct"]) == (plain["b"], 0.0, 0.0)
    gpu = [x.steps.set_index("what").loc["GPU kernel time", "noise_pct"] for x in (own_a, own_b)]
    assert steps.loc["GPU kernel time", "noise_pct"] == max(gpu) and min(gpu) > 0
    # A's GPU-time spread: of its 10 per-step sums of kernel time (IQR over the median, numpy's percentiles)
    sums = per_step_ns(load_side(a, "A").tables.launches).sum(axis=0).to_numpy()
    q1, med, q3 = np.percentile(sums, [25, 50, 75])
    assert len(sums) == 10 and gpu[0] == pytest.approx(100 * (q3 - q1) / med, rel=1e-9)

    def noise(diff, column, name):
        return diff.kernels.loc[diff.kernels[column] == name, "noise_pct"].tolist()
    # kernels: the gelu kernel's noise is A's, each of the GEMM's calls carries B's (its kernel's spread)
    assert noise(d, "name_a", CAT_GELU) == noise(own_a, "name_a", CAT_GELU)
    assert noise(d, "name_a", CAT_GELU)[0] > noise(own_b, "name_a", CAT_GELU)[0]
    assert noise(d, "name_b", GEMM) == noise(own_b, "name_b", GEMM)
    assert noise(d, "name_b", GEMM)[0] > noise(own_a, "name_b", GEMM)[0]
    # both runs have library_ops.csv: library kernels are split into their calls (op and shapes), paired by call
    gemm = d.kernels[d.kernels["name_a"] == GEMM]
    assert (gemm["op"] == "aten::addmm").all() and (gemm["matched_by"] == "op+shape").all()
    # categories: the same rule
    cats = [x.categories.set_index("what")["noise_pct"] for x in (d, own_a, own_b)]
    assert cats[0]["Inductor pointwise"] == cats[1]["Inductor pointwise"] > cats[2]["Inductor pointwise"]
    assert cats[0]["GEMM"] == cats[2]["GEMM"] > cats[1]["GEMM"]
    # attention: both runs' attention.csv, each backend that ran at the same time in both
    att = d.attention
    assert len(att) and (att["change_pct"] == 0).all() and (att["ms_a"] == att["ms_b"]).all()


def test_a_run_without_step_times_is_said_and_its_kernel_shares_are_of_gpu_time(tmp_path):
    # no plain and no Proton steps in either manifest: both said missing, nothing gated but the kernels, whose
    # share is of the GPU kernel time per step
    a, b = _pair(tmp_path)
    for run in (a, b):
        edit_manifest(run, lambda m: [m["stages"].pop(s) for s in ("plain_steps", "proton_steps")])
    d = _diff(a, b)
    # (flux_small has no attention.csv: each side says so first, then the steps)
    assert d.missing == [("attention", "run A has no attention.csv"), ("attention", "run B has no attention.csv"),
                         ("steps", "run A has no per-step times in its manifest"),
                         ("steps", "run B has no per-step times in its manifest")]
    assert list(d.steps["what"]) == ["GPU kernel time"] and not d.steps["gated"].any()
    gpu_ms = d.steps.iloc[0]["a"]
    top = d.kernels.iloc[0]
    assert top["share_pct"] == pytest.approx(100 * max(top["ms_a"], top["ms_b"]) / gpu_ms)


def test_step_rows_of_runs_that_hold_different_stages():
    # A has plain steps, B only Proton steps: no stage both have, so no step row; GPU time only with both sides
    ma = {"stages": {"plain_steps": {"step_ms": [1.0, 2.0]}}}
    mb = {"stages": {"proton_steps": {"step_ms": [1.0, 2.0]}}}
    assert list(diff_module.step_rows(ma, mb, (1.0, [1.0, 1.0]), None)["what"]) == []
    rows = diff_module.step_rows({}, {}, None, None)
    assert list(rows.columns) == ["what", "a", "b", "delta", "change_pct", "noise_pct", "verdict", "gated"]
    assert len(rows) == 0
    # a manifest without stages has no step
    assert math.isnan(diff_module.stage_step_ms({}, "plain_steps"))


def test_attention_rows_of_runs_with_other_columns_and_backends():
    # A's table has no `available` column (every row ran) nor `mask`; B has both: the rows pair by the keys both
    # have (backend, shape); a backend only in A stays, with no time in B
    a = pd.DataFrame({"backend": ["sdpa", "triton"], "shape": ["s", "s"], "ms": [2.0, 4.0], "tflops": [1.0, 0.5],
                      "ok": [True, True]})
    b = pd.DataFrame({"backend": ["sdpa"], "shape": ["s"], "mask": ["causal"], "ms": [1.0], "tflops": [2.0],
                      "ok": [True], "available": [True]})
    m = diff_module.attention_rows(a, b).set_index("backend")
    assert (m.loc["sdpa", "tflops_a"], m.loc["sdpa", "tflops_b"], m.loc["sdpa", "change_pct"]) == (1.0, 2.0, -50.0)
    assert math.isnan(m.loc["triton", "ms_b"]) and math.isnan(m.loc["triton", "change_pct"])


def test_a_category_only_in_run_b_takes_run_bs_spread():
    # attention only in run B, its per-step times 1, 1: spread 0, so its noise is 0 (not unknown)
    a = {"by_category": {"GEMM": {"step_ms": 4.0, "kernels": 2}}}
    b = {"by_category": {"GEMM": {"step_ms": 5.0, "kernels": 3}, "attention": {"step_ms": 1.0, "kernels": 1}}}
    cat_b = pd.DataFrame([[4.0, 6.0], [1.0, 1.0]], index=["GEMM", "attention"])
    rows = diff_module.category_rows(a, b, None, cat_b).set_index("what")
    assert rows.loc["attention", "noise_pct"] == 0.0
    # GEMM: B's spread alone, (5.5 - 4.5) / 5 = 20 %
    assert rows.loc["GEMM", "noise_pct"] == pytest.approx(20.0)


def test_a_run_of_an_unrecorded_tool_version_is_warned():
    a, b = {"env": {"inductor_prof": "0.2.0"}}, {}
    assert diff_module.run_warnings(a, b) == [
        "runs of different inductor-prof versions (A: 0.2.0, B: unknown); comparing what matches"]
    assert diff_module.run_warnings(b, a)[0].startswith(
        "runs of different inductor-prof versions (A: unknown, B: 0.2.0)")


def test_what_the_gate_lacks_is_said_naming_the_file_or_setting(tmp_path):
    # A recorded by another version (flux_small records none: "unknown" in B), B on another GPU and model, B
    # without library_ops.csv (its GEMMs hold >= 1 % of the step: pairing them needs it), A without kernels.json
    # (its Inductor kernels likewise)
    a, b = _pair(tmp_path)
    edit_manifest(a, lambda m: m["env"].update(inductor_prof="0.2.0"))
    edit_manifest(b, lambda m: (m["env"]["gpu"].update(name="NVIDIA H200"), m["target"].update(preset="llama"),
                                m["settings"].update(warmup=2)))
    (b / "library_ops.csv").unlink()
    (a / "kernels" / "kernels.json").unlink()
    d = _diff(a, b)
    assert d.warnings == ["runs of different targets (A: flux, B: llama); comparing what matches",
                          "runs on different GPUs (A: NVIDIA H100 80GB HBM3, B: NVIDIA H200); comparing what matches",
                          "runs of different inductor-prof versions (A: 0.2.0, B: unknown); comparing what matches"]
    assert "warmup: 1 -> 2" in d.changes
    # --allow-different: the same gaps, said as judged despite them
    allowed = _diff(a, b, allow_different=True)
    assert allowed.allow_different is True and allowed.gaps == d.gaps
    # B has no library_ops.csv: library kernels are paired by name in both runs, not split by call in A alone
    assert set(d.kernels.loc[d.kernels["origin"] == "library", "matched_by"]) == {"name"}
    # what each view lacks (the views still render): flux_small has no attention.csv
    assert d.missing == [("kernels", "run A has no kernels/kernels.json: Inductor kernels matched by name only"),
                         ("attention", "run A has no attention.csv"),
                         ("kernels", "run B has no readable library_ops.csv: library kernels paired by name"),
                         ("attention", "run B has no attention.csv")]
    assert d.gaps == [
        "runs of different targets (A: flux, B: llama; manifest.json target)",
        "runs on different GPUs (A: NVIDIA H100 80GB HBM3, B: NVIDIA H200; manifest.json env.gpu)",
        "runs of different inductor-prof versions (A: 0.2.0, B: unknown; manifest.json env.inductor_prof)",
        f"run A has no readable {a / 'kernels' / 'kernels.json'} (Inductor kernels are paired by what they compute "
        "from it)",
        f"run B has no readable {b / 'library_ops.csv'} (library calls are paired by op and shape from it)"]
    # only rows holding --min-share % of the step are gated: flux_small's largest Inductor kernel holds 2.5 % (its
    # library rows more: 15.1 % the largest call); at 5 % only library rows are, at 100 % none
    at5 = [g for g in _diff(a, b, min_share=5).gaps if "no readable" in g]
    assert at5 == [f"run B has no readable {b / 'library_ops.csv'} (library calls are paired by op and shape from it)"]
    assert not any("no readable" in g for g in _diff(a, b, min_share=100).gaps)


def test_what_the_gate_lacks_without_steps(tmp_path):
    # no step times in either manifest, and B without its steps hatchet (no kernel table to judge either)
    a, b = _pair(tmp_path)
    for run in (a, b):
        edit_manifest(run, lambda m: [m["stages"].pop(s) for s in ("plain_steps", "proton_steps")])
    (b / "proton" / "steps.hatchet").unlink()
    d = _diff(a, b)
    assert d.missing == [("attention", "run A has no attention.csv"),
                         ("kernels", "run B has no proton/steps.hatchet"),
                         ("categories", "run B has no proton/steps.hatchet"),
                         ("attention", "run B has no attention.csv"),
                         ("steps", "run A has no per-step times in its manifest"),
                         ("steps", "run B has no per-step times in its manifest")]
    assert d.kernels is None and d.categories is None
    assert d.gaps == [
        f"run A has no per-step times in {a / 'manifest.json'} (stages.plain_steps.step_ms)",
        f"run B has no per-step times in {b / 'manifest.json'} (stages.plain_steps.step_ms)",
        f"run B has no {b / 'proton' / 'steps.hatchet'} (each kernel's time per step)"]


def test_a_run_without_steps_read_for_diff_alone(tmp_path):
    from inductor_prof.errors import UserError

    a, b = _pair(tmp_path)
    (b / "proton" / "steps.hatchet").unlink()
    # its attention.csv damaged: said once, as the reader words it (not also "has no attention.csv")
    (b / "attention.csv").write_text("backend,shape\n\"unterminated")
    attention = [w for view, w in load_side(b, "B").missing if view == "attention"]
    assert len(attention) == 1 and attention[0].startswith(f"run B: {b / 'attention.csv'}")
    # its manifest damaged too: one line naming it, and what diff needs it for
    (b / "manifest.json").write_text("{")
    with pytest.raises(UserError) as e:
        load_side(b, "B")
    assert str(e.value).startswith(f"{b / 'manifest.json'} is damaged (") and str(e.value).endswith("; diff needs it")


def test_what_the_gate_lacks_when_neither_run_has_steps(tmp_path):
    # B another model recorded by a known version (A's unknown); neither has step times nor a steps hatchet:
    # every line, in order, each run's said
    a, b = _pair(tmp_path)
    edit_manifest(b, lambda m: (m["target"].update(preset="llama"), m["env"].update(inductor_prof="0.2.0")))
    for run in (a, b):
        edit_manifest(run, lambda m: [m["stages"].pop(s) for s in ("plain_steps", "proton_steps")])
        (run / "proton" / "steps.hatchet").unlink()
    assert _diff(a, b).gaps == [
        "runs of different targets (A: flux, B: llama; manifest.json target)",
        "runs of different inductor-prof versions (A: unknown, B: 0.2.0; manifest.json env.inductor_prof)",
        f"run A has no per-step times in {a / 'manifest.json'} (stages.plain_steps.step_ms)",
        f"run B has no per-step times in {b / 'manifest.json'} (stages.plain_steps.step_ms)",
        f"run A has no {a / 'proton' / 'steps.hatchet'} (each kernel's time per step)",
        f"run B has no {b / 'proton' / 'steps.hatchet'} (each kernel's time per step)"]
