"""`inductor-prof report` numbers on the recorded runs, each re-derived independently of the parser:
kernel times by walking the raw hatchet JSON, flops/bytes by hand from shapes, peaks from the manifest.
"""
import csv
import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from recorded import REPO, data_path
from inductor_prof.cli import app
from inductor_prof.report.format import rate

SMALL = data_path("flux_small")
BIG = REPO / "examples" / "runs" / "flux-h100"
GELU = "triton_poi_fused_gelu_view_12"
GEMM = "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"
ATTN = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_cga1x1x1_kernel0_0"
# The runs measured no fp32 ceiling, so the fp32 roof is the spec computed from the device facts Proton stored
# in the hatchets: 132 SMs x 1,980,000 kHz x 256 flop/clk (128 FP32 FMA lanes per SM) = 66.908 TFLOP/s.
H100_FP32_TFLOPS = 132 * 1.98e9 * 256 / 1e12

runner = CliRunner()


# ---- independent derivations -----------------------------------------------------------------------------

def leaf_totals(hatchet: Path) -> dict[str, list[float]]:
    """{kernel name: [time ns, launches]} summed over the leaf frames of a hatchet file (plain JSON walk)."""
    tree = json.loads(hatchet.read_text())[0]
    out: dict[str, list[float]] = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.get("children"):
            stack.extend(node["children"])
            continue
        m = {k.lower(): v for k, v in node.get("metrics", {}).items()}   # "Time (ns)" in some Proton versions
        if m.get("time (ns)", 0) > 0:
            acc = out.setdefault(node["frame"]["name"], [0.0, 0])
            acc[0] += m["time (ns)"]
            acc[1] += m.get("count", 0)
    return out


def leaf_metrics(hatchet: Path, name: str) -> list[dict]:
    """Metrics of every leaf frame called `name`."""
    found, stack = [], [json.loads(hatchet.read_text())[0]]
    while stack:
        node = stack.pop()
        stack.extend(node.get("children") or [])
        if node["frame"]["name"] == name and not node.get("children"):
            found.append({k.lower(): v for k, v in node["metrics"].items()})
    return found


def library_rows(run: Path, kernel: str) -> list[dict]:
    with open(run / "library_ops.csv", newline="") as f:
        return [r for r in csv.DictReader(f) if r["kernel"] == kernel]


# bf16 tensor spec from the device facts in the hatchets: 132 SMs x 1.98e9 clk/s x 4096 flop/clk/SM = 1070.53;
# the attention stage of the example stores its % of peak against it too
H100_BF16_SPEC_TFLOPS = 132 * 1.98e9 * 4096 / 1e12


# DRAM spec from the device facts: 2619 MHz memory clock x 2 (DDR) x 5120-bit bus / 8 = 3352.32 GB/s; with the bf16
# spec it sets the ridge (319.3 flop/B) above which an op counts as compute-bound when the roof it reached is taken
H100_DRAM_SPEC_GBPS = 2619e6 * 2 * 5120 / 8 / 1e9
SPEC_RIDGE16 = H100_BF16_SPEC_TFLOPS * 1e12 / (H100_DRAM_SPEC_GBPS * 1e9)


