"""Settings: precedence CLI > environment > settings file > default for each kind of value, the real CLI's
--sudo/--no-sudo against a settings file, error texts, the environment passed through sudo, and chown back."""
import json
import os
import stat
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from inductor_prof.pipeline import ncu as ncu_stage
from inductor_prof.childenv import child_env, package_pythonpath
from inductor_prof.drivers.ncu import command as ncu
from inductor_prof.errors import UserError
from inductor_prof.settings import Settings, file_settings, resolve

runner = CliRunner()


def pyproject(tmp_path: Path, body: str) -> Path:
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\n\n[tool.inductor-prof]\n{body}\n')
    return tmp_path


# one case per kind of value: (key, file TOML, env text, CLI value, expected from file, env, CLI, default)
KINDS = [
    ("sudo", "sudo = true", "0", True, True, False, True, False),                              # bool
    ("ncu_timeout", "ncu-timeout = 12.5", "7.25", 3.5, 12.5, 7.25, 3.5, 300.0),               # float
    ("ncu_batch", "ncu-batch = 4", "6", 9, 4, 6, 9, 64),                                       # int
    ("ncu_library_kernels", "ncu_library_kernels = 2", "5", 0, 2, 5, 0, 8),                    # int, CLI 0
    ("ncu_args", 'ncu-args = ["--nvtx"]', "--section 'Memory Workload Analysis' --nvtx",       # list via shlex
     "--cache-control none", ["--nvtx"], ["--section", "Memory Workload Analysis", "--nvtx"],
     ["--cache-control", "none"], []),
    ("ncu", 'ncu = "/from/file/ncu"', "/from/env/ncu", "/from/cli/ncu",                        # str
     "/from/file/ncu", "/from/env/ncu", "/from/cli/ncu", None),
    ("clock_control", 'clock-control = "base"', "reset", "none", "base", "reset", "none", "none"),     # str
    ("sudo_path", 'sudo-path = "/file/sudo"', "/env/sudo", "/cli/sudo", "/file/sudo", "/env/sudo",  # str
     "/cli/sudo", "sudo"),
]


@pytest.mark.parametrize("key, toml, env_text, cli, from_file, from_env, from_cli, default", KINDS)
def test_precedence_cli_env_file_default(tmp_path, key, toml, env_text, cli, from_file, from_env, from_cli,
                                         default):
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {Settings.env_name(key): env_text}
    s, origin = resolve({}, env={}, cwd=empty)
    assert getattr(s, key) == default and key not in origin
    s, origin = resolve({}, env={}, cwd=pyproject(tmp_path, toml))
    assert getattr(s, key) == from_file and origin[key] == "file"
    s, origin = resolve({}, env=env, cwd=tmp_path)
    assert getattr(s, key) == from_env and origin[key] == f"env INDUCTOR_PROF_{key.upper()}"
    s, origin = resolve({key: cli}, env=env, cwd=tmp_path)
    assert getattr(s, key) == from_cli and origin[key] == "cli"
    # a CLI value of None means "not given": the environment still wins
    s, origin = resolve({key: None}, env=env, cwd=tmp_path)
    assert getattr(s, key) == from_env


def test_environment_text_is_coerced_to_the_field_type():
    s, _ = resolve({}, env={"INDUCTOR_PROF_NCU_TIMEOUT": "7.25", "INDUCTOR_PROF_NCU_BATCH": "6"}, cwd=Path("/"))
    assert type(s.ncu_timeout) is float and type(s.ncu_batch) is int


@pytest.mark.parametrize("text, value", [("1", True), ("true", True), ("YES", True), (" on ", True),
                                         ("0", False), ("false", False), ("No", False), ("off", False),
                                         ("", False)])
def test_boolean_spellings(tmp_path, text, value):
    assert resolve({}, env={"INDUCTOR_PROF_SUDO": text}, cwd=tmp_path)[0].sudo is value


def test_cli_false_overrides_env_and_file_true(tmp_path):
    s, origin = resolve({"sudo": False}, env={"INDUCTOR_PROF_SUDO": "1"}, cwd=pyproject(tmp_path, "sudo = true"))
    assert s.sudo is False and origin["sudo"] == "cli"


