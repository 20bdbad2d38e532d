"""The launches table (proton/*.launches.json): the recorded hatchets' kernel rows survive it exactly, the
report reads it when it was written from the run's hatchet, and falls back to the hatchet otherwise."""
import json
import math
import shutil

import pandas as pd
import pytest

from recorded import REPO, data_path
from inductor_prof.analysis import load_run_tables
from inductor_prof.drivers import proton
from inductor_prof.drivers.proton import launches
from inductor_prof.report import export
from inductor_prof.rundir import RunDir
from inductor_prof.runfiles import hatchet_rows

EXAMPLE = REPO / "examples" / "runs" / "flux-h100"
HATCHETS = [("flux_small", "steps.hatchet"), ("flux_small", "annotated_step.hatchet")]


@pytest.mark.parametrize("run,name", HATCHETS)
def test_recorded_hatchet_rows_and_device_survive_the_table(tmp_path, run, name):
    hatchet = data_path(run, "proton", name)
    table = tmp_path / "t.launches.json"
    assert launches.write(hatchet, table) == len(proton.parse(hatchet))
    rows, device = launches.from_table(json.loads(table.read_text()))
    # same values, dtypes and order as the tree walk
    pd.testing.assert_frame_equal(rows, proton.parse(hatchet), check_exact=True)
    assert device == proton.device_info(hatchet) and device["CUDA"]["0"]["arch"] == "90"


def test_example_steps_survive_the_table(tmp_path):
    hatchet = EXAMPLE / "proton" / "steps.hatchet"
    table = tmp_path / "t.launches.json"
    launches.write(hatchet, table)
    pd.testing.assert_frame_equal(hatchet_rows(hatchet, table)[0], proton.parse(hatchet), check_exact=True)


def _rows(**cols):
    base = {"name": ["k"], "path": ["step_0"], "calls": [1], "time_ns": [1.0], "bytes": [0.0], "flops8": [0.0],
            "flops16": [0.0], "flops32": [0.0], "flops64": [0.0], "flops": [0.0]}
    return pd.DataFrame({**base, **cols})


def test_whole_numbers_stored_as_integers_and_read_back_exactly():
    rows = _rows(name=["a", "b", "a"], path=["s/x", "s/x", ""], calls=[3, 0, 7], time_ns=[2944.0, 1.5, 2.0 ** 60],
                 bytes=[0.0] * 3, flops8=[0.0] * 3, flops16=[0.0] * 3, flops32=[0.1, 0.0, 1e300], flops64=[0.0] * 3,
                 flops=[0.0] * 3)
    table = launches.to_table(rows, {"CUDA": {}}, 99)
    # names and paths once each, rows point at them by position
    assert table["names"] == ["a", "b"] and table["columns"]["name"] == [0, 1, 0]
    assert table["paths"] == ["s/x", ""] and table["columns"]["path"] == [0, 0, 1]
    # 2944.0 and 2**60 are whole: written as integers; 1.5 and 0.1 are not
    text = json.dumps(table)
    assert '"time_ns": [2944, 1.5, 1152921504606846976]' in text and '"flops32": [0.1, 0, ' in text
    back, device = launches.from_table(json.loads(text))
    pd.testing.assert_frame_equal(back, rows, check_exact=True)
    assert device == {"CUDA": {}}


def test_a_column_of_one_value_is_stored_once_and_read_back_exactly():
    rows = _rows(name=["a", "b", "a"], path=["s", "s", "s"], calls=[2, 2, 2], time_ns=[1.0, 1.0, 3.0],
                 bytes=[0.0] * 3, flops8=[0.0] * 3, flops16=[-0.0, 0.0, 0.0], flops32=[math.nan] * 3,
                 flops64=[1.5] * 3, flops=[2.0 ** 60] * 3)
    table = json.loads(json.dumps(launches.to_table(rows, {}, 99)))
    cols = table["columns"]
    assert table["format"] == "inductor-prof launches 2"
    # calls, bytes and the flops of one value: the value alone; -0.0 is written 0 as format 1 did; NaN equals
    # nothing (each NaN stays), time_ns differs
    assert (cols["calls"], cols["bytes"], cols["flops8"], cols["flops16"], cols["flops64"], cols["flops"]) == \
        (2, 0, 0, 0, 1.5, 2 ** 60)
    assert cols["time_ns"] == [1, 1, 3] and len(cols["flops32"]) == 3 and cols["name"] == [0, 1, 0]
    back, _ = launches.from_table(table)
    expected = rows.assign(flops16=[0.0] * 3)
    pd.testing.assert_frame_equal(back, expected, check_exact=True)


def test_a_format_1_table_is_still_read():
    rows = _rows(name=["a", "b"], path=["s", "s"], calls=[2, 2], time_ns=[1.0, 3.0], bytes=[0.0] * 2,
                 flops8=[0.0] * 2, flops16=[0.0] * 2, flops32=[0.0] * 2, flops64=[0.0] * 2, flops=[0.0] * 2)
    table = launches.to_table(rows, {}, 99)
    # as format 1 wrote it: every column a list
    old = {**table, "format": "inductor-prof launches 1",
           "columns": {c: v if isinstance(v, list) else [v] * 2 for c, v in table["columns"].items()}}
    pd.testing.assert_frame_equal(launches.from_table(old)[0], rows, check_exact=True)


def _small_run(tmp_path) -> RunDir:
    dst = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), dst)
    return RunDir(dst)


def test_report_reads_the_table_when_written_from_the_runs_hatchet(tmp_path):
    run = _small_run(tmp_path)
    before = load_run_tables(run.root)
    launches.write(run.steps_hatchet, run.steps_launches)
    launches.write(run.annotated_hatchet, run.annotated_launches)
    with_tables = load_run_tables(run.root)
    assert export.to_json(with_tables, with_tables.kernels) == export.to_json(before, before.kernels)
    # proof that the table is what was read: triple every time in it, and the report follows
    table = json.loads(run.steps_launches.read_text())
    table["columns"]["time_ns"] = [3 * t for t in table["columns"]["time_ns"]]
    run.steps_launches.write_text(json.dumps(table))
    tripled = load_run_tables(run.root).kernels.set_index("name")["total_ns"]
    assert (tripled == 3 * before.kernels.set_index("name")["total_ns"]).all()


@pytest.mark.parametrize("damage", ["stale", "truncated", "other format", "short column"])
def test_report_falls_back_to_the_hatchet(tmp_path, damage):
    run = _small_run(tmp_path)
    before = load_run_tables(run.root).kernels
    launches.write(run.steps_hatchet, run.steps_launches)
    table = json.loads(run.steps_launches.read_text())
    table["columns"]["time_ns"] = [3 * t for t in table["columns"]["time_ns"]]    # visible if it were read
    if damage == "stale":            # written from another hatchet than the one now in the run
        table["source_bytes"] += 1
    elif damage == "other format":
        table["format"] = "inductor-prof launches 99"
    elif damage == "short column":
        table["columns"]["calls"].pop()
    text = json.dumps(table)
    run.steps_launches.write_text(text[: len(text) // 2] if damage == "truncated" else text)
    pd.testing.assert_frame_equal(load_run_tables(run.root).kernels, before, check_exact=True)

