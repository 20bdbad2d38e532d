"""`try`'s experiments in `report`: terminal, JSON, CSV and HTML, read from the experiments that
examples/runs/unet-h200 and llama-h100 ship (run on an H200 by `inductor-prof try`, 2026-11-28)."""
import json
import shutil
from pathlib import Path

import pytest

from inductor_prof.report import experiments as rep
from inductor_prof.runfiles.files import Damaged, experiments_file

ROOT = Path(__file__).resolve().parents[2]
UNET = ROOT / "examples" / "runs" / "unet-h200"
LLAMA = ROOT / "examples" / "runs" / "llama-h100"


def doc(run: Path) -> dict:
    return experiments_file(run / "experiments" / "experiments.json")


def test_each_experiment_is_shown_once_under_the_first_item_it_answers():
    text = "\n".join(rep.lines(doc(LLAMA)))
    assert text.count("coordinate_descent:") == 1 and text.count("max_autotune:") == 1
    # coordinate descent answers three kernels' items: shown under the first, the others named
    first = text.index("triton_red_fused__to_copy__unsafe_view_add_mean_mul_pow_rsqrt_3 (")
    assert first < text.index("coordinate_descent:") < text.index("also answers: triton_poi_fused__unsafe_view_mul")


def test_the_line_says_both_medians_the_ratio_the_noise_and_the_verdict():
    e = doc(UNET)["experiments"][0]
    t = e["timing"]
    line = rep.experiment_line(e)
    assert f"{t['before']['median_ms']:.3f} -> {t['after']['median_ms']:.3f} ms/step" in line
    # the ratio printed is after/before of the medians printed
    assert f"({t['after']['median_ms'] / t['before']['median_ms']:.3f}x" in line
    assert "faster: confirmed" in line and e["advice_verdict"] == "confirmed"


def test_a_failed_experiment_says_its_reason():
    assert rep.experiment_line({"name": "max_autotune", "status": "out of memory",
                                "reason": "compile_after: out of memory"}) == \
        "max_autotune: out of memory (compile_after: out of memory)"


def test_rows_flatten_every_experiment_and_nan_becomes_null():
    rows = rep.rows(doc(LLAMA))
    assert [r["experiment"] for r in rows] == ["cuda_graphs", "coordinate_descent", "max_autotune"]
    assert set(rows[0]) == set(rep.ROW_COLUMNS)
    assert rep.clean({"a": [float("nan"), 1.0]}) == {"a": [None, 1.0]}


def test_a_damaged_experiments_file_is_named(tmp_path):
    bad = tmp_path / "experiments.json"
    bad.write_text(json.dumps({"experiments": [{"name": "x"}]}))
    with pytest.raises(Damaged, match="'name' and 'status'"):
        experiments_file(bad)


def test_report_json_and_csv_carry_the_experiments(tmp_path, capsys):
    from cli_main import run_main

    code, out, err = run_main(["report", str(UNET), "--json"], capsys)
    assert code == 0
    got = json.loads(out)["experiments"]["experiments"][0]
    assert got["name"] == "cuda_graphs" and got["status"] == "ok"
    code, out, err = run_main(["report", str(UNET), "--csv", str(tmp_path / "k.csv"), "--width", "120"], capsys)
    assert code == 0 and "k.experiments.csv" in err
    text = (tmp_path / "k.experiments.csv").read_text()
    assert text.splitlines()[0].split(",")[:3] == ["experiment", "answers", "status"]
    assert "cuda_graphs,launch overhead and idle,ok" in text


def test_a_damaged_experiments_file_is_one_warning_and_the_report_goes_on(tmp_path, capsys):
    from cli_main import run_main

    run = tmp_path / "unet"
    shutil.copytree(UNET, run)
    (run / "experiments" / "experiments.json").write_text("{")
    code, out, err = run_main(["report", str(run), "--width", "120"], capsys)
    assert code == 0
    assert "experiments.json is damaged" in err and "Experiments" not in out


def test_a_graphs_run_warns_that_its_inductor_kernels_are_unannotated(tmp_path, capsys):
    from cli_main import run_main

    from inductor_prof.pipeline.steps import GRAPH_REPLAYS_UNANNOTATED

    run = tmp_path / "unet"
    shutil.copytree(UNET, run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["stages"]["annotated_step"]["cuda_graphs"] = GRAPH_REPLAYS_UNANNOTATED   # as the stage records it
    (run / "manifest.json").write_text(json.dumps(manifest))
    code, out, err = run_main(["report", str(run), "--width", "120"], capsys)
    assert code == 0 and "launch no kernel through Triton's launcher" in err
