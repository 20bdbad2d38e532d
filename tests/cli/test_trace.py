"""`inductor-prof trace RUN`: a Chrome/Perfetto trace file (or stdout), written atomically; a missing or damaged
torch trace, a step or size the run has not: one line naming it, exit 2."""
import gzip
import json
import shutil

import pytest

from cli_main import run_main
from recorded import REPO

RUNS = REPO / "examples" / "runs"
SMALL = RUNS / "llama-padded-h100"   # the smallest recorded run with a torch trace


@pytest.fixture
def run_copy(tmp_path):
    dst = tmp_path / "run"
    shutil.copytree(SMALL, dst)
    return dst


def check_format(doc):
    """What ui.perfetto.dev and chrome://tracing read: complete events with microsecond ts/dur, pid and tid."""
    assert set(doc) >= {"traceEvents"}
    xs = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    assert xs
    for e in xs:
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0
        assert {"name", "pid", "tid", "args"} <= set(e)
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
    assert names == {"GPU (kernels, Proton scopes)", "host (ops, launches)"}


def test_writes_the_trace(tmp_path, capsys):
    out = tmp_path / "llama.trace.json"
    code, stdout, err = run_main(["trace", str(SMALL), "--out", str(out)], capsys)
    assert code == 0, err
    doc = json.loads(out.read_text())
    check_format(doc)
    kernels = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["pid"] == 1 and "flops per launch" in e["args"]]
    # the recorded step launched 176 kernels (torch trace and Proton's step_0 alike)
    assert len(kernels) == 176
    assert "176 kernel launches, 8 blocks placed" in stdout and str(out) in stdout
    assert err == ""
    assert not list(tmp_path.glob(".llama.trace.json.*"))   # no temporary file left beside it


def test_a_name_ending_gz_is_gzipped(tmp_path, capsys):
    import gzip

    out = tmp_path / "llama.trace.json.gz"
    code, _, err = run_main(["trace", str(SMALL), "--out", str(out)], capsys)
    assert code == 0, err
    assert out.read_bytes()[:2] == b"\x1f\x8b"          # gzip's magic: Perfetto opens it as it is
    check_format(json.loads(gzip.decompress(out.read_bytes())))


def test_stdout_and_size(capsys):
    code, stdout, err = run_main(["trace", str(RUNS / "llama-sizes-h100"), "--out", "-", "--size", "seq1024",
                                  "--step", "4"], capsys)
    assert code == 0, err
    doc = json.loads(stdout)
    check_format(doc)
    scopes = {e["args"]["proton scope"] for e in doc["traceEvents"] if e.get("cat") == "scope"}
    assert {"seq1024", "seq1024/step_4", "seq1024/step_4/layers.7"} <= scopes


@pytest.mark.parametrize("args, says", [
    (["--step", "10"], "--step 10: the run's Proton steps are step_0..step_4"),
    (["--size", "seq9"], "--size seq9: the run has one input size"),
])
def test_bad_choice_is_one_line(args, says, capsys, tmp_path):
    code, _, err = run_main(["trace", str(SMALL), "--out", str(tmp_path / "t.json"), *args], capsys)
    assert code == 2
    assert err.strip().splitlines() == [f"error: {says}"]


def test_missing_torch_trace(run_copy, capsys, tmp_path):
    (run_copy / "torch_trace.json.gz").unlink()
    code, _, err = run_main(["trace", str(run_copy), "--out", str(tmp_path / "t.json")], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert f"{run_copy / 'torch_trace.json.gz'} is missing" in err
    assert not (tmp_path / "t.json").exists()


@pytest.mark.parametrize("damage", ["cut", "not_gzip", "no_events"])
def test_damaged_torch_trace(damage, run_copy, capsys, tmp_path):
    path = run_copy / "torch_trace.json.gz"
    if damage == "cut":
        path.write_bytes(path.read_bytes()[:5000])
    elif damage == "not_gzip":
        path.write_text('{"traceEvents": []}')
    else:
        path.write_bytes(gzip.compress(b'{"schemaVersion": 1}'))
    code, _, err = run_main(["trace", str(run_copy), "--out", str(tmp_path / "t.json")], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path} is damaged (")
    if damage == "no_events":
        assert "no traceEvents list of events" in lines[0]


def test_out_inside_the_run_is_refused(run_copy, capsys):
    code, _, err = run_main(["trace", str(run_copy), "--out", str(run_copy / "t.json")], capsys)
    assert code == 2 and "--out" in err
