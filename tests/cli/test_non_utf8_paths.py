"""A run folder whose name is not UTF-8 (a byte 0xff: Python holds it as the lone surrogate U+DCFF) renders like
any other. `report --html` and `diff --html` of it were `error: UnicodeEncodeError: 'utf-8' codec can't encode
character '\\udcff' ... surrogates not allowed`, exit 1, and no page."""
import os
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from recorded import REPO, data_path, without_age_warning
from inductor_prof.cli import app

runner = CliRunner()
NAME = b"run-\xff"


@pytest.fixture
def run(tmp_path):
    path = tmp_path / os.fsdecode(NAME)          # 'run-\udcff': how Python names that folder
    shutil.copytree(data_path("flux_small"), path)
    return path


def test_report_html_of_a_run_with_a_non_utf8_name(run, tmp_path):
    pytest.importorskip("bokeh")      # the html extra
    out = tmp_path / "page.html"
    r = runner.invoke(app, ["report", str(run), "--html", str(out)])
    assert r.exit_code == 0, r.output
    # the page names the run by its folder's own bytes (a browser shows U+FFFD for the one byte)
    assert NAME in out.read_bytes()


def test_diff_html_of_a_run_with_a_non_utf8_name(run, tmp_path):
    out = tmp_path / "diff.html"
    r = runner.invoke(app, ["diff", str(run), str(data_path("flux_small")), "--html", str(out), "--json"])
    assert r.exit_code == 0, r.output
    assert NAME in out.read_bytes()


ROOT = REPO


@pytest.mark.parametrize("command", [["report", "--top", "1"], ["diff"]])
def test_terminal_report_of_a_run_with_a_non_utf8_name(run, command):
    """In a UTF-8 locale such as en_US.UTF-8 Python's stdout is strict (PYTHONIOENCODING=utf-8:strict makes it
    so whatever this machine's locale): the tables, which name the run, ended in 'error: UnicodeEncodeError',
    exit 1. The name is written back as its own bytes, as `ls` writes it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("INDUCTOR_PROF_")}
    env.update(PYTHONIOENCODING="utf-8:strict", COLUMNS="100",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p))
    args = [command[0], str(run)] + (command[1:] if command[0] == "report" else [str(run)])
    p = subprocess.run([sys.executable, "-m", "inductor_prof", *args], capture_output=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    assert NAME in p.stdout and without_age_warning(p.stderr.decode().splitlines()) == []
