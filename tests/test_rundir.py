"""Files inductor-prof writes (the user's --csv, the run folder's files) get the mode a plain write gives them:
0o666 less the umask when new, their own mode when replaced. Every write goes through a temporary file made by
tempfile.mkstemp, which is 0o600: a `report --csv kernels.csv` or a run folder's manifest was unreadable to the
user's group and others whatever the umask (`ls -l`: -rw-------)."""
import os
import stat

import pytest
from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.cli import app
from inductor_prof.rundir import write_json, write_text


@pytest.fixture
def umask():
    """Sets the process umask for the test, restoring it after."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mask, expected", [
    (0o022, 0o644),   # rw- r-- r--: 666 with group and other write taken away
    (0o027, 0o640),   # rw- r-- ---: other loses everything, group its write
    (0o077, 0o600),   # rw- --- ---: a private umask stays private
])
def test_a_new_file_follows_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    write_text(tmp_path / "a.txt", "x")
    write_json(tmp_path / "b.json", {"a": 1})
    assert _mode(tmp_path / "a.txt") == expected and _mode(tmp_path / "b.json") == expected


def test_a_replaced_file_keeps_its_mode(tmp_path, umask):
    path = tmp_path / "a.txt"
    path.write_text("old")
    os.chmod(path, 0o640)      # the user's choice, not what the umask (022 here) would give a new file
    write_text(path, "new")
    assert path.read_text() == "new" and _mode(path) == 0o640


def test_report_csv_is_readable_by_others(tmp_path, umask):
    out = tmp_path / "kernels.csv"
    r = CliRunner().invoke(app, ["report", str(data_path("flux_small")), "--csv", str(out)])
    assert r.exit_code == 0, r.output
    assert _mode(out) == 0o644     # umask 022: rw-r--r--, as `> kernels.csv` from the shell would make it


# ---- a folder that is not a run folder (a CI artifact unpacked a level up): one line naming it, and the runs in it

def test_a_folder_holding_run_folders_names_them(tmp_path):
    from inductor_prof.errors import UserError
    from inductor_prof.rundir import open_run

    for name in ("r1", "r2", "r3", "r4", "r5"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text("{}")
    (tmp_path / "notes").mkdir()
    with pytest.raises(UserError) as e:
        open_run(tmp_path)
    assert str(e.value) == (f"{tmp_path} is not an inductor-prof run folder (no manifest.json; the run folders in it: "
                            f"{tmp_path / 'r1'}, {tmp_path / 'r2'}, {tmp_path / 'r3'} and 2 more)")
    assert open_run(tmp_path / "r1").root == tmp_path / "r1"


def test_a_stage_records_when_it_started_and_how_long_it_took(tmp_path, monkeypatch):
    from inductor_prof import rundir

    run = rundir.create(str(tmp_path / "run"), False)
    manifest = rundir.Manifest(run, {})
    clock = iter([1000.0, 1000.25])          # perf_counter at the stage's start and end: 0.25 s
    monkeypatch.setattr(rundir.time, "time", lambda: 1795000000.1234)
    monkeypatch.setattr(rundir.time, "perf_counter", lambda: next(clock))
    with manifest.stage("harvest") as info:
        info["harvested"] = 3
    # the epoch start rounded to the millisecond, as the bench's timeline reads it
    assert manifest.data["stages"]["harvest"] == {"status": "ok", "started": 1795000000.123, "seconds": 0.25,
                                                  "harvested": 3}
