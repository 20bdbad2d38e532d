"""Attention timings reused across runs (attention/benchmark/reuse.py, issue 51 item 1): the benchmark on the CPU
(torch_blocked and SDPA math, timed by wall clock: real timings of this machine, the GPU's facts given by hand),
run as two runs sharing one measurement store."""
import csv
import json
import math
import shutil

import pytest

from inductor_prof.attention.benchmark import bench
from inductor_prof.attention.benchmark.bench import BenchOptions
from inductor_prof.attention.semantics.masks import MaskSpec
from inductor_prof.attention.semantics.shapes import Shape
from inductor_prof.measure_store import MeasureStore
from recorded import REPO

MACHINE = {"gpu": "NVIDIA H100 80GB HBM3", "driver": "580.159.04", "torch": "2.11.0+cu130", "triton": "3.6.0"}
SHAPES = [(Shape(1, 2, 64, 64, 16, "float32", mask=MaskSpec("causal")), 4, "aten::scaled_dot_product_attention"),
          (Shape(1, 2, 32, 32, 16, "float32"), 2, "aten::scaled_dot_product_attention")]


@pytest.fixture
def measured(monkeypatch):
    """The shapes bench_shape measured, in order."""
    seen = []
    real = bench.bench_shape

    def counting(shape, *a, **kw):
        seen.append(shape.label)
        return real(shape, *a, **kw)
    monkeypatch.setattr(bench, "bench_shape", counting)
    return seen


def _run(tmp_path, run_id, shapes=SHAPES, machine=MACHINE, **kw):
    opts = BenchOptions(backends=["torch_blocked", "sdpa_math"], device="cpu", tune=False, rep_ms=5.0,
                        store=MeasureStore(tmp_path / "store"), run_id=run_id, machine=machine, **kw)
    return bench.run(shapes, opts), opts


def _same(a: dict, b: dict) -> bool:
    return all(a[k] == b[k] or (isinstance(a[k], float) and math.isnan(a[k]) and math.isnan(b[k])) for k in a)


def test_a_second_run_takes_every_shapes_rows_and_says_from_which_run(tmp_path, measured):
    first, _ = _run(tmp_path, "run-a")
    assert measured == [s.label for s, _, _ in SHAPES] and first.reused == {}
    second, _ = _run(tmp_path, "run-b")
    assert len(measured) == 2                                  # nothing timed again
    assert second.reused == {s.label: "run-a" for s, _, _ in SHAPES}
    assert len(second.rows) == len(first.rows) == 4
    for a, b in zip(first.rows, second.rows):
        assert b.pop("origin_run_id") == "run-a" and "origin_run_id" not in a
        assert _same(a, b)                                     # the first run's timings, NaN where none was


@pytest.mark.parametrize("change", [{"machine": {**MACHINE, "driver": "590.1"}}, {"reuse": False},
                                   {"rep_ms": 6.0}, {"backends": ["sdpa_math"]}])
def test_another_machine_fresh_other_options_or_backends_time_again(tmp_path, measured, change):
    _run(tmp_path, "run-a")
    kw = {k: v for k, v in change.items() if k not in ("machine", "rep_ms", "backends")}
    opts = BenchOptions(backends=change.get("backends", ["torch_blocked", "sdpa_math"]), device="cpu", tune=False,
                        rep_ms=change.get("rep_ms", 5.0), store=MeasureStore(tmp_path / "store"), run_id="run-b",
                        machine=change.get("machine", MACHINE), **kw)
    assert bench.run(SHAPES, opts).reused == {} and len(measured) == 4


def test_only_the_new_shape_is_timed(tmp_path, measured):
    _run(tmp_path, "run-a", SHAPES[:1])
    second, _ = _run(tmp_path, "run-b")
    assert measured == [SHAPES[0][0].label, SHAPES[1][0].label] and list(second.reused) == [SHAPES[0][0].label]


def test_a_mask_from_saved_values_is_always_timed(tmp_path, measured):
    shape = Shape(1, 2, 32, 32, 16, "float32", mask=MaskSpec("arbitrary", pairs=600, file="attention/masks/m0.pt"))
    facts = bench.reuse.shape_facts(MACHINE, shape, 1, "", [], {})
    assert facts is None       # another run's file of that name may hold another mask


def test_a_damaged_entry_is_a_warning_and_timed_again(tmp_path, measured):
    _run(tmp_path, "run-a")
    for entry in (tmp_path / "store" / "attention").glob("*.json"):
        entry.write_text("{")
    second, opts = _run(tmp_path, "run-b")
    assert second.reused == {} and len(measured) == 4
    assert len(opts.store.warnings) == 2 and all("unreadable (JSONDecodeError): measured again" in w
                                                 for w in opts.store.warnings)


def test_no_run_id_neither_takes_nor_keeps(tmp_path, measured):
    _run(tmp_path, "")
    assert not (tmp_path / "store").exists()


def test_the_report_says_which_attention_rows_were_reused(tmp_path):
    """The recorded FLUX run's attention.csv as the stage writes it when it reuses a shape's rows: the column
    origin_run_id on those rows."""
    from typer.testing import CliRunner

    from inductor_prof.cli import app

    run = tmp_path / "run"
    shutil.copytree(REPO / "examples" / "runs" / "flux-h100", run, ignore=shutil.ignore_patterns("experiments"))
    rows = list(csv.DictReader(open(run / "attention.csv")))
    for r in rows:
        r["origin_run_id"] = "run-a"
    manifest = json.loads((run / "manifest.json").read_text())
    manifest.pop("files", None)   # the file is rewritten here, as the stage writes it
    (run / "manifest.json").write_text(json.dumps(manifest))
    with open(run / "attention.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    r = CliRunner().invoke(app, ["report", str(run), "--width", "250"])
    assert r.exit_code == 0, r.output
    assert (f"Attention: {len(rows)} of {len(rows)} rows reused from run run-a (same GPU, driver, versions, "
            "backends and shape; `profile --fresh` times them again)") in r.stdout
    doc = json.loads(CliRunner().invoke(app, ["report", str(run), "--json"]).stdout)
    assert {a["origin_run_id"] for a in doc["attention"]} == {"run-a"}