def test_env_false_overrides_file_true(tmp_path):
    assert resolve({}, env={"INDUCTOR_PROF_SUDO": "0"}, cwd=pyproject(tmp_path, "sudo = true"))[0].sudo is False


def test_bad_boolean_error_text(tmp_path):
    with pytest.raises(UserError) as e:
        resolve({}, env={"INDUCTOR_PROF_SUDO": "maybe"}, cwd=tmp_path)
    assert str(e.value) == "INDUCTOR_PROF_SUDO: sudo='maybe' is not a boolean (use 1/0, true/false)"
    with pytest.raises(UserError) as e:
        resolve({}, env={}, cwd=pyproject(tmp_path, 'sudo = "sometimes"'))
    assert str(e.value) == f"{tmp_path / 'pyproject.toml'}: sudo='sometimes' is not a boolean (use 1/0, true/false)"


def test_text_that_is_not_a_number_error_text(tmp_path):
    with pytest.raises(UserError) as e:
        resolve({}, env={"INDUCTOR_PROF_NCU_BATCH": "4.5"}, cwd=tmp_path)
    assert str(e.value) == "INDUCTOR_PROF_NCU_BATCH: ncu_batch='4.5' is not an integer"
    with pytest.raises(UserError) as e:
        resolve({}, env={"INDUCTOR_PROF_NCU_TIMEOUT": "soon"}, cwd=tmp_path)
    assert str(e.value) == "INDUCTOR_PROF_NCU_TIMEOUT: ncu_timeout='soon' is not a number"


@pytest.mark.parametrize("body", ["", "[tool.black]\nline-length = 100\n"])
def test_pyproject_without_our_table_has_no_settings(tmp_path, body):
    # a project's own pyproject.toml, with no [tool] table or another tool's only
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\n{body}')
    assert file_settings(tmp_path) == (None, {})
    assert resolve({}, env={}, cwd=tmp_path)[0] == Settings()


def test_values_that_cannot_work_are_refused_where_given(tmp_path):
    # a timeout of 0 or a batch of 0 passed, then failed every kernel (or the stage) at the end of a long
    # profile; an unclosed quote in ncu_args was "ValueError", exit 1
    with pytest.raises(UserError) as e:
        resolve({"ncu_timeout": 0.0}, env={}, cwd=tmp_path)
    assert str(e.value) == "command line: ncu_timeout=0.0 must be more than 0"
    with pytest.raises(UserError) as e:
        resolve({}, env={"INDUCTOR_PROF_NCU_BATCH": "0"}, cwd=tmp_path)
    assert str(e.value) == "INDUCTOR_PROF_NCU_BATCH: ncu_batch=0 must be at least 1"
    (tmp_path / "proj").mkdir()
    with pytest.raises(UserError) as e:
        resolve({}, env={}, cwd=pyproject(tmp_path / "proj", "ncu-library-kernels = -1"))
    assert str(e.value) == f"{tmp_path / 'proj' / 'pyproject.toml'}: ncu_library_kernels=-1 must be at least 0"
    with pytest.raises(UserError) as e:
        resolve({}, env={"INDUCTOR_PROF_NCU_ARGS": '--section "Memory'}, cwd=tmp_path)
    assert str(e.value) == "INDUCTOR_PROF_NCU_ARGS: ncu_args='--section \"Memory': No closing quotation"
    ok, _ = resolve({"ncu_batch": 1, "ncu_library_kernels": 0, "ncu_timeout": 0.5}, env={}, cwd=tmp_path)
    assert (ok.ncu_batch, ok.ncu_library_kernels, ok.ncu_timeout) == (1, 0, 0.5)   # the smallest that work


def test_unknown_keys_error_text(tmp_path):
    pyproject(tmp_path, 'ncu-pth = "x"\nsudoo = true\nsudo = true')
    with pytest.raises(UserError) as e:
        resolve({}, env={}, cwd=tmp_path)
    # dashes read as underscores, names sorted
    assert str(e.value) == f"{tmp_path / 'pyproject.toml'}: unknown inductor-prof settings: ncu_pth, sudoo"


