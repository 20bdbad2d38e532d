"""The launches table (proton/*.launches.json): the recorded hatchets' kernel rows survive it exactly, the
report reads it when it was written from the run's hatchet, and falls back to the hatchet otherwise."""
import base64
import json
import math
import shutil

import numpy as np
import pandas as pd
import pytest

from recorded import REPO, data_path
from inductor_prof.analysis import load_run_tables
from inductor_prof.drivers import proton
from inductor_prof.drivers.proton import launches
from inductor_prof.drivers.proton.hatchet import frame_of
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
    return frame_of({**base, **cols})   # as a hatchet's rows are (names and paths categorical)


def _packed(values, dtype):
    """A packed column as format 3 stores it, built here from numpy's own bytes (not launches' writer)."""
    return {"dtype": dtype, "base64": base64.b64encode(np.asarray(values, dtype=dtype).tobytes()).decode()}


def test_whole_numbers_stored_in_the_narrowest_integer_type_and_read_back_exactly():
    rows = _rows(name=["a", "b", "a"], path=["s/x", "s/x", ""], calls=[3, 0, 7], time_ns=[2944.0, 70000.0, 2.0 ** 60],
                 bytes=[0.0, -0.0, 300.0], flops8=[-1.0, 0.0, 5.0], flops16=[0.0] * 3, flops32=[0.1, 0.0, 1e300],
                 flops64=[0.0, 0.0, 1.0], flops=[0.0, 2.0 ** 63, 1.0])
    table = launches.to_table(rows, {"CUDA": {}}, 99)
    cols = table["columns"]
    assert table["format"] == "inductor-prof launches 3"
    # names and paths once each, rows point at them by position (3 positions below 256: one byte each)
    assert table["names"] == ["a", "b"] and cols["name"] == _packed([0, 1, 0], "<u1")
    assert table["paths"] == ["s/x", ""] and cols["path"] == _packed([0, 0, 1], "<u1")
    # the narrowest type that holds each column: 7 fits a byte; 300 two; -1 a signed byte; 2**60 eight bytes;
    # -0.0 is whole (written 0, as formats 1 and 2 did); 0.1 is not, 1e300 is beyond int64 and 2**63 just
    # past it: float64
    assert cols["calls"] == _packed([3, 0, 7], "<u1") and cols["bytes"] == _packed([0, 0, 300], "<u2")
    assert cols["flops8"] == _packed([-1, 0, 5], "<i1") and cols["flops64"] == _packed([0, 0, 1], "<u1")
    assert cols["time_ns"] == _packed([2944, 70000, 2 ** 60], "<i8")
    assert cols["flops32"] == _packed([0.1, 0.0, 1e300], "<f8") and cols["flops"] == _packed([0, 2.0 ** 63, 1], "<f8")
    back, device = launches.from_table(json.loads(json.dumps(table)))
    pd.testing.assert_frame_equal(back, rows.assign(bytes=[0.0, 0.0, 300.0]), check_exact=True)
    assert device == {"CUDA": {}}


def test_a_column_of_one_value_is_stored_once_and_read_back_exactly():
    rows = _rows(name=["a", "b", "a"], path=["s", "s", "s"], calls=[2, 2, 2], time_ns=[1.0, 1.0, 3.0],
                 bytes=[0.0] * 3, flops8=[0.0] * 3, flops16=[-0.0, 0.0, 0.0], flops32=[math.nan] * 3,
                 flops64=[1.5] * 3, flops=[2.0 ** 60] * 3)
    table = json.loads(json.dumps(launches.to_table(rows, {}, 99)))
    cols = table["columns"]
    # calls, bytes and the flops of one value: the value alone; -0.0 is written 0 as format 1 did; NaN equals
    # nothing (each NaN stays), time_ns differs
    assert (cols["calls"], cols["bytes"], cols["flops8"], cols["flops16"], cols["flops64"], cols["flops"]) == \
        (2, 0, 0, 0, 1.5, 2 ** 60)
    assert cols["time_ns"] == _packed([1, 1, 3], "<u1") and cols["flops32"] == _packed([math.nan] * 3, "<f8")
    back, _ = launches.from_table(table)
    expected = rows.assign(flops16=[0.0] * 3)
    pd.testing.assert_frame_equal(back, expected, check_exact=True)


