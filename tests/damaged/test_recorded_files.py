"""Each file a stage writes through rundir's atomic writers is recorded in the manifest (size, lines, SHA-256);
`report` and `diff` check the files against it: one changed since is said by name and left out, the rest renders,
and the diff gate refuses to judge on it. Runs recorded before (the shipped examples) read as they always did."""
from __future__ import annotations

import json

import pytest

from cli_main import run_main
from damaged.runs import copy_run
from inductor_prof import rundir, runfiles
from inductor_prof.analysis import load_run_tables
from recorded import REPO

WRITTEN = ("library_ops.csv", "attention_shapes.json", "kernels/kernels.json", "ncu/ncu.csv", "ncu/status.json",
           "proton/steps.launches.json", "proton/annotated_step.launches.json", "attention.csv")
TOP_GEMM = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"


@pytest.fixture
def recorded(tmp_path):
    """A copy of llama-h100 whose stages' files were written again, as a profile writes them, with its Manifest
    live: the manifest records each."""
    run = rundir.RunDir(copy_run(tmp_path / "run"))
    manifest = rundir.Manifest.of(run, runfiles.manifest(run))
    for rel in WRITTEN:
        data = (run.root / rel).read_bytes()
        with rundir.atomic_path(run.root / rel) as tmp:
            tmp.write_bytes(data)
    manifest.save()
    del manifest   # the profile ended: later writes are not recorded
    return run


def test_each_written_file_is_recorded(recorded):
    files = json.loads(recorded.manifest_path.read_text())[rundir.FILES]
    assert sorted(files) == sorted(WRITTEN)
    assert files["library_ops.csv"] == rundir.file_record(recorded.library_ops_csv)
    assert files["library_ops.csv"]["lines"] == 93   # a header and 92 launches


def test_recorded_run_reads_as_the_recorded_one(recorded):
    t = load_run_tables(recorded.root)
    assert t.warnings == [] and round(t.kernels.set_index("name").loc[TOP_GEMM, "tflops"]) == 798


def test_a_file_changed_since_is_said_and_left_out(recorded):
    path = recorded.library_ops_csv
    path.write_text(path.read_text().replace(",bfloat16,", ",bfloat16,", 1) + "")   # same bytes: no word
    assert load_run_tables(recorded.root).warnings == []
    lines = path.read_text().splitlines(keepends=True)
    lines[1], lines[2] = lines[2], lines[1]   # every number as it was, two rows swapped: parses, counts agree
    path.write_text("".join(lines))
    t = load_run_tables(recorded.root)
    assert t.warnings == [f"{path} changed since the run was recorded (38,754 bytes, 93 lines; the run wrote 38,754 "
                          "bytes, 93 lines); library kernels (cuBLAS, cuDNN...) are shown without flops and bytes"]
    assert t.library_ops is None


def test_a_changed_launches_table_is_passed_over_for_its_hatchet(recorded):
    path = recorded.steps_launches
    table = json.loads(path.read_text())
    table["columns"]["time_ns"] = [t * 0.9 for t in table["columns"]["time_ns"]]   # 10% faster: below the spec
    path.write_text(json.dumps(table))
    t = load_run_tables(recorded.root)
    (line,) = t.warnings
    assert line.startswith(f"{path} changed since the run was recorded (") and line.endswith(
        "; read steps.hatchet instead")
    assert round(t.kernels.set_index("name").loc[TOP_GEMM, "tflops"]) == 798   # the hatchet's own times


def test_diff_gate_refuses_a_changed_file(recorded, capsys):
    path = recorded.root / "ncu" / "status.json"
    status = json.loads(path.read_text())
    path.write_text(json.dumps(status, indent=2))   # the same entries, written again by hand
    code, out, err = run_main(["diff", str(REPO / "examples" / "runs" / "llama-h100"), str(recorded.root),
                               "--fail-above", "5"], capsys)
    assert code == 2 and err.startswith(f"error: --fail-above: run B: {path} changed since the run was recorded")


# the shipped runs recorded after file records existed (on an H200, 2026-11-28): the others predate them
RECORDED_WITH_FILES = ("fp8-mlp-h200", "moe-h200", "unet-h200", "llama-train-h200", "llama-train-whole-h200",
                       "llama-h200", "flux-train-h200", "llama-graphs-h200",
                       "llama-train-ddp-h200x2/rank0", "llama-train-ddp-h200x2/rank1")


def test_runs_recorded_before_have_no_records_and_no_word():
    for run in sorted((REPO / "examples" / "runs").glob("*/manifest.json")):
        if run.parent.name not in RECORDED_WITH_FILES:
            assert rundir.FILES not in json.loads(run.read_text())
    t = load_run_tables(REPO / "examples" / "runs" / "llama-h100")
    assert not any("recorded" in w for w in t.warnings)


def test_a_real_profiles_records_match_its_files():
    # written by a real GPU profile: a run id, and each file the stages wrote through rundir recorded; every one
    # shipped reads back as recorded (the ncu reports were left out of the repository, and are never read)
    for name in RECORDED_WITH_FILES:
        data = json.loads((REPO / "examples" / "runs" / name / "manifest.json").read_text())
        assert len(data[rundir.RUN_ID]) == 32 and "library_ops.csv" in data[rundir.FILES]
        for rel, record in data[rundir.FILES].items():
            path = REPO / "examples" / "runs" / name / rel
            if path.exists():
                assert rundir.file_record(path) == record, path
        warnings = load_run_tables(REPO / "examples" / "runs" / name).warnings
        # the decoders were recorded before gathers and nll_loss had their own price (their embedding lookup and
        # loss priced at the whole table): those calls' bytes left out (above_spec.library_ops), nothing else
        said = [w for w in warnings if "over-count" in w]
        assert warnings == said
        if name == "llama-h200":
            assert len(said) == 1 and "aten::gather" in said[0]


def test_a_new_manifest_has_a_run_id(tmp_path):
    run = rundir.create(tmp_path / "run")
    a = rundir.Manifest(run, {"tool": "inductor-prof"})
    rundir.write_text(run.root / "x.csv", "a\n1\n")
    data = json.loads(run.manifest_path.read_text())
    assert len(data[rundir.RUN_ID]) == 32 and data[rundir.FILES] == {"x.csv": rundir.file_record(run.root / "x.csv")}
    assert a.data[rundir.RUN_ID] != rundir.Manifest(rundir.create(tmp_path / "run2"), {}).data[rundir.RUN_ID]