def test_invalid_toml_error_names_the_file(tmp_path):
    (tmp_path / "inductor-prof.toml").write_text("sudo = = true\n")
    with pytest.raises(UserError) as e:
        resolve({}, env={}, cwd=tmp_path)
    assert str(e.value).startswith(f"{tmp_path / 'inductor-prof.toml'}: invalid TOML: ")


def test_inductor_prof_toml_is_top_level_and_wins_over_pyproject(tmp_path):
    pyproject(tmp_path, 'ncu = "/pyproject/ncu"\nncu-batch = 3')
    (tmp_path / "inductor-prof.toml").write_text('ncu = "/toml/ncu"\n')
    assert file_settings(tmp_path) == (tmp_path / "inductor-prof.toml", {"ncu": "/toml/ncu"})   # one file, no merge
    s, _ = resolve({}, env={}, cwd=tmp_path)
    assert (s.ncu, s.ncu_batch) == ("/toml/ncu", 64)


def test_empty_inductor_prof_toml_falls_back_to_pyproject(tmp_path):
    pyproject(tmp_path, "ncu-batch = 3")
    (tmp_path / "inductor-prof.toml").write_text("")
    assert file_settings(tmp_path) == (tmp_path / "pyproject.toml", {"ncu_batch": 3})


def test_pyproject_reads_only_its_tool_table(tmp_path):
    # top-level keys of pyproject.toml and other tools' tables are not settings
    (tmp_path / "pyproject.toml").write_text('sudo = true\n[tool.other]\nsudo = true\n')
    assert file_settings(tmp_path) == (None, {})
    assert resolve({}, env={}, cwd=tmp_path)[0].sudo is False


# ---- through the real CLI ---------------------------------------------------------------------------------

SUMMARY = {"kernels": 0, "skipped": 0, "tried": 0, "ok": 0, "failed": 0, "not_tried": 0, "stopped": ""}


@pytest.fixture
def cli_env(tmp_path, monkeypatch):
    """cwd = a folder for the settings file, a minimal run folder, no INDUCTOR_PROF_* variables, and
    run_ncu replaced by a recorder of the Settings it is given (ncu taken as found: this machine may have none)."""
    for f in Settings.__dataclass_fields__:
        monkeypatch.delenv(Settings.env_name(f), raising=False)
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    seen = []

    def fake_run_ncu(run_dir, settings, log=print, on_kernel=None):
        seen.append(settings)
        return dict(SUMMARY)

    monkeypatch.setattr(ncu_stage, "run_ncu", fake_run_ncu)
    monkeypatch.setattr("inductor_prof.pipeline.ncu.find_ncu", lambda explicit: explicit or "ncu")  # none here
    return SimpleNamespace(root=tmp_path, run=run, seen=seen)


def _ncu(cli_env, *flags):
    from inductor_prof.cli import app

    r = runner.invoke(app, ["ncu", str(cli_env.run), *flags])
    assert r.exit_code == 0, r.output
    assert len(cli_env.seen) == 1
    return cli_env.seen[0]


def test_cli_no_sudo_overrides_pyproject_true(cli_env):
    pyproject(cli_env.root, "sudo = true")
    assert _ncu(cli_env, "--no-sudo").sudo is False


def test_cli_without_flag_takes_pyproject_true(cli_env):
    pyproject(cli_env.root, "sudo = true")
    assert _ncu(cli_env).sudo is True


def test_cli_sudo_overrides_pyproject_false(cli_env):
    pyproject(cli_env.root, 'sudo = false\nsudo-path = "/file/sudo"')
    s = _ncu(cli_env, "--sudo", "--sudo-path", "/cli/sudo")
    assert (s.sudo, s.sudo_path) == (True, "/cli/sudo")


def test_env_sudo_overrides_pyproject_false(cli_env, monkeypatch):
    pyproject(cli_env.root, "sudo = false")
    monkeypatch.setenv("INDUCTOR_PROF_SUDO", "1")
    assert _ncu(cli_env).sudo is True


def test_cli_no_sudo_overrides_env_true(cli_env, monkeypatch):
    monkeypatch.setenv("INDUCTOR_PROF_SUDO", "1")
    assert _ncu(cli_env, "--no-sudo").sudo is False


