"""The light install (`pip install inductor-prof`: no torch, no triton, no ncu-report): `report`, `diff`,
`inspect`, `trace`, `doctor` and every command's --help run without importing any of them, and `profile`, `ncu`,
`attention` say which extra to install (one line, exit 2). Each command runs in a child process in which
importing torch, triton or ncu_report fails, as it does where they are not installed (in the processes it starts
too), and every attempt is recorded; the help and reading commands in children forked from one such process
(forked()); pyproject's dependencies and scripts/install.sh are checked to match."""
import json
import os
import subprocess
import sys
import tomllib

import pytest

from recorded import REPO
from inductor_prof.cli import app
from inductor_prof.drivers.ncu.locate import shipped_copy

RUN = "examples/runs/flux-h100"
OTHER = "examples/runs/flux-h100-768x1344"
GPU_LINE = "error: `inductor-prof {}` needs torch and triton: pip install 'inductor-prof[gpu]'\n"
NOT_INSTALLED = ("torch", "triton", "ncu_report")   # the light install has none of them

# a sitecustomize (so in every Python process the command starts too): a meta-path finder ahead of all others
# by which importing a module of NOT_INSTALLED (or a submodule) fails as on a machine without it; each process
# adds its attempts, one JSON list a line, to the file named by LIGHT_ATTEMPTS when it ends
BLOCKER = f"""
import atexit, importlib.abc, json, os, sys
attempts = []
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {NOT_INSTALLED!r}:
            attempts.append(name)
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, NotInstalled())
atexit.register(lambda: open(os.environ["LIGHT_ATTEMPTS"], "a").write(json.dumps(attempts) + "\\n"))
"""
MAIN = "import sys; sys.argv = ['inductor-prof', *sys.argv[1:]]; from inductor_prof.entry import main; main()"

# Many commands, each in a process of its own forked from one that imported, where torch, triton and ncu_report are
# not installed, what every reading command imports (the CLI, pandas, the analysis, the terminal report): 0.3-1.5
# CPU-seconds a command started as MAIN, about 0.1-0.8 forked. The parent's attempts count for each command. Each
# child's stdout and stderr go to files, its attempts (and its children's: LIGHT_ATTEMPTS is its own) to another.
FORKED = """
import json, os, sys
import sitecustomize                      # the blocker: its `attempts`
from inductor_prof.entry import main
import inductor_prof.cli, pandas, inductor_prof.analysis, inductor_prof.report.terminal
parent = list(sitecustomize.attempts)
codes = []
for i, args in enumerate(json.loads(sys.argv[1])):
    base = os.path.join(sys.argv[2], str(i))
    sys.stdout.flush(), sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        sitecustomize.attempts.clear()
        os.environ["LIGHT_ATTEMPTS"] = base + ".attempts"
        for fd, name in ((1, ".out"), (2, ".err")):
            os.dup2(os.open(base + name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
        sys.argv = ["inductor-prof", *args]
        code = 0
        try:
            main()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            import traceback; traceback.print_exc(); code = 1
        sys.stdout.flush(), sys.stderr.flush()
        with open(base + ".attempts", "a") as f:
            f.write(json.dumps(sitecustomize.attempts) + "\\n")
        os._exit(code)
    codes.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
print(json.dumps({"parent": parent, "codes": codes}))
"""


