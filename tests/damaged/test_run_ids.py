"""A run file carries its run's id where its format allows (rundir.STAMPED_CSV/_JSON), so `report` and `diff` tell a
file copied in from another run ("from another run": another id) from one edited since ("changed since the run was
recorded": its own id, or none, and not its record). Files its stage's own process, Proton or ncu wrote are recorded
by the parent once the stage ends (pipeline/written.py).

The runs are copies of two shipped H200 runs (fp8-mlp-h200, moe-h200: each a real profile with its own run id and
file records, recorded before files carried the id), whose files were written again through the writers a profile
uses, with the run's Manifest live: as a profile of this version writes them."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from cli_main import run_main
from inductor_prof import rundir, runfiles
from inductor_prof.analysis import load_run_tables
from inductor_prof.drivers.proton import launches
from inductor_prof.pipeline import written
from inductor_prof.runfiles.files import LACKING
from recorded import REPO

SHIPPED = REPO / "examples" / "runs"


def _stamp(src: Path, dest: Path) -> Path:
    """`src` copied to `dest`, its library_ops.csv, ncu.csv and launches tables written again as a profile of this
    version writes them (with the run's id), and what Proton and ncu wrote recorded as the parent does."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("*.ncu-rep", "torch_trace*.json.gz", "*.log"))
    run = rundir.RunDir(dest)
    manifest = rundir.Manifest.of(run, runfiles.manifest(run))
    for csv in (run.library_ops_csv, run.ncu_csv):
        rundir.write_csv(csv, pd.read_csv(csv, keep_default_na=False))
    launches.write(run.steps_hatchet, run.steps_launches)
    launches.write(run.annotated_hatchet, run.annotated_launches)
    for stage in ("proton_steps", "annotated_step", "ncu"):
        written.record(manifest, stage)
    del manifest   # the profile ended: later writes are not recorded
    return dest


@pytest.fixture(scope="module")
def stamped(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("stamped")
    return {name: _stamp(SHIPPED / name, base / name) for name in ("fp8-mlp-h200", "moe-h200")}


@pytest.fixture
def moe(stamped, tmp_path) -> rundir.RunDir:
    """A fresh copy of the stamped moe-h200, for one test to change."""
    return rundir.RunDir(Path(shutil.copytree(stamped["moe-h200"], tmp_path / "moe")))


def run_id(folder: Path) -> str:
    return json.loads((folder / rundir.MANIFEST).read_text())[rundir.RUN_ID]


def test_each_file_whose_format_allows_carries_the_run_id(tmp_path):
    run = rundir.create(tmp_path / "run")
    manifest = rundir.Manifest(run, {"tool": "inductor-prof"})
    own = manifest.data[rundir.RUN_ID]
    rundir.write_csv(run.library_ops_csv, pd.DataFrame({"kernel": ["k1", "k2"], "flops": [1, 2]}))
    rundir.write_json(run.ncu_source_counters("k1"), {"report": "a.ncu-rep", "counters": {}})
    rundir.write_json(run.kernels_json, [{"name": "k1"}])             # a list: no field to hold it
    rundir.write_json(run.ncu_status_json, {"k1": {"status": "ok"}})  # a map of kernel stems: a field reads as one
    assert pd.read_csv(run.library_ops_csv)["run_id"].tolist() == [own, own]
    assert next(iter(json.loads(run.ncu_source_counters("k1").read_text()).items())) == ("run_id", own)
    assert json.loads(run.kernels_json.read_text()) == [{"name": "k1"}]
    assert json.loads(run.ncu_status_json.read_text()) == {"k1": {"status": "ok"}}
    del manifest   # a stage's own process holds no Manifest: the id comes from the run folder's manifest.json
    rundir.write_csv(run.attention_csv, pd.DataFrame({"backend": ["sdpa"]}))
    assert pd.read_csv(run.attention_csv)["run_id"].tolist() == [own]
    rundir.write_csv(tmp_path / "library_ops.csv", pd.DataFrame({"a": [1]}))   # outside any run: as given
    assert list(pd.read_csv(tmp_path / "library_ops.csv").columns) == ["a"]


def test_a_stamped_run_reads_as_the_shipped_one(stamped):
    for name, folder in stamped.items():
        assert "run_id" in pd.read_csv(folder / "library_ops.csv").columns
        assert json.loads((folder / "proton" / "steps.launches.json").read_text())["run_id"] == run_id(folder)
        ours, shipped = load_run_tables(folder), load_run_tables(SHIPPED / name)
        assert ours.warnings == []
        assert "run_id" not in ours.library_ops.columns
        pd.testing.assert_frame_equal(ours.kernels, shipped.kernels)


def test_the_parent_records_what_proton_and_ncu_wrote(stamped):
    files = json.loads((stamped["moe-h200"] / rundir.MANIFEST).read_text())[rundir.FILES]
    for rel in ("proton/steps.hatchet", "proton/annotated_step.hatchet", "ncu/ncu.csv", "ncu/status.json"):
        assert files[rel] == rundir.file_record(stamped["moe-h200"] / rel), rel


def test_a_file_from_another_run_is_said_so_and_left_out(stamped, moe):
    shutil.copyfile(stamped["fp8-mlp-h200"] / "library_ops.csv", moe.library_ops_csv)
    t = load_run_tables(moe.root)
    assert t.warnings == [f"{moe.library_ops_csv} is from another run (run id {run_id(stamped['fp8-mlp-h200'])}; "
                          f"this run's is {run_id(moe.root)}); {LACKING['library_ops']}"]
    assert t.library_ops is None


def test_a_file_of_the_run_edited_since_is_changed_since(moe):
    path = moe.library_ops_csv
    lines = path.read_text().splitlines(keepends=True)
    lines[1], lines[2] = lines[2], lines[1]   # its own id on each row, two rows swapped
    path.write_text("".join(lines))
    (line,) = load_run_tables(moe.root).warnings
    assert line.startswith(f"{path} changed since the run was recorded (")


def test_rows_of_another_run_appended_are_said(stamped, moe):
    other = (stamped["fp8-mlp-h200"] / "library_ops.csv").read_text().splitlines(keepends=True)[1:]
    with open(moe.library_ops_csv, "a") as f:
        f.writelines(other)
    (line,) = load_run_tables(moe.root).warnings
    assert line.startswith(f"{moe.library_ops_csv} holds rows from another run (run id "
                           f"{run_id(stamped['fp8-mlp-h200'])}; this run's is {run_id(moe.root)})")


def test_another_runs_file_is_said_even_where_no_record_names_it(stamped, moe):
    manifest = json.loads(moe.manifest_path.read_text())
    del manifest[rundir.FILES]["library_ops.csv"]
    moe.manifest_path.write_text(json.dumps(manifest))
    shutil.copyfile(stamped["fp8-mlp-h200"] / "library_ops.csv", moe.library_ops_csv)
    (line,) = load_run_tables(moe.root).warnings
    assert line.startswith(f"{moe.library_ops_csv} is from another run (")


def test_another_runs_launches_table_is_passed_over_for_the_hatchet(stamped, moe):
    shutil.copyfile(stamped["fp8-mlp-h200"] / "proton" / "steps.launches.json", moe.steps_launches)
    t = load_run_tables(moe.root)
    (line,) = t.warnings
    assert line.startswith(f"{moe.steps_launches} is from another run (") and line.endswith(
        "; read steps.hatchet instead")
    shipped = load_run_tables(SHIPPED / "moe-h200")
    pd.testing.assert_frame_equal(t.kernels, shipped.kernels)   # the hatchet's own rows: the run's numbers


def test_a_changed_hatchet_is_said(moe, capsys):
    # the same tree written again: Proton's own format holds no id, so its record alone says it is not the run's
    annotated = moe.annotated_hatchet
    annotated.write_text(json.dumps(json.loads(annotated.read_text()), indent=2))
    (line,) = load_run_tables(moe.root).warnings
    assert line.startswith(f"{annotated} changed since the run was recorded (") and line.endswith(
        LACKING["annotated"])
    steps = moe.steps_hatchet   # required: one error line
    steps.write_text(json.dumps(json.loads(steps.read_text()), indent=2))
    code, out, err = run_main(["report", str(moe.root)], capsys)
    assert code == 2 and err.startswith(f"error: {steps} changed since the run was recorded ("), err


def test_diff_gate_refuses_a_file_from_another_run(stamped, moe, capsys):
    shutil.copyfile(stamped["fp8-mlp-h200"] / "ncu" / "ncu.csv", moe.ncu_csv)
    code, out, err = run_main(["diff", str(stamped["moe-h200"]), str(moe.root), "--fail-above", "5"], capsys)
    assert code == 2 and err.startswith(f"error: --fail-above: run B: {moe.ncu_csv} is from another run ("), err