def test_cli_ncu_options_reach_the_settings(cli_env):
    pyproject(cli_env.root, "ncu-batch = 4\nncu-timeout = 50")
    s = _ncu(cli_env, "--ncu-batch", "1", "--ncu-args", "--nvtx --section 'Launch Stats'",
             "--ncu-timeout", "2.5", "--library-kernels", "0", "--ncu-set", "full")
    assert (s.ncu_batch, s.ncu_timeout, s.ncu_library_kernels, s.ncu_set) == (1, 2.5, 0, "full")
    assert s.ncu_args == ["--nvtx", "--section", "Launch Stats"]


def test_profile_no_sudo_overrides_pyproject_true(cli_env, monkeypatch):
    from inductor_prof import pipeline
    from inductor_prof.cli import app

    pyproject(cli_env.root, "sudo = true")
    seen = []

    def fake_profile(opts, **kwargs):
        seen.append(opts.settings)
        return SimpleNamespace(run=SimpleNamespace(root=cli_env.run, manifest_path=cli_env.run / "manifest.json",
                                                   profile_log=cli_env.run / "profile.log"), failed=[])

    monkeypatch.setattr(pipeline, "profile", fake_profile)
    r = runner.invoke(app, ["profile", "flux", "--out", str(cli_env.root / "out"), "--no-sudo"])
    assert r.exit_code == 0, r.output
    assert [s.sudo for s in seen] == [False]
    r = runner.invoke(app, ["profile", "flux", "--out", str(cli_env.root / "out")])
    assert r.exit_code == 0, r.output
    assert [s.sudo for s in seen] == [False, True]


# ---- the environment passed through sudo --------------------------------------------------------------------

def test_sudo_command_passes_the_program_environment_sorted():
    source = {"PATH": "/my venv/bin:/usr/bin", "HOME": "/home/u", "LD_LIBRARY_PATH": "/cuda/lib64",
              "PYTHONPATH": "/old", "SECRET_TOKEN": "x", "TERM": "xterm"}
    env = child_env({"TORCHINDUCTOR_CACHE_DIR": "/runs/a b/cache", "PYTHONPATH": "/pkg"}, keep=ncu.PASS_ENV,
                    source=source)
    # only the pass-through names of the source, plus the extras (which replace the source's PYTHONPATH)
    assert env == {"PATH": "/my venv/bin:/usr/bin", "HOME": "/home/u", "LD_LIBRARY_PATH": "/cuda/lib64",
                   "PYTHONPATH": "/pkg", "TORCHINDUCTOR_CACHE_DIR": "/runs/a b/cache"}
    s = Settings(sudo=True, sudo_path="/usr/bin/sudo")
    program = ["/my venv/bin/python", "-m", "inductor_prof.drivers.ncu.replay", "/runs/a b/spec.json"]
    cmd = ncu.build_cmd(s, "/usr/local/cuda/bin/ncu", "k", Path("/runs/a b/ncu/k"), program, env)
    plain = ncu.build_cmd(Settings(), "/usr/local/cuda/bin/ncu", "k", Path("/runs/a b/ncu/k"), program, env)
    # sudo -n (never prompts) env K=V..., keys in sorted order, each value one argument with its spaces
    assert cmd == ["/usr/bin/sudo", "-n", "env", "HOME=/home/u", "LD_LIBRARY_PATH=/cuda/lib64",
                   "PATH=/my venv/bin:/usr/bin", "PYTHONPATH=/pkg", "TORCHINDUCTOR_CACHE_DIR=/runs/a b/cache",
                   *plain]


def test_program_environment_keeps_what_the_program_needs():
    # sudo resets the environment: the interpreter, its packages, the GPU selection and the caches must pass
    needed = ["PATH", "PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
              "CUDA_HOME", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "HOME", "HF_HOME"]
    source = {name: f"value of {name}" for name in needed}
    assert child_env(keep=ncu.PASS_ENV, source=source) == {**source, "PYTHONPATH": package_pythonpath(source)}


def test_without_sudo_the_command_is_ncu_itself():
    cmd = ncu.build_cmd(Settings(sudo=False, sudo_path="/usr/bin/sudo"), "/x/ncu", "k", Path("o"), ["p"],
                        {"PATH": "/bin"})
    assert cmd[0] == "/x/ncu" and "/usr/bin/sudo" not in cmd and "PATH=/bin" not in cmd


