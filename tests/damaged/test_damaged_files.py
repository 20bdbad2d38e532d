"""Every file `report` reads from a run, damaged each way a disk, a copy or an edit damages it: the report exits
0 or 2 without a traceback, and either its numbers are those of the intact run or a warning (or the error) names
the file. Each case starts from a copy of the recorded llama-h100 run (tests/damaged/runs.py)."""
from __future__ import annotations

import builtins
import io
import json
import os
from pathlib import Path

import pytest

from cli_main import run_main
from inductor_prof.analysis import load_run_tables
from inductor_prof.report.export import to_json
from damaged.runs import DAMAGES, copy_run, linked_run, numbers, rewrite

FILES = ("library_ops.csv", "attention.csv", "ncu/ncu.csv", "ncu/status.json", "attention_shapes.json",
         "kernels/kernels.json", "proton/annotated_step.launches.json", "proton/annotated_step.hatchet",
         "proton/steps.launches.json", "proton/steps.hatchet", "manifest.json",
         "kernels/triton_poi_fused__unsafe_view_add_5.py")
FOLDERS = ("ncu", "proton", "kernels")


def report(run: Path, capsys) -> tuple[int, dict | None, str]:
    """(exit code, the JSON with the copy's path written RUN, stderr) of `report RUN --json`."""
    code, out, err = run_main(["report", str(run), "--json"], capsys)
    doc = json.loads(out.replace(str(run), "RUN")) if code == 0 else None
    return code, doc, err


@pytest.fixture(scope="module")
def intact(tmp_path_factory) -> dict:
    """What `report --json` (top 30 by time) says of an intact copy, computed once for the module."""
    run = copy_run(tmp_path_factory.mktemp("intact") / "run")
    t = load_run_tables(run)
    assert t.warnings == []
    doc = json.loads(to_json(t, t.kernels.sort_values("total_ns", ascending=False, na_position="last").head(30),
                             total=len(t.kernels)).replace(str(run), "RUN"))
    return numbers(doc)


def said(rel: str, doc: dict | None, err: str) -> bool:
    """The file (its path in the run) is named in a warning or the error."""
    lines = [*(doc or {}).get("warnings", []), *err.splitlines()]
    return any(rel in line for line in lines)


def check(run: Path, rel: str, capsys, intact: dict) -> None:
    code, doc, err = report(run, capsys)
    assert code in (0, 2), err
    assert "Traceback" not in err, err
    if code == 2:
        assert err.startswith("error: ") and len(err.strip().splitlines()) == 1 and rel in err, err
        return
    assert numbers(doc) == intact or said(rel, doc, err), (rel, doc["warnings"])


@pytest.mark.parametrize("damage", DAMAGES, ids=[d.__name__ for d in DAMAGES])
@pytest.mark.parametrize("rel", FILES)
def test_damaged_file(tmp_path, capsys, intact, rel, damage):
    run = linked_run(tmp_path / "run")
    path = run / rel
    rewrite(path, damage(path.read_bytes()))
    check(run, rel, capsys, intact)


@pytest.mark.parametrize("rel", FILES)
def test_folder_in_place_of_a_file(tmp_path, capsys, intact, rel):
    run = linked_run(tmp_path / "run")
    (run / rel).unlink()
    (run / rel).mkdir()
    check(run, rel, capsys, intact)


def unreadable(monkeypatch, target: Path) -> None:
    """`target` (a file, or a folder and all below it) refused as a permission refuses it. The tests run as root
    here, where chmod refuses nothing: opening it, or looking at what a refused folder holds, raises."""
    target = Path(os.path.abspath(target))

    def refused(path, inside_only=False) -> bool:
        try:
            p = Path(os.path.abspath(os.fspath(path)))
        except TypeError:   # a file descriptor
            return False
        return (not inside_only and p == target) or target in p.parents

    def deny(path):
        raise PermissionError(13, "Permission denied", os.fspath(path))

    real_open, real_stat = builtins.open, os.stat

    def fake_open(file, *args, **kwargs):
        if refused(file):
            deny(file)
        return real_open(file, *args, **kwargs)

    def fake_stat(path, *args, **kwargs):
        if refused(path, inside_only=True):
            deny(path)
        return real_stat(path, *args, **kwargs)
    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(io, "open", fake_open)
    monkeypatch.setattr(os, "stat", fake_stat)


@pytest.mark.parametrize("rel", FILES + FOLDERS)
def test_unreadable_file_or_folder(tmp_path, capsys, monkeypatch, intact, rel):
    run = linked_run(tmp_path / "run")
    unreadable(monkeypatch, run / rel)
    check(run, rel, capsys, intact)


def test_intact_copy_reads_as_the_recorded_run(tmp_path, capsys, intact):
    code, doc, err = report(copy_run(tmp_path / "run"), capsys)
    assert code == 0 and doc["warnings"] == [] and numbers(doc) == intact
