"""Ctrl-C before a command's own handler runs (while the CLI is imported): one line, exit 130, no traceback;
the installed command goes through that entry."""
import tomllib

import pytest

from inductor_prof import entry, quick_exit
from recorded import REPO


@pytest.fixture(autouse=True)
def no_compile_workers(monkeypatch):
    """In this process a GPU test may have started Inductor's pool: exit_now would then end pytest itself."""
    monkeypatch.setattr(quick_exit, "compile_workers_running", lambda: False)


def test_interrupt_while_importing_is_one_line(capsys):
    def load():
        raise KeyboardInterrupt
    with pytest.raises(SystemExit) as e:
        entry.main(load)
    assert e.value.code == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_interrupt_while_running_is_one_line(capsys):
    def run():
        raise KeyboardInterrupt
    with pytest.raises(SystemExit) as e:
        entry.main(lambda: run)
    assert e.value.code == 130 and capsys.readouterr().err == "interrupted\n"


def test_installed_command_is_the_entry():
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert meta["project"]["scripts"]["inductor-prof"] == "inductor_prof.entry:main"


def test_a_normal_end_exits_zero():
    with pytest.raises(SystemExit) as e:
        entry.main(lambda: lambda: None)
    assert e.value.code == 0
