"""What a new user met: `--csv -`, a pipe closed early, the flags' help, the settings table's spelling, diff
--width, input checked before the GPU, a retry after a profile that failed early."""
import io
import sys

import pytest
from typer.testing import CliRunner

from recorded import data_path, without_age_warning
from inductor_prof.cli import app
from inductor_prof.cli.core import main

runner = CliRunner()


def test_csv_dash_is_stdout_and_writes_no_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--csv", "-"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    # header + every kernel (shape "all"), then the library kernels' calls by shape; no tables
    assert lines[0].startswith("name,shape,") and sum(ln.split(",")[1] == "all" for ln in lines[1:]) == 57
    assert lines[58].split(",")[1] != "all" and "Kernels of" not in r.stdout
    assert not (tmp_path / "-").exists()


def test_csv_dash_with_json_is_refused():
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--csv", "-", "--json"])
    assert r.exit_code == 2 and "both print to stdout" in r.stderr


class _ClosedPipe(io.StringIO):
    """stdout whose reader has gone (`| head -1`): every write is a broken pipe."""
    def write(self, s):
        raise BrokenPipeError(32, "Broken pipe")


def test_closed_pipe_exits_141_without_a_word(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    with pytest.raises(SystemExit) as e:
        main(["report", str(data_path("flux_small")), "--top", "3"])
    assert e.value.code == 141          # 128 + SIGPIPE (13), what a shell reports for `cat big | head -1`
    assert without_age_warning(capsys.readouterr().err.splitlines()) == []


@pytest.mark.parametrize("command", ["report", "diff", "profile", "ncu"])
def test_flags_show_no_bool_metavar(command):
    r = runner.invoke(app, [command, "--help"], env={"COLUMNS": "120"})
    assert r.exit_code == 0
    assert "<bool>" not in r.stdout
    assert "--help" in r.stdout


def test_pyproject_table_with_an_underscore_is_named_not_ignored(tmp_path):
    from inductor_prof.errors import UserError
    from inductor_prof.settings import resolve

    (tmp_path / "pyproject.toml").write_text("[tool.inductor_prof]\nsudo = true\n")
    with pytest.raises(UserError) as e:
        resolve(env={}, cwd=tmp_path)
    assert str(e.value) == (f"{tmp_path / 'pyproject.toml'}: [tool.inductor_prof] is not read; name the table "
                            "[tool.inductor-prof]")
    (tmp_path / "pyproject.toml").write_text("[tool.inductor-prof]\nsudo = true\n")
    assert resolve(env={}, cwd=tmp_path)[0].sudo is True


RUNS = data_path("..", "..", "examples", "runs")


def test_diff_width_sets_the_tables_width(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    args = ["diff", str(RUNS / "flux-h100"), str(RUNS / "flux-h100-768x1344")]
    widest = {}
    for width in (80, 130):
        r = runner.invoke(app, [*args, "--width", str(width)])
        assert r.exit_code == 0, r.output
        widest[width] = max(len(line) for line in r.stdout.splitlines())
    # without --width a pipe with no COLUMNS is 100 wide: 80 fits in 80, 130 lets names grow past 100
    assert widest[80] <= 80 < 100 < widest[130] <= 130
    r = runner.invoke(app, [*args, "--width", "60"])      # below 80 the diff's numbers would be cut
    assert r.exit_code == 2 and "greater than or equal to 80" in r.stderr


@pytest.mark.parametrize("args, said", [
    (["nosuchmodule:fn"], "error: cannot import 'nosuchmodule' for target 'nosuchmodule:fn'"),
    (["flux", "--dtype", "int8"], "error: unknown dtype 'int8'; use one of bfloat16,"),
])
def test_profile_checks_the_input_before_the_gpu(tmp_path, monkeypatch, args, said):
    import inductor_prof.pipeline as pipeline
    from inductor_prof.errors import UserError

    def no_gpu(what):   # what a CPU machine says
        raise UserError(f"{what} needs a CUDA GPU and none is visible")
    monkeypatch.setattr(pipeline, "require_cuda", no_gpu)
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["profile", *args, "-o", str(tmp_path / "run")])
    assert r.exit_code == 2 and r.stderr.startswith(said), r.stderr
    assert not (tmp_path / "run").exists()