def reached16(run: Path, times: dict, steps: int) -> float:
    """The best bf16 TFLOP/s a compute-bound op reached in the run, by hand: each library kernel's flops and bytes
    a step from its op map (library_ops.csv) over its time in the hatchet, each of its shapes' flops over their
    traced time (library_ops.csv's dur_ns: a shape can beat its kernel's average), and each attention backend
    that passed its check (attention.csv: flop / ms); only ops at or above the spec ridge count. The run's
    Inductor kernels are pointwise and reductions far below the ridge."""
    per: dict[str, list[float]] = {}
    shapes: dict[tuple[str, str, str], list[float]] = {}
    with open(run / "library_ops.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["flops_key"] == "flops16":
                acc = per.setdefault(r["kernel"], [0.0, 0.0])
                acc[0] += float(r["flops"])
                acc[1] += float(r["bytes"])
                one = shapes.setdefault((r["kernel"], r["op"], r["dims"]), [0.0, 0.0, 0.0])
                one[0] += float(r["flops"])
                one[1] += float(r["bytes"])
                one[2] += float(r["dur_ns"])
    rates = [fl * steps / (times[k][0] * 1e-9) / 1e12 for k, (fl, by) in per.items()
             if by > 0 and fl / by >= SPEC_RIDGE16]
    rates += [fl / ns / 1e3 for fl, by, ns in shapes.values() if by > 0 and ns > 0 and fl / by >= SPEC_RIDGE16]
    if (run / "attention.csv").exists():
        with open(run / "attention.csv", newline="") as f:
            # every backend's shape (1,24,4608,128): 2304 flop/B, far above the ridge
            rates += [float(r["flops"]) / float(r["ms"]) / 1e9 for r in csv.DictReader(f)
                      if r["ok"] == "True" and r["dtype"] == "bfloat16"]
    return max(rates)


def expected(total_ns, calls, flops, nbytes, steps, peak_tflops, peak_gbps, compute_bound):
    """The per-kernel figures by their definitions. A compute-bound kernel is judged against the run's compute
    roof `peak_tflops`: the higher of the measured ceiling and the best rate a compute-bound op of the width
    reached (reached16); no L2 ceiling was measured here."""
    s = total_ns * 1e-9
    tflops, gbps = flops / s / 1e12, nbytes / s / 1e9
    roof = peak_tflops
    assert tflops <= roof * (1 + 1e-12)        # no kernel beats the roof it is judged by
    return {"calls": calls, "total_ns": total_ns, "avg_us": total_ns / calls / 1e3, "step_ms": total_ns / steps / 1e6,
            "flops": flops, "bytes": nbytes, "tflops": tflops, "gbps": gbps, "intensity": flops / nbytes,
            "bound": "compute" if compute_bound else "memory",
            "pct_of_peak": 100 * tflops / roof if compute_bound else 100 * gbps / peak_gbps}


@pytest.fixture(scope="module")
def small():
    manifest = json.loads((SMALL / "manifest.json").read_text())
    times, steps = leaf_totals(SMALL / "proton" / "steps.hatchet"), manifest["profile"]["steps"]
    # the measured bf16 ceiling 699.7 TFLOP/s is below what the 192x192 nvjet GEMM reached (811): the roof is that
    measured, reached = manifest["ceilings"]["flops16_tflops"], reached16(SMALL, times, steps)
    assert reached > measured
    return {"manifest": manifest, "steps": steps, "measured16": measured, "peak16": max(measured, reached),
            "dram": manifest["ceilings"]["dram_gbps"], "times": times}


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "kernels.csv"
    r = runner.invoke(app, ["report", str(SMALL), "--json", "--top", "0", "--csv", str(out)])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.stdout)
    return {"json": obj, "kernels": {k["name"]: k for k in obj["kernels"]}, "csv": pd.read_csv(out)}


