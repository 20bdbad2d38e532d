"""The recorded H100 run of a small FLUX at two input sizes under one dynamic compile
(examples/runs/flux-small-sizes-h100; README there): the per-size breakdown the report gives checked against the
manifest's raw step lists and the raw Proton hatchets walked here, the dynamic kernel's flops and bytes at each
size against its element count derived from its source, the compile facts; and `report --width 80` on the three
newly recorded runs."""
import csv
import json
import statistics
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from inductor_prof.cli import app
from recorded import REPO

RUNS = REPO / "examples" / "runs"
FLUX = RUNS / "flux-small-sizes-h100"
BIG, SMALL = "1024x1024", "512x512"
# triton_poi_fused_cat_gelu_permute_view_3.py (kernels/): a FLUX single block's output concat; xindex % 15360
# picks 3072 attention channels (in_ptr0) or 12288 gelu'd MLP channels (in_ptr1), so it iterates over
# tokens x 15360 elements, reading one bf16 and writing one bf16 each
CAT_GELU = "triton_poi_fused_cat_gelu_permute_view_3"
CHANNELS = 3072 + 12288
# tokens: 512 text + image (height/16) x (width/16) (VAE /8, then 2x2 patches)
TOKENS = {BIG: 512 + (1024 // 16) * (1024 // 16), SMALL: 512 + (512 // 16) * (512 // 16)}   # 4608, 1536
SINGLE_BLOCKS = 2          # --single-blocks 2: the kernel runs once in each

runner = CliRunner()


@pytest.fixture(scope="module")
def manifest() -> dict:
    return json.loads((FLUX / "manifest.json").read_text())


@pytest.fixture(scope="module")
def report() -> dict:
    r = runner.invoke(app, ["report", str(FLUX), "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def leaves(path: Path, name: str, size: str) -> list[dict]:
    """Metrics of each leaf frame called `name` under the top scope `size` of a raw .hatchet, walked here."""
    tree = json.loads(path.read_text())[0]
    (scope,) = [c for c in tree["children"] if c["frame"]["name"] == size]
    out, stack = [], [scope]
    while stack:
        node = stack.pop()
        kids = node.get("children") or []
        if node["frame"]["name"] == name and not kids:
            out.append(node["metrics"])
        stack.extend(kids)
    return out


def at(report: dict, size: str, name: str) -> dict:
    (row,) = [k for k in report["kernels_by_size"] if k["size"] == size and k["name"] == name]
    return row


def test_per_size_step_medians(report, manifest):
    stages = manifest["stages"]
    got = {s["size"]: s for s in report["summary"]["sizes"]}
    assert list(got) == [BIG, SMALL]
    for size in (BIG, SMALL):
        plain = stages["plain_steps"]["step_ms_by_size"][size]
        proton = stages["proton_steps"]["step_ms_by_size"][size]
        assert len(plain) == len(proton) == 3
        assert got[size]["plain_step_ms"] == statistics.median(plain)
        assert got[size]["proton_step_ms"] == statistics.median(proton)
    # at 1024x1024 the first Proton step is the slow one (61.8 ms): the median leaves it out
    assert got[BIG]["proton_step_ms"] < 13


def test_per_size_kernel_time_from_the_raw_hatchet(report):
    steps = report["summary"]["steps"]
    assert steps == 3
    for size in (BIG, SMALL):
        launches = leaves(FLUX / "proton" / "steps.hatchet", CAT_GELU, size)
        assert len(launches) == SINGLE_BLOCKS * steps
        ns = sum(m["time (ns)"] for m in launches)
        row = at(report, size, CAT_GELU)
        assert (row["calls"], row["total_ns"]) == (len(launches), ns)
        assert row["step_ms"] == pytest.approx(ns / steps / 1e6, rel=1e-12)
    # the two sizes' rows add up to the run's row
    (total,) = [k for k in report["kernels"] if k["name"] == CAT_GELU]
    assert total["total_ns"] == at(report, BIG, CAT_GELU)["total_ns"] + at(report, SMALL, CAT_GELU)["total_ns"]


def test_dynamic_kernel_flops_scale_with_its_elements(report):
    annotated = {s: leaves(FLUX / "proton" / "annotated_step.hatchet", CAT_GELU, s) for s in (BIG, SMALL)}
    elements = {s: TOKENS[s] * CHANNELS for s in (BIG, SMALL)}           # 70778880, 23592960
    assert elements[BIG] == 3 * elements[SMALL]
    for size, launches in annotated.items():
        assert len(launches) == SINGLE_BLOCKS
        for m in launches:
            assert m["bytes"] == elements[size] * (2 + 2)       # one bf16 read, one written per element
            # the annotation's ops per element (17.26, the gelu lanes' share of the channels) x elements,
            # rounded to a whole flop
            assert m["flops32"] == pytest.approx(17.26 * elements[size], abs=1)
    assert annotated[BIG][0]["flops32"] / annotated[SMALL][0]["flops32"] == pytest.approx(3, rel=1e-8)
    # the report's per-size flops: the annotated launch's x the timed launches (2 blocks x 3 steps)
    for size in (BIG, SMALL):
        row = at(report, size, CAT_GELU)
        assert row["flops"] == annotated[size][0]["flops32"] * SINGLE_BLOCKS * 3
        assert row["bytes"] == elements[size] * 4 * SINGLE_BLOCKS * 3


def test_one_dynamic_compile_for_both_sizes(manifest):
    compile_ = manifest["stages"]["compile"]
    assert compile_["dynamic"] is True and manifest["settings"]["compile"]["dynamic"] is True
    # 2 double + 2 single blocks, regional: one graph each, none more at 512x512
    assert compile_["graphs_compiled"] == manifest["profile"]["graphs_compiled"] == 4
    first = compile_["first_step_ms_by_size"]
    assert first[BIG] > 10_000 and first[SMALL] < 1_000      # 48.8 s compiling vs 85 ms reusing


@pytest.mark.parametrize("run", ["llama-h100", "llama-padded-h100", "flux-small-sizes-h100"])
def test_report_fits_80_columns(run):
    r = runner.invoke(app, ["report", str(RUNS / run), "--width", "80"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) > 50 and "Traceback" not in r.output
    wide = [(cell_len(line), line) for line in lines if cell_len(line) > 80]
    assert not wide, wide[:3]
    # the sections a reader needs are there, one line a row: rich squeezes a table that was laid out wider than
    # the console by wrapping its cells, which adds lines. Rows expected: the top 30 kernels (each run has more),
    # the 12 backends of the attention table (the lean attention stage leaves the teaching backends numba_fa,
    # torch_blocked and sdpa_math out), the two sizes. The attention table's "config / why not" is prose that
    # wraps by design (a reason why a backend did not run, said in full): its continuation lines are counted
    # apart, and in them every other cell is empty (nothing squeezed)
    for title in ("Kernels of ", "Summary"):
        assert any(line.startswith(title) for line in lines), title
    assert len(table_rows(lines, "Kernels of ")) == 30
    if run.startswith("flux"):
        cells = [row.split("│")[1].strip() for row in table_rows(lines, "Per input size")]
        assert cells == [BIG, SMALL]
        assert len(table_rows(lines, "Kernels per input size")) == 30
    else:
        body = table_rows(lines, "Attention backends at the model's shapes")
        cells = [[c.strip() for c in row.split("│")[1:-1]] for row in body]
        with open(RUNS / run / "attention.csv", newline="") as f:
            backends = [r["backend"] for r in csv.DictReader(f)]
        assert len(backends) == 12 and [c[0] for c in cells if c[0]] == backends
        assert all(not any(c[:-1]) for c in cells if not c[0])     # continuations: the last column only


def table_rows(lines: list[str], title: str) -> list[str]:
    """The body lines of the first table after the line starting with `title`."""
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    head = next(i for i in range(start, len(lines)) if lines[i].startswith("┡"))
    end = next(i for i in range(head, len(lines)) if lines[i].startswith("└"))
    return lines[head + 1:end]
