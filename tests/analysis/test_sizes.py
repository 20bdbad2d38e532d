"""The per-input-size breakdown on CONSTRUCTED tables (written here by hand, not recorded): two sizes, two
timed steps each, one Inductor kernel and one library GEMM; every expected number derived in the comments.
A recorded multi-size run is to come (the lead records it on the GPU)."""
import json
from types import SimpleNamespace

import pandas as pd
import pytest
from rich.console import Console

from inductor_prof.analysis.diff_inputs import RunSide, per_step_ns, timed_rows
from inductor_prof.analysis.diff_sizes import size_rows
from inductor_prof.analysis.load import RunTables
from inductor_prof.analysis.sizes import kernels_by_size, size_names, size_summary, with_size
from inductor_prof.drivers.proton.hatchet import COLUMNS
from inductor_prof.pipeline.steps import record
from inductor_prof.report import export
from inductor_prof.report.sizes import size_kernels_table, sizes_table
from inductor_prof.runfiles import n_steps

BIG, SMALL = "1024x1024", "512x512"
SIZES = [BIG, SMALL]
PEAKS = {"dram_gbps": 3000.0, "l2_gbps": 9000.0, "tflops": {"flops16": 800.0, "flops32": 60.0},
         "spec": {"flops16": 990.0, "flops32": 67.0}, "source": {}}
MANIFEST = {"profile": {"steps": 2, "sizes": {BIG: {"plain_step_ms": 5.0, "proton_step_ms": 5.1},
                                              SMALL: {"plain_step_ms": 2.0, "proton_step_ms": 2.2}}}}


def _rows(rows):
    out = pd.DataFrame([dict(zip(("name", "path", "calls", "time_ns"), r)) for r in rows])
    for c in COLUMNS[4:]:
        out[c] = 0.0
    return out


# the pointwise kernel: 3 µs a step at 1024x1024, 1 µs at 512x512; the GEMM 8 µs and 2 µs
STEPS = _rows([(n, f"{size}/step_{i}/double_0" if n.startswith("triton") else f"{size}/step_{i}", 1, ns)
               for size, poi, gemm in ((BIG, 3000, 8000), (SMALL, 1000, 2000)) for i in range(2)
               for n, ns in (("triton_poi_a", poi), ("nvjet_gemm", gemm))])
ANNOTATED = _rows([("triton_poi_a", f"{BIG}/annotated_step_0/double_0", 1, 3000),
                   ("triton_poi_a", f"{SMALL}/annotated_step_0/double_0", 1, 1000)])
ANNOTATED.loc[0, ["flops32", "bytes"]] = [2e6, 4e6]      # per launch at 1024x1024
ANNOTATED.loc[1, ["flops32", "bytes"]] = [0.5e6, 1e6]    # per launch at 512x512
LIBRARY = pd.DataFrame([{"size": BIG, "kernel": "nvjet_gemm", "op": "aten::mm", "flops": 1e9, "flops_key": "flops16",
                         "bytes": 1e6},
                        {"size": SMALL, "kernel": "nvjet_gemm", "op": "aten::mm", "flops": 0.25e9,
                         "flops_key": "flops16", "bytes": 0.4e6}])


@pytest.fixture(scope="module")
def by_size():
    steps, annotated = with_size(STEPS, SIZES), with_size(ANNOTATED, SIZES)
    return kernels_by_size(steps, annotated, {}, LIBRARY, {}, 2, PEAKS, SIZES)


def _at(df, size, name):
    return df[(df["size"] == size) & (df["name"] == name)].iloc[0]


def test_size_names_only_for_several_sizes():
    assert size_names(MANIFEST) == SIZES
    assert size_names({"profile": {"steps": 2}}) == []
    assert size_names({"profile": {"sizes": {BIG: {}}}}) == []      # one size: no breakdown


def test_with_size_takes_the_first_scope():
    got = with_size(_rows([("k", f"{BIG}/step_0", 1, 1), ("k", "step_0", 1, 1), ("k", "other/step_0", 1, 1)]),
                        SIZES)
    assert got["size"].tolist() == [BIG, None, None]