# ---- chown back -------------------------------------------------------------------------------------------------

def _fake_sudo(tmp_path: Path, exit_code: int = 0) -> tuple[str, Path]:
    """A sudo that appends its argv (as JSON) to a file; optionally fails like a refused chown."""
    record = tmp_path / "sudo-calls.jsonl"
    path = tmp_path / "fake sudo"
    path.write_text(f"#!{sys.executable}\nimport json, sys\n"
                    f"open({str(record)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
                    f"if {exit_code}:\n"
                    f"    print('chown: changing ownership: Operation not permitted', file=sys.stderr)\n"
                    f"sys.exit({exit_code})\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path), record


def test_give_back_chowns_to_the_invoking_user(tmp_path, monkeypatch):
    sudo, record = _fake_sudo(tmp_path)
    # distinct ids, so uid:gid cannot pass swapped (tests may run as root, 0:0)
    monkeypatch.setattr(os, "getuid", lambda: 1234)
    monkeypatch.setattr(os, "getgid", lambda: 5678)
    paths = [tmp_path / "run dir" / "ncu", tmp_path / "cache"]
    ncu.give_back(paths, Settings(sudo=True, sudo_path=sudo))
    calls = [json.loads(line) for line in record.read_text().splitlines()]
    assert calls == [["-n", "chown", "-R", "1234:5678", str(paths[0]), str(paths[1])]]


def test_give_back_without_sudo_runs_nothing(tmp_path):
    sudo, record = _fake_sudo(tmp_path)
    ncu.give_back([tmp_path], Settings(sudo=False, sudo_path=sudo))
    assert not record.exists()


def test_give_back_reports_a_failed_chown(tmp_path):
    sudo, record = _fake_sudo(tmp_path, exit_code=1)
    lines = []
    ncu.give_back([tmp_path / "ncu"], Settings(sudo=True, sudo_path=sudo), log=lines.append)
    assert record.exists()
    assert any("chown" in line for line in lines)


@pytest.mark.parametrize("toml, expected", [
    ("ncu = 5", "ncu=5 is not a string"),                  # was: TypeError: expected str, bytes or os.PathLike
    ("ncu-batch = 1.5", "ncu_batch=1.5 is not an integer"),   # was taken: a batch of 1.5 kernels
    ("ncu-library-kernels = true", "ncu_library_kernels=True is not an integer"),   # was taken as 1
    ("ncu-args = 5", "ncu_args=5 is not a list of strings"),                          # was taken, failed at ncu
    ('ncu-args = ["--nvtx", 3]', "ncu_args=['--nvtx', 3] is not a list of strings"),
    ("sudo = 2", "sudo=2 is not a boolean (use true/false)"),
    ('clock-control = 7', "clock_control=7 is not a string"),
    ("ncu-timeout = true", "ncu_timeout=True is not a number"),
])
def test_a_file_value_of_the_wrong_type_is_refused_naming_the_file(tmp_path, toml, expected):
    """TOML values come typed; one of another type than its setting's is one line naming the file and the
    setting, when the settings are read (it was taken as it was, or met later as a TypeError)."""
    with pytest.raises(UserError) as e:
        resolve({}, env={}, cwd=pyproject(tmp_path, toml))
    assert str(e.value) == f"{tmp_path / 'pyproject.toml'}: {expected}"


@pytest.mark.parametrize("toml, key, value", [
    ("ncu-timeout = 30", "ncu_timeout", 30.0),     # an integer is a number of seconds
    ("sudo = 1", "sudo", True), ("sudo = 0", "sudo", False),   # 1/0, as the environment takes them
    ('ncu-args = "--nvtx --cache-control none"', "ncu_args", ["--nvtx", "--cache-control", "none"]),  # one string
])
def test_file_values_that_say_the_same_are_taken(tmp_path, toml, key, value):
    s, _ = resolve({}, env={}, cwd=pyproject(tmp_path, toml))
    assert getattr(s, key) == value and type(getattr(s, key)) is type(value)