def light(args, tmp_path, cwd=REPO):
    """(exit code, stdout, stderr, the imports of NOT_INSTALLED tried, in it and its children) of
    `inductor-prof ARGS` where they are not installed, run from the repository root (its package first on the
    path)."""
    site, attempts = tmp_path / "light_site", tmp_path / "attempts.json"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCKER)
    attempts.unlink(missing_ok=True)
    env = {**os.environ, "LIGHT_ATTEMPTS": str(attempts), "COLUMNS": "120",
           "PYTHONPATH": os.pathsep.join([str(site), str(REPO)])}
    proc = subprocess.run([sys.executable, "-c", MAIN, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    tried = [name for line in attempts.read_text().splitlines() for name in json.loads(line)]
    return proc.returncode, proc.stdout, proc.stderr, tried


def forked(commands: list[list[str]], tmp_path, cwd=REPO) -> dict[tuple[str, ...], tuple[int, str, str, list[str]]]:
    """light()'s answer for each of `commands`, each run in a child forked from one process (FORKED); the imports
    tried count those of that process before it forked."""
    site, outs = tmp_path / "light_site", tmp_path / "outs"
    site.mkdir(parents=True, exist_ok=True)
    outs.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    env = {**os.environ, "LIGHT_ATTEMPTS": str(tmp_path / "parent.attempts"), "COLUMNS": "120",
           "PYTHONPATH": os.pathsep.join([str(site), str(REPO)])}
    proc = subprocess.run([sys.executable, "-c", FORKED, json.dumps(commands), str(outs)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    done = json.loads(proc.stdout.strip().splitlines()[-1])
    answers = {}
    for i, (args, code) in enumerate(zip(commands, done["codes"], strict=True)):
        tried = [name for line in (outs / f"{i}.attempts").read_text().splitlines() for name in json.loads(line)]
        answers[tuple(args)] = (code, (outs / f"{i}.out").read_text(), (outs / f"{i}.err").read_text(),
                                done["parent"] + tried)
    return answers


def _commands():
    return sorted(info.name or info.callback.__name__.replace("_command", "") for info in app.registered_commands)


HELP = [["--help"], *[[c, "--help"] for c in _commands()]]
READING = [
    ["report", RUN, "--top", "3"],
    ["report", RUN, "--json", "--top", "2"],
    ["report", RUN, "--csv", "-"],
    ["diff", RUN, OTHER, "--top", "3"],
    ["diff", RUN, OTHER, "--json"],
    # flux-h100 ships source reports: inspect reads what the source pass wrote beside one (its counters file)
    ["inspect", RUN, "gelu_permute", "--width", "100"],
    ["inspect", RUN, "gelu_permute", "--json"],
    ["inspect", RUN, "nvjet_sm90_tst_192x192", "--json"],
    # the fp8 MLP's source kernels share one report: the counters files say which result is which
    ["inspect", "examples/runs/fp8-mlp-h200", "scaled_mm__to_copy_abs_amax", "--json"],
]


def test_a_forked_command_answers_as_its_own_process(tmp_path):
    """forked() answers for each command what light() does, the imports it tried included: a reading command, and
    one that looks for torch and triton (so the imports a forked child tries are counted)."""
    commands = [["inspect", "examples/runs/fp8-mlp-h200", "scaled_mm__to_copy_abs_amax", "--json"],
                ["attention", "--list"]]
    answers = forked(commands, tmp_path / "forked")
    assert [answers[tuple(args)] for args in commands] == [light(args, tmp_path) for args in commands]
    assert answers[tuple(commands[1])][3] == ["torch", "triton"]


def test_help_and_reading_a_run_import_none(tmp_path):
    """Every command's --help, and report, diff and inspect of recorded runs: exit 0, no import of torch, triton or
    ncu_report tried, the help's usage line or the report on stdout (and nothing on stderr). One test, not one a
    command: the forked commands share one process, which pytest-xdist would start once a worker for a module's
    tests split between workers."""
    answers = forked(HELP + READING, tmp_path)
    wrong = {}
    for args in HELP:
        code, out, err, tried = answers[tuple(args)]
        if (code, tried) != (0, []) or "Usage: inductor-prof" not in out:
            wrong[" ".join(args)] = (code, tried, err[-1000:])
    for args in READING:
        code, out, err, tried = answers[tuple(args)]
        if (code, tried, err) != (0, [], "") or not out.strip():
            wrong[" ".join(args)] = (code, tried, err[-1000:])
    assert wrong == {}


def test_inspect_of_a_report_without_its_counters_file_names_the_extra(tmp_path):
    """A run recorded before the source pass wrote counters files: inspect shows the rest, and one line says how
    to read the report (the reader an ncu install ships would be found: not so here)."""
    if shipped_copy():
        pytest.skip("an ncu install's ncu_report is here")
    import shutil

    run = tmp_path / "run"
    shutil.copytree(REPO / RUN, run)
    stem = "triton_poi_fused_cat_gelu_permute_view_3"
    (run / "ncu" / "source" / f"{stem}.counters.json").unlink()
    code, out, err, tried = light(["inspect", str(run), "gelu_permute", "--width", "100"], tmp_path)
    assert (code, tried) == (0, ["ncu_report"]), err   # looked for, not found
    report = run / "ncu" / "source" / f"{stem}.ncu-rep"
    assert err == (f"warning: {report}: no {stem}.counters.json beside it (recorded before inductor-prof wrote "
                   "one); reading .ncu-rep files needs NVIDIA's ncu-report: pip install 'inductor-prof[ncu]'\n")
    assert "roofline" in out


def test_html_report_imports_none(tmp_path):
    pytest.importorskip("bokeh")   # the html extra: no torch either
    page = tmp_path / "flux.html"
    code, _, err, tried = light(["report", RUN, "--html", str(page)], tmp_path)
    assert (code, tried) == (0, []), err
    assert page.stat().st_size > 100_000


def test_trace_imports_none(tmp_path):
    out = tmp_path / "flux.trace.json"
    code, _, err, tried = light(["trace", RUN, "--out", str(out)], tmp_path)
    assert (code, tried) == (0, []), err
    assert json.loads(out.read_text())["traceEvents"]


def test_doctor_says_torch_is_not_installed(tmp_path):
    code, out, err, _ = light(["doctor", "--json", "--out", str(tmp_path)], tmp_path)
    assert code == 1, err     # profile --ncu cannot run without torch
    rows = {c["name"]: c for c in json.loads(out)["checks"]}
    assert rows["GPU and driver"]["status"] == "fail"
    assert rows["GPU and driver"]["detail"].startswith("not looked for: torch is not installed; ")   # no probe ran
    assert rows["CUDA runtime"] == {"name": "CUDA runtime", "status": "skip", "remedy": "",
                                    "detail": "not checked: torch is not installed"}
    for name in ("torch", "triton"):
        assert rows[name] == {"name": name, "status": "fail", "detail": "not installed",
                              "remedy": "profile, ncu and attention need it: pip install 'inductor-prof[gpu]'"}
    for name in ("Proton", "Inductor -> Triton", "cuDNN SDPA"):
        assert rows[name]["status"] == "skip"


@pytest.mark.parametrize("args", [["profile"], ["profile", "flux", "--ncu", "--out", "runs/x"], ["ncu", RUN],
                                  ["attention", "--list"], ["attention", RUN]], ids=" ".join)
def test_gpu_commands_name_the_extra(args, tmp_path):
    code, out, err, _ = light(args, tmp_path)
    assert (code, out, err) == (2, "", GPU_LINE.format(args[0]))
    assert not (REPO / "runs" / "x").exists()


def test_one_of_the_two_missing_is_named(monkeypatch):
    from inductor_prof import envinfo
    from inductor_prof.errors import UserError

    monkeypatch.setattr(envinfo, "importable", lambda module: module != "triton")
    with pytest.raises(UserError) as e:
        envinfo.require_gpu_extra("`inductor-prof profile`")
    assert str(e.value) == ("`inductor-prof profile` needs torch and triton (triton is not installed): "
                            "pip install 'inductor-prof[gpu]'")


def _name(requirement: str) -> str:
    return requirement.split(";")[0].split(">")[0].split("=")[0].split("[")[0].strip()


def test_dependencies_leave_torch_triton_and_ncu_report_to_extras():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert not {"torch", "triton", "ncu-report"} & {_name(d) for d in project["dependencies"]}
    extras = project["optional-dependencies"]
    assert {"torch", "triton"} <= {_name(d) for d in extras["gpu"]}
    assert [_name(d) for d in extras["ncu"]] == ["ncu-report"] and "inductor-prof[ncu]" in extras["gpu"]


def _extras_with_torch(extras: dict[str, list[str]]) -> set[str]:
    """The extras that install torch, directly or through another extra of the package."""
    def pulls(name, seen=()):
        for req in extras[name]:
            if req.split(">")[0].split("=")[0] == "torch":
                return True
            if req.startswith("inductor-prof["):
                inner = req[len("inductor-prof["):req.index("]")].split(",")
                if any(pulls(e, (*seen, name)) for e in inner if e not in seen):
                    return True
        return False
    return {name for name in extras if pulls(name)}


def test_install_script_knows_which_extras_need_torch():
    """scripts/install.sh installs PyTorch's CPU torch first (no NVIDIA driver) for exactly the extras that pull
    torch: its list is the one pyproject implies."""
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    line = next(ln for ln in (REPO / "scripts" / "install.sh").read_text().splitlines()
                if ln.startswith("torch_extras="))
    assert set(line.split("=", 1)[1].strip("'\"").split()) == _extras_with_torch(extras)
