"""Issue 52's cases, each on a copy of a recorded run: a file cut or edited so that it still parses is said, by
name, and the number it would have made up is left out (or computed from what can be trusted)."""
from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from cli_main import run_main
from damaged.runs import copy_run, cut_line_end
from inductor_prof.analysis import load_run_tables
from recorded import REPO

RUNS = REPO / "examples" / "runs"
TOP_GEMM = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"   # llama-h100's costliest kernel: 798 TFLOP/s


@pytest.fixture
def run(tmp_path):
    return copy_run(tmp_path / "run")


def kernel(tables, name: str) -> pd.Series:
    return tables.kernels.set_index("name").loc[name]


def warned(tables, *parts: str) -> list[str]:
    return [w for w in tables.warnings if all(p in w for p in parts)]


def test_intact_copy_has_its_recorded_numbers(run):
    t = load_run_tables(run)
    assert t.warnings == [] and t.failed_checks == []
    assert round(kernel(t, TOP_GEMM)["tflops"]) == 798
    assert round(t.summary["headroom"]["launch_gap_ms_per_step"], 2) == 1.66


def test_library_ops_cut_at_a_line_end_is_said_and_its_gemm_rate_left_out(run):
    path = run / "library_ops.csv"
    path.write_bytes(cut_line_end(path.read_bytes()))
    t = load_run_tables(run)
    assert warned(t, str(path), "holds 44 rows, the run recorded 92")
    assert warned(t, str(path), f"{TOP_GEMM} (15 of 40)")
    assert kernel(t, TOP_GEMM)[["flops", "tflops"]].tolist() == [0, 0]   # no flops known, not 306 TFLOP/s


def test_flux_cudnn_kernel_after_a_cut_library_ops(tmp_path):
    run = tmp_path / "flux"
    shutil.copytree(RUNS / "flux-h100", run, ignore=shutil.ignore_patterns("*.ncu-rep", "source", "*.log"))
    cudnn = next(n for n in load_run_tables(run).kernels["name"] if n.startswith("cudnn_generated"))
    assert round(kernel(load_run_tables(run), cudnn)["tflops"]) == 581
    (run / "library_ops.csv").write_bytes(cut_line_end((run / "library_ops.csv").read_bytes()))
    t = load_run_tables(run)
    assert warned(t, str(run / "library_ops.csv"), "the run recorded 646")
    assert kernel(t, cudnn)[["flops", "tflops"]].tolist() == [0, 0]   # no flops known, not 163 TFLOP/s


def test_diff_gate_refuses_to_judge_a_cut_library_ops(run, capsys):
    path = run / "library_ops.csv"
    path.write_bytes(cut_line_end(path.read_bytes()))
    code, out, err = run_main(["diff", str(RUNS / "llama-h100"), str(run), "--fail-above", "5"], capsys)
    assert code == 2 and err.startswith(f"error: --fail-above: run B: {path} holds 44 rows"), err
    assert "--allow-different" in err   # not exit 1 with regressions made up from the missing rows


def _drop_step(hatchet, step: str) -> None:
    tree = json.loads(hatchet.read_text())
    tree[0]["children"] = [c for c in tree[0]["children"] if c["frame"]["name"] != step]
    hatchet.write_text(json.dumps(tree))


def test_a_step_cut_out_of_the_profile_is_said_and_not_divided_by(run):
    _drop_step(run / "proton" / "steps.hatchet", "step_9")
    t = load_run_tables(run)
    assert warned(t, "records 10 timed steps but", "steps.hatchet holds 9")
    assert round(t.summary["headroom"]["launch_gap_ms_per_step"], 1) == 1.7   # over 9 steps: not 2.4


def test_manifest_steps_edited_is_said_and_the_profile_counts(run):
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["profile"]["steps"] = 5
    (run / "manifest.json").write_text(json.dumps(manifest))
    t = load_run_tables(run)
    assert warned(t, str(run / "manifest.json"), "records 5 timed steps", "holds 10")
    busy = t.summary["headroom"]["gpu_busy_ms_per_step"]
    assert busy < t.summary["plain_step_ms"] and round(busy, 2) == 7.05   # not 14.1 ms inside an 8.7 ms step


def test_half_of_attention_csv_is_said_and_no_saving_is_made_up(run):
    path = run / "attention.csv"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:len(lines) // 2]))
    t = load_run_tables(run)
    assert warned(t, str(path), "holds 5 rows, the run recorded 12")
    assert t.attention is None and t.summary["headroom"]["attention"] == []


def test_deleted_attention_shapes_is_said(run):
    (run / "attention_shapes.json").unlink()
    t = load_run_tables(run)
    assert warned(t, str(run / "attention_shapes.json"), "is missing")


def test_launch_table_with_halved_times_is_above_the_spec_and_left_out(run):
    path = run / "proton" / "steps.launches.json"
    table = json.loads(path.read_text())
    table["columns"]["time_ns"] = [t / 2 for t in table["columns"]["time_ns"]]
    path.write_text(json.dumps(table))
    t = load_run_tables(run)
    (line,) = warned(t, str(path), TOP_GEMM, "above the GPU's flops16 spec peak of 1,071")
    assert float(line.split(" runs at ")[1].split(" TFLOP/s")[0].replace(",", "")) > 1071
    assert kernel(t, TOP_GEMM)[["flops", "tflops"]].tolist() == [0, 0]   # left out, not 1,597 TFLOP/s