def test_kernel_table_per_size(by_size):
    poi, gemm = _at(by_size, BIG, "triton_poi_a"), _at(by_size, BIG, "nvjet_gemm")
    # 2 timed launches of 3 µs; annotated 2e6 flops per launch -> 4e6 over the 2 steps; 2 ms / 2 steps
    assert (poi["calls"], poi["total_ns"], poi["flops"], poi["bytes"]) == (2, 6000, 4e6, 8e6)
    assert poi["step_ms"] == pytest.approx(0.003)
    # 4e6 flops in 6 µs = 0.667 TFLOP/s
    assert poi["tflops"] == pytest.approx(4e6 / 6e-6 / 1e12)
    # the GEMM's op at this size (1e9 flops per step) x 2 steps, bf16
    assert (gemm["flops16"], gemm["bytes"], gemm["total_ns"]) == (2e9, 2e6, 16000)
    small_poi, small_gemm = _at(by_size, SMALL, "triton_poi_a"), _at(by_size, SMALL, "nvjet_gemm")
    assert (small_poi["flops"], small_poi["bytes"], small_poi["total_ns"]) == (1e6, 2e6, 2000)
    assert (small_gemm["flops"], small_gemm["total_ns"]) == (0.5e9, 4000)
    # shares are within the size: 6 of 22 µs at 1024x1024, 2 of 6 µs at 512x512
    assert poi["pct_of_gpu_time"] == pytest.approx(100 * 6 / 22)
    assert small_poi["pct_of_gpu_time"] == pytest.approx(100 * 2 / 6)


def test_size_summary(by_size):
    big, small = size_summary(by_size, MANIFEST, SIZES, n_steps(MANIFEST))
    # (6 + 16) µs over 2 steps = 0.011 ms; (2e9 + 4e6) flops / 2 steps
    assert (big["size"], big["plain_step_ms"], big["proton_step_ms"]) == (BIG, 5.0, 5.1)
    assert big["gpu_kernel_ms_per_step"] == pytest.approx(0.011)
    assert big["tflops_per_step"] == pytest.approx((2e9 + 4e6) / 2 / 1e12)
    assert big["overall_tflops"] == pytest.approx((2e9 + 4e6) / 22e-6 / 1e12)
    assert (small["gpu_kernel_ms_per_step"], small["kernels"]) == (pytest.approx(0.003), 2)


def test_steps_record_a_pass_over_every_size():
    ctx = SimpleNamespace(profile={})
    info = record(ctx, "plain_step_ms", {BIG: [5.0, 7.0, 6.0], SMALL: [2.0, 1.0, 3.0]})
    # the step of a run of sizes: one call at each; medians 6 and 2
    assert ctx.profile["plain_step_ms"] == 8.0
    assert ctx.profile["sizes"] == {BIG: {"plain_step_ms": 6.0}, SMALL: {"plain_step_ms": 2.0}}
    assert info["step_ms"] == [7.0, 8.0, 9.0]
    one = SimpleNamespace(profile={})
    assert record(one, "plain_step_ms", {None: [1.0, 3.0]}) == {"step_ms": [1.0, 3.0]}
    assert one.profile == {"plain_step_ms": 2.0}                  # a run of one size: as before


def test_diff_steps_of_a_run_of_sizes():
    steps = with_size(STEPS, SIZES)
    assert sorted(timed_rows(steps)["step"].unique()) == ["step_0", "step_1"]
    # step i: the i-th call at each size: 3 + 1 µs of the pointwise kernel
    assert per_step_ns(steps).loc["triton_poi_a"].tolist() == [4000, 4000]


def _side(label, sizes_ms):
    manifest = {"profile": {"sizes": {s: {} for s in sizes_ms}},
                "stages": {"plain_steps": {"step_ms_by_size": sizes_ms}}}
    return RunSide(label=label, run=None, manifest=manifest, tables=None, fingerprints=None, step_kernel_ns=None,
                   attention=None)


