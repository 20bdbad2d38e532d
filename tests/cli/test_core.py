"""The one exit path (cli/core.py), through the installed command's function: each kind of error is one line
on stderr and its exit code (2 bad input, 1 a failed step, 130 Ctrl-C, 143 SIGTERM), whichever command
raised it; an error below the CLI names a setting and is shown with the flag that sets it."""
import os
import signal
import time
from pathlib import Path

import pytest

from cli_main import run_main
from recorded import data_path, without_age_warning
from inductor_prof import rundir
from inductor_prof.signals import Terminated
from inductor_prof.errors import StepFailed, UserError

RUN = str(data_path("flux_small"))


def _report_raises(monkeypatch, raise_it):
    """`report RUN` whose reading of the run raises what `raise_it` raises."""
    monkeypatch.setattr("inductor_prof.analysis.load_run_tables", lambda run: raise_it())


def _raise(error):
    def raise_it():
        raise error
    return raise_it


@pytest.mark.parametrize("error, code, line", [
    (UserError("{steps} must be at least 1", ("steps",)), 2, "error: --steps must be at least 1"),
    (UserError("{ncu_batch} must be at least 1, not 0", ("ncu_batch",)), 2, "error: --ncu-batch must be at least 1, not 0"),
    (UserError("{sudo} needs {sudo_path}", ("sudo", "sudo_path")), 2, "error: --sudo needs --sudo-path"),
    (UserError("{regional=False} and {blocks}", ("regional=False", "blocks")), 2, "error: --whole-model and --blocks"),
    (UserError("a {name} not listed stays {name}"), 2, "error: a {name} not listed stays {name}"),
    (StepFailed("stages failed: ncu"), 1, "error: stages failed: ncu"),
    (RuntimeError("boom [bold]x[/bold]"), 1, "error: RuntimeError: boom [bold]x[/bold]"),   # not markup
    (NotADirectoryError(20, "Not a directory", "/x/f/out.html"), 1, "error: /x/f/out.html: Not a directory"),
    (KeyboardInterrupt(), 130, "interrupted"),
    (Terminated(), 143, "terminated (SIGTERM)"),
])
def test_each_error_is_one_line_and_its_exit_code(monkeypatch, capsys, error, code, line):
    monkeypatch.delenv("INDUCTOR_PROF_DEBUG", raising=False)
    _report_raises(monkeypatch, _raise(error))
    got, out, err = run_main(["report", RUN], capsys)
    assert (got, out, err) == (code, "", line + "\n")


def test_a_setting_is_named_below_the_cli():
    e = UserError("{steps} must be at least 1, not {x}", ("steps",))
    assert str(e) == "steps must be at least 1, not {x}"   # a library caller reads the setting's name


def test_sigterm_during_a_command_exits_143(monkeypatch, capsys):
    def sigterm():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)   # the handler raises Terminated at once
    _report_raises(monkeypatch, sigterm)
    t0 = time.monotonic()
    assert run_main(["report", RUN], capsys) == (143, "", "terminated (SIGTERM)\n")
    assert time.monotonic() - t0 < 5
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL   # the handler is given back


def test_failed_stages_of_profile_are_a_failed_step(monkeypatch, capsys, tmp_path):
    from inductor_prof.pipeline import ProfileResult

    run = rundir.RunDir(tmp_path / "run")
    monkeypatch.setattr("inductor_prof.pipeline.profile",
                        lambda opts, **kw: ProfileResult(run, {"ncu": "x", "attention": "y"}))
    code, out, err = run_main(["profile", "flux", "--verbose", "--no-ceilings"], capsys)
    assert code == 1
    assert " ".join(out.split()) == f"run folder: {run.root} (inductor-prof report {run.root})"   # wrapped
    assert err == (f"error: stages failed: ncu, attention (details in {run.root}/manifest.json); everything else "
                   "was kept\n")


def test_diff_leaves_a_write_error_to_the_app(monkeypatch, capsys, tmp_path):
    """`diff --html` whose page cannot be written after the check passed: the app's line, a failed step."""
    page = tmp_path / "d.html"

    def refuse(path, text):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr("inductor_prof.rundir.write_text", refuse)
    code, out, err = run_main(["diff", RUN, RUN, "--html", str(page), "--json"], capsys)
    assert (code, without_age_warning(err.splitlines())) == (1, [f"error: {page}: Permission denied"])


def test_usage_error_is_one_line_exit_2(capsys):
    code, out, err = run_main(["report", RUN, "--bogus"], capsys)
    assert (code, out) == (2, "")
    assert err == "error: inductor-prof report: No such option: --bogus (inductor-prof report --help)\n"


def test_only_the_app_makes_a_stderr_console():
    import inductor_prof

    root = Path(inductor_prof.__file__).parent
    makers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py") if "stderr=True" in p.read_text())
    assert makers == ["cli/core.py"]