@pytest.mark.parametrize("value, why", [("inf", "infinite"), ("-117.3", "negative")])
def test_ncu_inf_or_negative_is_said_and_not_shown(run, value, why):
    path = run / "ncu" / "ncu.csv"
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    name = df.loc[df["status"] == "ok", "name"].iloc[0]
    df.loc[df["name"] == name, "duration_ns"] = value
    df.to_csv(path, index=False)
    t = load_run_tables(run)
    assert warned(t, str(path), f"'duration_ns' is {float(value)!r} ({why})")
    assert pd.isna(kernel(t, name).get("ncu_duration_ns"))


def test_library_ops_from_another_run_is_said(run):
    shutil.copyfile(RUNS / "llama-padded-h100" / "library_ops.csv", run / "library_ops.csv")
    t = load_run_tables(run)
    assert warned(t, str(run / "library_ops.csv"), "holds 104 rows, the run recorded 92")


def test_non_numeric_attention_cell_is_one_warning(run, capsys):
    df = pd.read_csv(run / "attention.csv", dtype=str, keep_default_na=False)
    df.loc[1, "D"] = "sixty-four"
    df.to_csv(run / "attention.csv", index=False)
    code, out, err = run_main(["report", str(run)], capsys)
    assert code == 0 and "TypeError" not in err
    assert f"{run / 'attention.csv'} holds values no run writes (line 3: 'D' is 'sixty-four' (not a number))" in err


def test_nan_in_attention_shapes_is_one_warning(run, capsys):
    path = run / "attention_shapes.json"
    path.write_text(path.read_text().replace('"scale": 0.125', '"scale": NaN', 1))
    code, out, err = run_main(["report", str(run)], capsys)
    assert code == 0 and "TypeError" not in err
    assert f"{path} holds values no run writes (call 0: 'scale' is nan (NaN))" in err


def test_unreadable_steps_hatchet_is_one_line(run, capsys, monkeypatch):
    from damaged.test_damaged_files import unreadable

    unreadable(monkeypatch, run / "proton" / "steps.hatchet")
    code, out, err = run_main(["report", str(run)], capsys)
    assert code == 2 and err.startswith(f"error: {run / 'proton' / 'steps.hatchet'} cannot be read (Permission "
                                        "denied)"), err


def test_unreadable_launch_table_is_named_not_the_hatchet(run, capsys, monkeypatch):
    from damaged.test_damaged_files import unreadable

    table = run / "proton" / "steps.launches.json"
    unreadable(monkeypatch, table)
    t = load_run_tables(run)
    assert warned(t, f"{table} cannot be read (Permission denied); read steps.hatchet instead")
    assert round(kernel(t, TOP_GEMM)["tflops"]) == 798


def test_unreadable_folder_is_a_warning_not_an_exit(run, capsys, monkeypatch):
    from damaged.test_damaged_files import unreadable

    unreadable(monkeypatch, run / "ncu")
    code, out, err = run_main(["report", str(run)], capsys)
    assert code == 0 and f"{run / 'ncu' / 'ncu.csv'} cannot be read (Permission denied" in err


def test_a_library_kernel_listed_more_often_than_it_ran_is_left_out(run):
    path = run / "library_ops.csv"
    lines = path.read_text().splitlines(keepends=True)
    gemm = next(ln for ln in lines if ln.startswith(TOP_GEMM))
    path.write_text("".join(lines) + gemm)   # one call too many: its flops would be 41/40 of the real ones
    t = load_run_tables(run)
    assert warned(t, str(path), f"{TOP_GEMM} (41 of 40)")
    assert kernel(t, TOP_GEMM)[["flops", "tflops"]].tolist() == [0, 0]


def test_attention_backend_above_the_spec_is_left_out(run):
    path = run / "attention.csv"
    df = pd.read_csv(path)
    df.loc[0, "ms"] = df.loc[0, "ms"] / 4   # 1,357 TFLOP/s for bf16 attention
    df.to_csv(path, index=False)
    t = load_run_tables(run)
    (line,) = warned(t, str(path), f"{df.loc[0, 'backend']} at ", "above the GPU's flops16 spec peak of 1,071")
    assert pd.isna(t.attention.loc[0, "ms"]) and t.attention["ms"].notna().sum() == df["ms"].notna().sum() - 1


def _first_kernel_time(hatchet, value) -> None:
    tree = json.loads(hatchet.read_text())
    node = tree[0]
    while node["children"]:
        node = node["children"][0]
    node["metrics"]["time (ns)"] = value
    hatchet.write_text(json.dumps(tree))


@pytest.mark.parametrize("value", [-2400, float("inf")])
def test_hatchet_kernel_with_a_negative_or_infinite_time_is_left_out(run, value):
    (run / "proton" / "steps.launches.json").unlink()   # the hatchet itself is read
    _first_kernel_time(run / "proton" / "steps.hatchet", value)
    t = load_run_tables(run)
    (line,) = warned(t, str(run / "proton" / "steps.hatchet"), f"'time (ns)' is {value!r}", "1 frame left out")
    assert line.startswith(f"{run / 'proton' / 'steps.hatchet'} holds values no run writes (frame _ZN2at6native13")


def test_launch_table_with_a_negative_time_is_passed_over_for_its_hatchet(run):
    path = run / "proton" / "steps.launches.json"
    table = json.loads(path.read_text())
    table["columns"]["time_ns"][0] = -table["columns"]["time_ns"][0]
    path.write_text(json.dumps(table))
    t = load_run_tables(run)
    assert warned(t, f"{path} holds values no run writes", "read steps.hatchet instead")
    assert round(kernel(t, TOP_GEMM)["tflops"]) == 798