def test_diff_compares_matching_sizes():
    a = _side("A", {BIG: [10.0, 10.0, 10.0], SMALL: [4.0, 4.0, 4.0], "768x1344": [6.0, 6.0]})
    b = _side("B", {BIG: [12.0, 12.0, 12.0], SMALL: [4.0, 4.0, 4.0]})
    rows, only = size_rows(a, b)
    assert rows["size"].tolist() == [BIG, SMALL]
    big = rows.iloc[0]
    # 10 -> 12 ms: +20 %, no spread in either run: beyond noise, slower
    assert (big["what"], big["a"], big["b"], big["change_pct"], big["verdict"]) == (
        "step (plain)", 10.0, 12.0, pytest.approx(20.0), "slower")
    assert rows.iloc[1]["change_pct"] == 0
    assert only == ["size 768x1344 only in run A"]


def test_terminal_per_size_section_fits_80_columns(by_size):
    sizes = size_summary(by_size, MANIFEST, SIZES, n_steps(MANIFEST))
    shown = by_size[by_size["size"] == BIG].assign(display=lambda d: d["name"])
    console = Console(width=80, record=True, markup=False)
    console.print(sizes_table(sizes, 80))
    console.print(size_kernels_table(by_size, shown, SIZES, 80))
    out = console.export_text()
    assert max(len(line) for line in out.splitlines()) <= 80
    cells = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines() if line.startswith("│ ")]
    # plain, Proton, GPU ms/step (0.011), TFLOP/s: 2.004e9 flops / 22 µs = 91, 0.504e9 / 6 µs = 84; kernels
    assert cells[:2] == [[BIG, "5.00", "5.10", "0.01", "91", "2"], [SMALL, "2.00", "2.20", "0.00", "84", "2"]]
    poi_line = next(line for line in out.splitlines() if "triton_poi_a" in line)
    assert "0.003" in poi_line and "0.001" in poi_line      # 3 µs and 1 µs a step


def _tables(by_size):
    sizes = size_summary(by_size, MANIFEST, SIZES, n_steps(MANIFEST))
    return RunTables(run=SimpleNamespace(root="constructed"), manifest=MANIFEST, kernels=by_size.iloc[0:0],
                     summary={"sizes": sizes}, attention=None, by_size=by_size)


def test_json_and_csv_carry_the_size(by_size, tmp_path):
    tables = _tables(by_size)
    doc = json.loads(export.to_json(tables, by_size.drop(columns="size").iloc[:1]))
    assert [(k["size"], k["name"]) for k in doc["kernels_by_size"]][:2] == [(BIG, "nvjet_gemm"), (BIG, "triton_poi_a")]
    assert [s["size"] for s in doc["summary"]["sizes"]] == SIZES
    path = tmp_path / "k.csv"
    total = by_size.drop(columns="size").iloc[:1]
    export.to_csv(total, path, by_size)
    csv = pd.read_csv(path)
    assert csv.columns[0] == "size" and csv["size"].tolist() == ["all", BIG, BIG, SMALL, SMALL]
    export.to_csv(total, path)                       # a run of one size: the table as before, no size column
    assert "size" not in pd.read_csv(path).columns


def test_html_per_size_section(by_size):
    from inductor_prof.report.html import sizes_view

    tables = _tables(by_size)
    total = by_size[by_size["size"] == BIG].drop(columns="size").iloc[::-1]   # the page's order: poi, gemm
    view = sizes_view(tables, total)
    assert [r["cells"][0]["text"] for r in view["sizes"]["rows"]] == SIZES
    assert view["sizes"]["rows"][0]["cells"][1]["text"] == "5.00"
    kernels = view["kernels"]
    assert kernels["headers"][:2] == ["kernel", "size"]
    # each kernel in the page's order, then its sizes in the run's order
    assert [(r["name"], r["cells"][1]["text"]) for r in kernels["rows"]] == [
        ("triton_poi_a", BIG), ("triton_poi_a", SMALL), ("nvjet_gemm", BIG), ("nvjet_gemm", SMALL)]
    assert sizes_view(RunTables(run=None, manifest={}, kernels=total, summary={}, attention=None), total) is None


