"""The installed command's usage errors (an unknown option, a bad value, a missing argument, an unknown command)
are one line naming the command and its --help, exit 2, instead of click's usage text and boxed message.
cli.main is the function the console script and `python -m inductor_prof` end in (through entry.main)."""
import pytest

from cli_main import run_main
from recorded import data_path


@pytest.mark.parametrize("argv, command, names", [
    (["report", "x", "--bogus"], "inductor-prof report", "--bogus"),
    (["report", "x", "--width", "10"], "inductor-prof report", "--width"),   # below its min=40
    (["report", "x", "--top", "many"], "inductor-prof report", "--top"),
    (["report"], "inductor-prof report", "run"),                              # the missing argument
    (["diff", "a"], "inductor-prof diff", "run_b"),
    (["bogus"], "inductor-prof", "bogus"),                                    # no such command
])
def test_usage_error_is_one_line_exit_2(argv, command, names, capsys):
    code, out, err = run_main(argv, capsys)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: {command}: ") and lines[0].endswith(f"({command} --help)")
    assert names in lines[0].lower()   # click < 8.2 names a missing argument in capitals ('RUN')
    assert "╭" not in err and "Usage:" not in err


def test_help_still_prints_and_exits_0(capsys):
    code, out, err = run_main(["report", "--help"], capsys)
    assert code == 0 and "Usage: inductor-prof report" in out and "error" not in err


def test_bare_command_shows_its_help_without_an_error_line(capsys):
    code, out, err = run_main([], capsys)
    assert code in (0, 2)   # no_args_is_help: exit 0 before click 8.2, a usage exit (2) from 8.2
    assert "Usage: inductor-prof" in out + err and "error:" not in out + err


def test_command_errors_and_success_keep_their_exit_codes(capsys):
    code, _, err = run_main(["report", "/nonexistent-run-folder"], capsys)
    assert code == 2 and err == "error: /nonexistent-run-folder does not exist\n"
    code, out, _ = run_main(["report", str(data_path("flux_small")), "--json", "--top", "1"], capsys)
    assert code == 0 and out.startswith("{")