def _format_2(rows: pd.DataFrame) -> dict:
    """rows as format 2 stored them, written out here: JSON lists, whole numbers as integers, a column of one
    value as that value."""
    cols = {}
    for c in rows.columns[2:]:
        values = [int(v) if float(v).is_integer() else v for v in rows[c].tolist()]
        cols[c] = values[0] if len(set(values)) == 1 else values
    names, paths = list(dict.fromkeys(rows["name"])), list(dict.fromkeys(rows["path"]))
    return {"format": "inductor-prof launches 2", "source_bytes": 99, "device": {}, "names": names, "paths": paths,
            "columns": {"name": [names.index(n) for n in rows["name"]], "path": [paths.index(p) for p in rows["path"]],
                        **cols}}


def test_format_1_and_2_tables_are_still_read():
    rows = _rows(name=["a", "b"], path=["s", "s"], calls=[2, 2], time_ns=[1.0, 3.5], bytes=[0.0] * 2,
                 flops8=[0.0] * 2, flops16=[0.0] * 2, flops32=[0.0] * 2, flops64=[0.0] * 2, flops=[0.0] * 2)
    table = _format_2(rows)
    assert table["columns"]["calls"] == 2 and table["columns"]["time_ns"] == [1, 3.5]
    pd.testing.assert_frame_equal(launches.from_table(table)[0], rows, check_exact=True)
    # as format 1 wrote it: every column a list
    old = {**table, "format": "inductor-prof launches 1",
           "columns": {c: v if isinstance(v, list) else [v] * 2 for c, v in table["columns"].items()}}
    pd.testing.assert_frame_equal(launches.from_table(old)[0], rows, check_exact=True)


@pytest.mark.parametrize("column,damage", [("name", _packed([0, 2], "<u1")), ("path", _packed([0, -1], "<i1")),
                                           ("calls", {"dtype": "|O", "base64": ""}),
                                           ("time_ns", {"dtype": "<f8", "base64": "AAAA"}),
                                           ("time_ns", {"dtype": "<f8", "base64": "not base64!"})])
def test_a_damaged_packed_column_is_a_value_error(column, damage):
    rows = _rows(name=["a", "b"], path=["s", "t"], calls=[1, 2], time_ns=[1.0, 2.0],
                 **{c: [0.0, 0.0] for c in ("bytes", "flops8", "flops16", "flops32", "flops64", "flops")})
    table = launches.to_table(rows, {}, 99)
    launches.from_table(table)   # whole, it reads
    table["columns"][column] = damage   # a position past the names, a negative one, an object type, cut bytes
    with pytest.raises(ValueError):
        launches.from_table(table)


def _rewritten(path, **changes) -> None:
    """The table at `path` written again (by launches' own to_table) with its rows changed, or cut to fewer."""
    table = json.loads(path.read_text())
    rows, device = launches.from_table(table)
    cut = changes.pop("cut", None)
    new = launches.to_table(rows.assign(**{c: f(rows[c]) for c, f in changes.items()}), device, table["source_bytes"])
    if cut:   # one column a row short
        new["columns"][cut] = launches.to_table(rows.iloc[:-1], device, 0)["columns"][cut]
    path.write_text(json.dumps({**table, **new}))


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
    _rewritten(run.steps_launches, time_ns=lambda t: 3 * t)
    tripled = load_run_tables(run.root).kernels.set_index("name")["total_ns"]
    assert (tripled == 3 * before.kernels.set_index("name")["total_ns"]).all()


@pytest.mark.parametrize("damage", ["stale", "truncated", "other format", "short column"])
def test_report_falls_back_to_the_hatchet(tmp_path, damage):
    run = _small_run(tmp_path)
    before = load_run_tables(run.root).kernels
    launches.write(run.steps_hatchet, run.steps_launches)
    _rewritten(run.steps_launches, time_ns=lambda t: 3 * t, cut="calls" if damage == "short column" else None)
    table = json.loads(run.steps_launches.read_text())    # every time tripled: visible if it were read
    if damage == "stale":            # written from another hatchet than the one now in the run
        table["source_bytes"] += 1
    elif damage == "other format":
        table["format"] = "inductor-prof launches 99"
    text = json.dumps(table)
    run.steps_launches.write_text(text[: len(text) // 2] if damage == "truncated" else text)
    pd.testing.assert_frame_equal(load_run_tables(run.root).kernels, before, check_exact=True)

