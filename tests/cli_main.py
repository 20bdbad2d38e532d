"""Runs the installed command's function (`inductor_prof.cli.main`, where the console script ends) in-process."""
import pytest

from inductor_prof.cli import main


def run_main(argv, capsys):
    """(exit code, stdout, stderr) of `inductor-prof ARGV`."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    return e.value.code, out, err
