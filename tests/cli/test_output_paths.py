"""A CSV file the user names (`report --csv`, `attention --csv`) that cannot be written is one error
line naming the option and the path, exit 2, before any work; it was an IsADirectoryError naming a temporary
file, exit 1 (and `attention` only after the whole benchmark)."""
import pytest
from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.cli import app
from inductor_prof.errors import UserError
from inductor_prof.rundir import check_output

runner = CliRunner()


def _error(args) -> str:
    r = runner.invoke(app, args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    return r.stderr.strip()


def test_report_csv_that_is_a_folder(tmp_path):   # --html's own check: tests/report/test_html.py
    assert _error(["report", str(data_path("flux_small")), "--csv", str(tmp_path)]) == \
        f"error: cannot write --csv {tmp_path}: it is a folder"


def test_report_output_under_a_file(tmp_path):
    (tmp_path / "f").write_text("")
    target = tmp_path / "f" / "k.csv"      # its folder is a file: ENOTDIR, strerror "Not a directory"
    assert _error(["report", str(data_path("flux_small")), "--csv", str(target)]) == \
        f"error: cannot write --csv {target}: Not a directory"


def test_attention_csv_that_is_a_folder_fails_before_the_benchmark(tmp_path):
    r = runner.invoke(app, ["attention", "--shape", "1,2,64,64", "--backends", "sdpa_math", "--csv", str(tmp_path)])
    assert r.exit_code == 2, r.output
    # the first and only line: the CPU notice printed when the benchmark starts never came
    assert r.stderr.strip() == f"error: cannot write --csv {tmp_path}: it is a folder"


def test_check_creates_nothing(tmp_path):
    check_output(tmp_path / "a" / "b" / "k.csv", "--csv")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(UserError):
        check_output(tmp_path, "--csv")