@pytest.fixture(scope="module")
def small_text():
    r = runner.invoke(app, ["report", str(SMALL), "--top", "0"], terminal_width=250, env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    return r.output


def row_cells(text: str, first_cell: str) -> list[str]:
    """The cells of the table row whose first cell is `first_cell`."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row {first_cell!r} in:\n{text}")


@pytest.fixture(scope="module")
def gelu(small):
    t_ns, calls = small["times"][GELU]
    # get_args(): one (1, 4096, 12288) bf16 tensor, loaded and stored in place: 4096 * 12288 = 50,331,648
    # elements, 100,663,296 B read + 100,663,296 B written = 201,326,592 B per launch.
    # fp32 ops per element: 6 mul (tmp3, tmp4, tmp5, tmp7, tmp10, tmp14), 2 add (tmp8, tmp13), 1 tanh = 9,
    # so 9 * 50,331,648 = 452,984,832 flop per launch.
    src = (SMALL / "kernels" / f"{GELU}.py").read_text()
    assert "rand_strided((1, 4096, 12288), (50331648, 12288, 1), device='cuda:0', dtype=torch.bfloat16)" in src
    per_bytes, per_flops = 201_326_592, 452_984_832
    # intensity 452,984,832 / 201,326,592 = 2.25 flop/B, below the fp32 ridge 66.9e12 / 3001e9 = 22.3: memory
    return expected(t_ns, calls, per_flops * calls, per_bytes * calls, small["steps"], H100_FP32_TFLOPS,
                    small["dram"], compute_bound=False)


@pytest.fixture(scope="module")
def gemm(small):
    t_ns, calls = small["times"][GEMM]
    rows = library_rows(SMALL, GEMM)
    # one step's launches; e.g. the first: addmm(bias[3072], A[4608, 3072], B[3072, 3072]):
    # 2 * M * N * K = 2 * 4608 * 3072 * 3072 = 86,973,087,744 flop
    flops = 0
    for r in rows:
        dims = json.loads(r["dims"])
        (m, k), (k2, n) = dims[1], dims[2]
        assert k == k2
        flops += 2 * m * n * k
    # 12 launches at 3072 x 3072, 4 with N = 12288 (4x), 4 with K = 15360 (5x): 12 + 16 + 20 = 48 of them
    assert flops == 48 * 86_973_087_744
    assert calls == small["steps"] * len(rows)   # the op map covers one step
    nbytes = sum(int(r["bytes"]) for r in rows)  # the library op byte model (pinned in its own tests)
    # intensity ~ 4.17e12 / 3.74e9 ~ 1117 flop/B, above the bf16 ridge 699.7e12 / 3001e9 ~ 233: compute
    return expected(t_ns, calls, flops * small["steps"], nbytes * small["steps"], small["steps"], small["peak16"],
                    small["dram"], compute_bound=True)


@pytest.fixture(scope="module")
def attn(small):
    t_ns, calls = small["times"][ATTN]
    rows = library_rows(SMALL, ATTN)
    # 4 * B * H * Sq * Sk * D = 4 * 1 * 24 * 4608 * 4608 * 128 = 260,919,263,232 flop per call (not causal)
    flops = 0
    for r in rows:
        b, h, sq, d = json.loads(r["dims"])[0]
        flops += 4 * b * h * sq * json.loads(r["dims"])[1][2] * d
    assert flops == 6 * 260_919_263_232 and calls == small["steps"] * 6
    nbytes = sum(int(r["bytes"]) for r in rows)
    # q, k, v read and o written: 4 * 24 * 4608 * 128 * 2 B = 113,246,208 B per call (+ a few bytes of scalars)
    assert nbytes == pytest.approx(6 * 113_246_208, rel=1e-6)
    # intensity ~ 260.9e9 / 113.2e6 ~ 2304 flop/B > ridge ~ 233: compute
    return expected(t_ns, calls, flops * small["steps"], nbytes * small["steps"], small["steps"], small["peak16"],
                    small["dram"], compute_bound=True)


FIELDS = ["calls", "total_ns", "avg_us", "step_ms", "flops", "bytes", "tflops", "gbps", "intensity", "pct_of_peak"]


def _check(row: dict, exp: dict):
    for f in FIELDS:
        assert row[f] == pytest.approx(exp[f], rel=1e-9), f
    assert row["bound"] == exp["bound"]


# ---- per-kernel numbers ------------------------------------------------------------------------------------

def test_gelu_numbers(small_report, gelu):
    k = small_report["kernels"][GELU]
    _check(k, gelu)
    assert k["calls"] == 6                      # 2 double blocks x 3 steps
    assert k["flops_key"] == "flops32" and k["category"] == "Inductor pointwise" and k["origin"] == "inductor"
    assert k["read_bytes_per_call"] == 100_663_296 and k["write_bytes_per_call"] == 100_663_296


def test_gelu_annotation_in_the_hatchet_matches_the_hand_count():
    launches = leaf_metrics(SMALL / "proton" / "annotated_step.hatchet", GELU)
    assert len(launches) == 2                   # one annotated step, 2 double blocks
    assert all(m["bytes"] == 201_326_592 and m["flops32"] == 452_984_832 for m in launches)


def test_gemm_numbers(small_report, gemm):
    k = small_report["kernels"][GEMM]
    _check(k, gemm)
    assert k["calls"] == 60 and k["flops_key"] == "flops16" and k["category"] == "GEMM"
    assert k["origin"] == "library" and k["aten_ops"] == "aten::addmm"


def test_attention_kernel_numbers(small_report, attn):
    k = small_report["kernels"][ATTN]
    _check(k, attn)
    assert k["flops_key"] == "flops16" and k["category"] == "attention"


def test_pct_of_gpu_time(small_report, small, gelu, gemm):
    total = sum(t for t, _ in small["times"].values())
    assert small_report["kernels"][GELU]["pct_of_gpu_time"] == pytest.approx(100 * gelu["total_ns"] / total,
                                                                               rel=1e-9)
    assert small_report["kernels"][GEMM]["pct_of_gpu_time"] == pytest.approx(100 * gemm["total_ns"] / total,
                                                                               rel=1e-9)


def test_gelu_ncu_ratios_and_flag(small_report):
    k = small_report["kernels"][GELU]
    with open(SMALL / "ncu" / "ncu.csv", newline="") as f:
        ncu = next(r for r in csv.DictReader(f) if r["name"] == GELU)
    # annotated per launch: 100,663,296 B read, 100,663,296 B written, 452,984,832 flop
    assert k["dram_read_ratio"] == pytest.approx(float(ncu["dram_read_bytes"]) / 100_663_296, rel=1e-9)
    assert k["dram_write_ratio"] == pytest.approx(float(ncu["dram_write_bytes"]) / 100_663_296, rel=1e-9)
    assert k["dram_ratio"] == pytest.approx(float(ncu["dram_bytes"]) / 201_326_592, rel=1e-9)
    assert k["flops_ratio"] == pytest.approx(float(ncu["flops"]) / 452_984_832, rel=1e-9)
    # reads 100,668,928 / 100,663,296 = 1.00006 (in band); flops 960,080,180 / 452,984,832 = 2.12 (tanh is many
    # instructions on the GPU): flagged for flops only
    assert k["annotation_off"] is True and k["annotation_off_in"] == "flops"


def test_library_kernels_never_flagged(small_report):
    assert not any(k["annotation_off"] for k in small_report["json"]["kernels"] if k["origin"] == "library")


# ---- summary ---------------------------------------------------------------------------------------------

def test_summary_numbers(small_report, small):
    s = small_report["json"]["summary"]
    times = small["times"]
    total = sum(t for t, _ in times.values())
    assert s["steps"] == 3
    assert s["gpu_kernel_ms_per_step"] == pytest.approx(total / 3 / 1e6, rel=1e-9)
    assert s["kernels"] == len(times) == 57
    assert s["inductor_kernels"] == sum(n.startswith("triton_") for n in times) == 18
    assert s["inductor_annotated"] == 18
    # GEMM: the nvjet kernels and cuBLAS's split-K reduction (its op is the addmm)
    gemm = [n for n in times if n.startswith("nvjet_") or "cublasLt" in n]
    assert len(gemm) == 10
    cat = s["by_category"]
    assert cat["GEMM"]["kernels"] == 10
    assert cat["GEMM"]["pct"] == pytest.approx(100 * sum(times[n][0] for n in gemm) / total, rel=1e-9)
    assert cat["GEMM"]["step_ms"] == pytest.approx(sum(times[n][0] for n in gemm) / 3 / 1e6, rel=1e-9)
    assert cat["attention"]["pct"] == pytest.approx(100 * times[ATTN][0] / total, rel=1e-9)
    assert cat["attention"]["kernels"] == 1
    assert s["peaks"]["dram_gbps"] == small["dram"]
    # the bf16 roof is the reached rate (above the measured ceiling, which the summary keeps beside it)
    assert s["peaks"]["tflops"]["flops16"] == pytest.approx(small["peak16"], rel=1e-9)
    assert s["peaks"]["measured_tflops"]["flops16"] == small["measured16"]
    # reached by one of its GEMM's shapes (the proj_out, K = 15360)
    assert s["peaks"]["reached"]["flops16"]["by"] == GEMM + " at [4608,15360]x[15360,3072]"
    assert s["peaks"]["source"]["flops16"] == "reached" and s["peaks"]["tflops"]["flops32"] == H100_FP32_TFLOPS


# ---- terminal and CSV ----------------------------------------------------------------------------------

# ncu binds: gelu's ncu row has SM SOL 60.0% (just at the 60% busy line) over memory 54.7%, tensor pipes 3.2%:
# the SM's instructions; ncu profiled no GEMM in this run: empty
NCU_BINDS = {"gelu": "SM", "gemm": ""}


@pytest.mark.parametrize("which,name", [("gelu", GELU), ("gemm", GEMM)])
def test_terminal_row_shows_the_same_numbers(small_text, small, which, name, request):
    e = request.getfixturevalue(which)
    total = sum(t for t, _ in small["times"].values())
    cells = row_cells(small_text, name)
    # kernel, kind, fused ATen ops, calls, total ms, avg µs, % GPU, TFLOP/s, GB/s, bound, % of peak, ncu binds
    assert cells[3:] == [str(e["calls"]), f"{e['total_ns'] / 1e6:.2f}", f"{e['avg_us']:.1f}",
                         f"{100 * e['total_ns'] / total:.1f}", rate(e["tflops"]), f"{e['gbps']:.0f}", e["bound"],
                         f"{e['pct_of_peak']:.1f}", NCU_BINDS[which]]


def test_terminal_ncu_row(small_text):
    with open(SMALL / "ncu" / "ncu.csv", newline="") as f:
        ncu = next(r for r in csv.DictReader(f) if r["name"] == GELU)
    # the first row named after the kernel is the kernel table's, the second the ncu table's
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in small_text.splitlines()]
    ncu_row = [r for r in rows if r and r[0] == GELU][1]
    read, write = float(ncu["dram_read_bytes"]), float(ncu["dram_write_bytes"])
    assert ncu_row[1] == f"{float(ncu['duration_ns']) / 1e3:.1f}"                  # 97.6 µs
    assert ncu_row[2] == f"{read / 1e6:.1f}/{100_663_296 / 1e6:.1f}"
    assert ncu_row[3] == f"{read / 100_663_296:.2f}"
    assert ncu_row[4] == f"{write / 1e6:.1f}/{100_663_296 / 1e6:.1f}"
    assert ncu_row[5] == f"{write / 100_663_296:.2f}"
    assert ncu_row[6] == f"{float(ncu['dram_bytes']) / 201_326_592:.2f}"
    assert ncu_row[-1] == "flops >25% off"


def test_terminal_summary_line(small_text, small):
    total = sum(t for t, _ in small["times"].values())
    assert row_cells(small_text, "GPU kernel time per step")[1] == f"{total / 3 / 1e6:.2f} ms"


def test_csv_has_the_same_numbers(small_report, gemm, gelu):
    csv = small_report["csv"]
    df = csv[csv["shape"] == "all"].set_index("name")     # the kernels' own rows (the others: calls by shape)
    assert len(df) == 57
    assert df.at[GEMM, "tflops"] == pytest.approx(gemm["tflops"], rel=1e-9)
    assert df.at[GELU, "gbps"] == pytest.approx(gelu["gbps"], rel=1e-9)
    assert df.at[GELU, "pct_of_peak"] == pytest.approx(gelu["pct_of_peak"], rel=1e-9)


# ---- the full run: 10 steps, attention table -------------------------------------------------------------

@pytest.fixture(scope="module")
def big_report():
    r = runner.invoke(app, ["report", str(BIG), "--json", "--top", "0"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def attention_csv():
    with open(BIG / "attention.csv", newline="") as f:
        return {r["backend"]: r for r in csv.DictReader(f)}


def test_big_run_gemm_and_summary(big_report):
    manifest = json.loads((BIG / "manifest.json").read_text())
    steps = manifest["profile"]["steps"]
    assert steps == 10
    times = leaf_totals(BIG / "proton" / "steps.hatchet")
    total = sum(t for t, _ in times.values())
    assert big_report["summary"]["gpu_kernel_ms_per_step"] == pytest.approx(total / steps / 1e6, rel=1e-9)
    # the same GEMM kernel on the full model: 190 addmm launches a step with M = 4608 tokens, per single block
    # (38 of them) to_q/k/v at 3072 x 3072, proj_mlp at N = 12288 (4x the flops), proj_out at K = 15360 (5x):
    # (38 x 3 + 38 x 4 + 38 x 5) = 456 x 2 x 4608 x 3072 x 3072 = 456 x 86,973,087,744 flop a step
    rows = library_rows(BIG, GEMM)
    flops = sum(2 * json.loads(r["dims"])[1][0] * json.loads(r["dims"])[1][1] * json.loads(r["dims"])[2][1]
                for r in rows)
    assert len(rows) == 190 and flops == 456 * 86_973_087_744
    t_ns, calls = times[GEMM]
    assert calls == steps * len(rows)            # the op map covers one step
    k = next(k for k in big_report["kernels"] if k["name"] == GEMM)
    assert k["calls"] == calls and k["total_ns"] == t_ns and k["step_ms"] == pytest.approx(t_ns / 10 / 1e6, rel=1e-9)
    tflops = flops * steps / (t_ns * 1e-9) / 1e12
    assert k["tflops"] == pytest.approx(tflops, rel=1e-9)
    # 39.66e12 flop x 10 in the recorded time = 730.7 TFLOP/s, above the run's measured bf16 ceiling 726.0 (the
    # best GEMM the ceilings stage timed: 16384^3); the roof is what a compute-bound op of bf16 reached in the run:
    # the 256x128 nvjet GEMM's 757.0 (reached16, by hand), so this kernel is at 730.7 / 757.0 = 96.5% of it
    peak16 = manifest["ceilings"]["flops16_tflops"]
    assert max(g["tflops"] for g in manifest["ceilings"]["gemms"]) == peak16 and tflops > peak16
    roof = reached16(BIG, times, steps)
    assert roof > tflops
    assert big_report["summary"]["peaks"]["tflops"]["flops16"] == pytest.approx(roof, rel=1e-9)
    assert k["bound"] == "compute"
    assert k["pct_of_peak"] == pytest.approx(100 * tflops / roof, rel=1e-9)
    assert k["ceiling"] == "bf16/fp16 tensor (reached)" and k["ceiling_why"] == ""


@pytest.fixture(scope="module")
def big_roof16():
    """The big run's bf16 roof, by hand (reached16): above its measured ceiling."""
    manifest = json.loads((BIG / "manifest.json").read_text())
    roof = reached16(BIG, leaf_totals(BIG / "proton" / "steps.hatchet"), manifest["profile"]["steps"])
    assert roof > manifest["ceilings"]["flops16_tflops"]
    return roof


# 4 * B * H * Sq * Sk * D = 4 * 1 * 24 * 4608 * 4608 * 128 = 260,919,263,232 flop per call
ATTN_FLOPS = 4 * 1 * 24 * 4608 * 4608 * 128
assert ATTN_FLOPS == 260_919_263_232


@pytest.mark.parametrize("backend", ["triton_fa2", "gluon_fa3", "sdpa_flash"])
def test_attention_table_numbers(big_report, attention_csv, big_roof16, backend):
    rows = {r["backend"]: r for r in big_report["attention"]}
    model = attention_csv[backend]["model_backend"]
    assert model == "sdpa_cudnn"
    model_ms, ms = float(attention_csv[model]["ms"]), float(attention_csv[backend]["ms"])
    r = rows[backend]
    assert r["ms"] == pytest.approx(ms, rel=1e-12)
    # speed-up over the model's backend: model time / this backend's time (> 1: faster than the model's)
    assert r["speedup_vs_model"] == pytest.approx(model_ms / ms, rel=1e-9)
    # flop / (ms * 1e-3 s) / 1e12 = flop / ms / 1e9
    assert r["tflops"] == pytest.approx(ATTN_FLOPS / ms / 1e9, rel=1e-9)
    # % of peak against the roof the kernel table judges the model's cuDNN kernel by: the bf16 rate reached in
    # the run (757.0, the 256x128 nvjet GEMM; above the measured 726.0), not the measured ceiling attention.csv
    # was written with
    assert r["pct_of_peak"] == pytest.approx(100 * (ATTN_FLOPS / ms / 1e9) / big_roof16, rel=1e-9)
    assert r["ceiling"] == "bf16/fp16 tensor (reached)"


def test_attention_speedup_direction(big_report):
    rows = {r["backend"]: r for r in big_report["attention"]}
    # sdpa_flash took 0.787 ms against cuDNN's 0.410 ms: slower, so below 1; the model's own backend is 1.0
    assert rows["sdpa_flash"]["speedup_vs_model"] < 1 and rows["sdpa_cudnn"]["speedup_vs_model"] == 1.0
    assert rows["flash_attn2"]["available"] is False and rows["flash_attn2"]["ms"] is None


def test_attention_terminal_rows(attention_csv, big_roof16):
    r = runner.invoke(app, ["report", str(BIG), "--top", "1"], terminal_width=250, env={"COLUMNS": "250"})
    assert r.exit_code == 0, r.output
    model_ms = float(attention_csv["sdpa_cudnn"]["ms"])
    for backend in ("triton_fa2", "sdpa_flash"):
        ms = float(attention_csv[backend]["ms"])
        cells = row_cells(r.output, backend)
        # backend, origin, shape, dtype, calls/step, ms, TFLOP/s, % peak, vs model, ...
        # % peak: of the run's reached bf16 roof, as in the kernel table
        assert cells[5:9] == [f"{ms:.3f}", f"{ATTN_FLOPS / ms / 1e9:.0f}",
                              f"{100 * ATTN_FLOPS / ms / 1e9 / big_roof16:.1f}", f"{model_ms / ms:.2f}x"]


# ---- a defect found on the way --------------------------------------------------------------------------

def test_addmm_out_tensor_counted_once():
    from inductor_prof.drivers.torch_profiler import op_cost

    # addmm(bias[3072], A[4608, 3072], B[3072, 3072], beta, alpha, out=C[4608, 3072]), bf16:
    # read 3072 + 14,155,776 + 9,437,184 elements, write 14,155,776: 37,751,808 * 2 B = 75,503,616 B
    dims = [[3072], [4608, 3072], [3072, 3072], [], [], [4608, 3072]]
    types = ["c10::BFloat16"] * 3 + ["Scalar", "Scalar", "c10::BFloat16"]
    assert op_cost("aten::addmm", dims, types)["bytes"] == 75_503_616
