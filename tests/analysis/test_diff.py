"""analysis/diff.py: the regression gate's direction and its step, a renamed kernel's noise, the per-size GPU
time. Run A is the recorded tests/data/flux_small (or examples/runs/flux-small-sizes-h100); run B a copy changed
in one known way (tests/diffcase.py: constructed inputs), so each expectation follows by hand."""
import json

import pytest

from diffcase import copy_run, edit_manifest, rename_kernel, set_plain_steps
from recorded import data_path
from inductor_prof.analysis.diff import compare
from inductor_prof.analysis.diff_inputs import load_side

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
    path = run / "proton" / "steps.hatchet"
    data = json.loads(path.read_text())

    def walk(node):
        if node["frame"]["name"] == name and "time (ns)" in node.get("metrics", {}):
            node["metrics"]["time (ns)"] *= factor
        for child in node.get("children") or []:
            walk(child)
    walk(data[0]["children"][0])          # step_0 only
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