def test_diff_step_of_a_run_of_sizes_is_the_reports():
    from inductor_prof.analysis.diff import step_rows

    # sizes timed in turn: BIG 1, 10, 5 ms (median 5), SMALL 10, 1, 2 ms (median 2). The report's step is
    # 5 + 2 = 7 ms; the per-pass sums 11, 11, 7 (median 11) are steps taken apart, not one step.
    def manifest(big, small):
        return {"stages": {"plain_steps": {"step_ms": [b + s for b, s in zip(big, small)],
                                           "step_ms_by_size": {BIG: big, SMALL: small}}}}
    rows = step_rows(manifest([1.0, 10.0, 5.0], [10.0, 1.0, 2.0]), manifest([2.0, 12.0, 6.0], [10.0, 1.0, 2.0]),
                     None, None)
    plain = rows.iloc[0]
    # B: medians 6 and 2 -> 8 ms; 7 -> 8 ms is +1 ms, +14.29 %
    assert (plain["what"], plain["a"], plain["b"]) == ("step (plain)", 7.0, 8.0)
    assert plain["change_pct"] == pytest.approx(100 / 7, rel=1e-12)
    # a run of one size: the median of its steps, as before
    one = {"stages": {"plain_steps": {"step_ms": [3.0, 1.0, 2.0]}}}
    assert step_rows(one, one, None, None).iloc[0]["a"] == 2.0


# ---- (mutation audit) sizes.py ----


def test_kernels_by_size_without_annotated_or_library_rows():
    # one kernel, 2 steps at each size: 3 µs a launch at BIG, 1 µs at SMALL; no annotated hatchet, no
    # library ops (None: no size column to filter on)
    steps = with_size(_rows([("triton_poi_a", f"{size}/step_{i}", 1, ns)
                             for size, ns in ((BIG, 3000), (SMALL, 1000)) for i in range(2)]), [BIG, SMALL])
    df = kernels_by_size(steps, None, {}, None, {}, 2, PEAKS, [BIG, SMALL])
    # one row per size, numbered 0, 1 (not each size's own 0): 2 launches each, 6 µs and 2 µs
    assert df.index.tolist() == [0, 1]
    assert df[["size", "name", "calls", "total_ns"]].values.tolist() == [
        [BIG, "triton_poi_a", 2, 6000], [SMALL, "triton_poi_a", 2, 2000]]


def test_kernels_by_size_of_no_size():
    assert kernels_by_size(_rows([]).assign(size=None), None, {}, None, {}, 1, PEAKS, []).columns.tolist() == ["size"]


BY_SIZE = {"size": [BIG, BIG], "total_ns": [6000.0, 16000.0], "flops": [4e6, 2e9]}


@pytest.mark.parametrize("profile", [{}, {"steps": 0}, {"steps": 1}], ids=["no steps", "steps 0", "steps 1"])
def test_size_summary_one_step(profile):
    # steps missing or 0 count as 1 step: 22 µs -> 0.022 ms; 2.004e9 flops -> 0.002004 TFLOP a step;
    # 2.004e9 / 22e-6 s / 1e12 = 91.09 TFLOP/s
    manifest = {"profile": {**profile, "sizes": {BIG: {"plain_step_ms": 5.0}, SMALL: {}}}}
    big, small = size_summary(pd.DataFrame(BY_SIZE), manifest, [BIG, SMALL], n_steps(manifest))
    assert big["gpu_kernel_ms_per_step"] == pytest.approx(22000 / 1e6, rel=1e-12)
    assert big["tflops_per_step"] == pytest.approx(2.004e9 / 1e12, rel=1e-12)
    assert big["overall_tflops"] == pytest.approx(2.004e9 / 22e-6 / 1e12, rel=1e-12)
    assert (big["plain_step_ms"], big["proton_step_ms"], big["kernels"]) == (5.0, None, 2)
    # SMALL has no kernel rows: zeros, not a division by zero
    assert small == {"size": SMALL, "plain_step_ms": None, "proton_step_ms": None, "gpu_kernel_ms_per_step": 0.0,
                     "tflops_per_step": 0.0, "overall_tflops": 0.0, "kernels": 0}
