"""User text (paths, kernel names, messages) is printed as it is, never read as rich markup."""
import shutil

import pytest
from rich.console import Console
from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.cli import app
from inductor_prof.cli.progress import reporter

runner = CliRunner()


# rich markup, and emoji codes (rich turns `:fire:` into an emoji unless told not to; escape() leaves it)
@pytest.mark.parametrize("run_name, csv_name", [("run[bold]x", "k[red]y.csv"), ("run:fire:x", "k:smile:y.csv")])
def test_path_with_markup_in_title_and_csv_line(tmp_path, run_name, csv_name):
    run = tmp_path / run_name
    shutil.copytree(data_path("flux_small"), run)
    csv = tmp_path / csv_name
    r = runner.invoke(app, ["report", str(run), "--top", "2", "--csv", str(csv), "--width", "200"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"Kernels of {run} (per-kernel totals")
    assert lines[-1] == f"kernel table written to {csv}"
    assert csv.exists()


@pytest.mark.parametrize("name", ["no[bold]pe", "a:thumbs_up:b"])
def test_error_message_with_markup(tmp_path, name):
    missing = tmp_path / name
    r = runner.invoke(app, ["report", str(missing)])
    assert r.exit_code == 2
    assert r.output.strip() == f"error: {missing} does not exist"


def test_progress_lines_and_labels_are_not_markup():
    console = Console(record=True, width=200, force_terminal=False)
    with reporter(console) as bar:
        bar.note("ncu failed triton_poi[bold]_1: [red]oops[/red]")
        bar.log("stage [dim]x")
    text = console.export_text()
    assert "ncu failed triton_poi[bold]_1: [red]oops[/red]" in text and "stage [dim]x" in text


def test_progress_on_a_pipe_prints_its_lines_and_nothing_else():
    # rich's Progress ends with an empty line on a console that is not a terminal; a command's output (or its
    # one error line, `profile` on a machine without CUDA) must not get one
    console = Console(record=True, width=200, force_terminal=False)
    with reporter(console, total=3) as bar:
        bar.log("building flux")
        bar.step(0)
    assert console.export_text() == "· building flux\n"
    console = Console(record=True, width=200, force_terminal=False)
    with reporter(console):
        pass
    assert console.export_text() == ""
