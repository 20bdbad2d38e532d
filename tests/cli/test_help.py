"""The commands' --help: readable at 80 columns (nothing cut with '…'), summaries as one paragraph, and every
ncu setting's environment variable named (in the epilog)."""
from dataclasses import fields

import pytest

from cli_main import run_main
from inductor_prof.cli import app
from inductor_prof.settings import Settings


@pytest.mark.parametrize("command", ["profile", "ncu", "report", "attention", "diff", "doctor", "inspect"])
def test_help_at_80_columns_cuts_nothing(command, capsys, monkeypatch):
    # --library-kernels' "[env INDUCTOR_PROF_NCU_LIBRARY_KERNELS]" (33 characters) did not fit its column
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_main([command, "--help"], capsys)
    assert code == 0 and "Usage: inductor-prof " + command in out
    assert "…" not in out and max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize("command", ["profile", "ncu", "doctor"])
def test_help_names_every_ncu_environment_variable(command, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_main([command, "--help"], capsys)
    text = " ".join(out.split())
    # written out by hand, not from Settings.env_name: a renamed field must change this list
    names = ["INDUCTOR_PROF_NCU", "INDUCTOR_PROF_SUDO", "INDUCTOR_PROF_SUDO_PATH", "INDUCTOR_PROF_NCU_ARGS",
             "INDUCTOR_PROF_NCU_SET", "INDUCTOR_PROF_CLOCK_CONTROL", "INDUCTOR_PROF_NCU_TIMEOUT",
             "INDUCTOR_PROF_NCU_LIBRARY_KERNELS", "INDUCTOR_PROF_NCU_LIBRARY_MIN_SHARE", "INDUCTOR_PROF_NCU_BATCH",
             "INDUCTOR_PROF_NCU_SOURCE_KERNELS", "INDUCTOR_PROF_NCU_SOURCE_BESIDE", "INDUCTOR_PROF_TUNING_CACHE",
             "INDUCTOR_PROF_COMPILE_CACHE",
             "INDUCTOR_PROF_RETUNE", "INDUCTOR_PROF_MEASURE_STORE", "INDUCTOR_PROF_FRESH",
             "INDUCTOR_PROF_ATTENTION_TEACHING", "INDUCTOR_PROF_GEMM_TEMPLATES", "INDUCTOR_PROF_NCU_ALL_RANKS",
             "INDUCTOR_PROF_RANKS_TIMEOUT"]
    assert len(names) == len(fields(Settings))
    assert "(" + ", ".join(names) + ")" in text


def test_command_list_joins_each_summary_into_one_paragraph(capsys, monkeypatch):
    # diff's docstring breaks its first paragraph twice; the list must not (typer keeps the breaks)
    summaries = {info.name or info.callback.__name__: info.short_help for info in app.registered_commands}
    assert summaries["diff"] == ("Compare two runs: step and GPU time, kernels paired across the runs (Inductor "
                                 "renumbers them) and library calls by op and shapes, new and removed ones, time "
                                 "by category, attention backends; each change judged against the runs' noise.")
    assert all(s and "\n" not in s for s in summaries.values())
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_main(["--help"], capsys)
    assert code == 0 and any("new and removed ones" in line for line in out.splitlines())   # was "new and" + break
