"""The light install (`pip install inductor-prof`: no torch, no triton): `report`, `diff`, `trace`, `doctor` and
every command's --help run without importing either, and `profile`, `ncu`, `attention` say which extra to install
(one line, exit 2). Each command runs in a child process in which importing torch or triton fails, as it does where
they are not installed, and every attempt is recorded; pyproject's dependencies and scripts/install.sh are checked
to match."""
import atexit
import json
import os
import shutil
import tempfile
import tomllib

import pytest

import isolated
from recorded import REPO
from inductor_prof.cli import app

RUN = "examples/runs/flux-h100"
OTHER = "examples/runs/flux-h100-768x1344"
GPU_LINE = "error: `inductor-prof {}` needs torch and triton: pip install 'inductor-prof[gpu]'\n"

# A meta-path finder ahead of all others: `import torch` / `import triton` (and their submodules) fail as on a
# machine without them, and each attempt is recorded. One such process (isolated.Server) loads the CLI (and
# pandas, which reading a run needs) once, then forks a child per command: each command starts from that state
# as a fresh process would from its imports, and the imports tried are those of the start-up (asserted with
# each command's) plus the command's own. A job: the arguments and a file prefix for the child's stdout, stderr
# and attempts; the answer: its exit code and the start-up's attempts.
SERVER = """
import importlib.abc, json, os, sys
attempts = []
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "triton"):
            attempts.append(name)
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NotInstalled())
from inductor_prof.entry import main
import inductor_prof.cli, pandas
startup = list(attempts)
for line in sys.stdin:
    args, prefix = json.loads(line)
    pid = os.fork()
    if pid == 0:
        import atexit
        attempts.clear()
        atexit.register(lambda: open(prefix + ".attempts", "w").write(json.dumps(attempts)))
        for fd, name, flags in ((0, os.devnull, os.O_RDONLY), (1, prefix + ".out", os.O_WRONLY | os.O_CREAT),
                                (2, prefix + ".err", os.O_WRONLY | os.O_CREAT)):
            os.dup2(os.open(name, flags), fd)
        sys.argv = ["inductor-prof", *args]
        main()
        sys.exit(0)     # (as `python -c` ends when main returns; a SystemExit ends this child the usual way)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    print(json.dumps({"code": code, "startup": startup}), flush=True)
"""
_server: isolated.Server | None = None


def _submit(args: list[str], prefix: str) -> tuple[isolated.Job, str]:
    global _server
    if _server is None or not _server.alive():
        _server = isolated.Server(SERVER, {"COLUMNS": "120"})
    return _server.submit([args, prefix]), prefix


def _result(job: isolated.Job, prefix: str):
    answer = job.result()
    read = lambda suffix: open(prefix + suffix, errors="replace").read()    # noqa: E731
    return answer["code"], read(".out"), read(".err"), answer["startup"] + json.loads(read(".attempts"))


_prefetched: dict[tuple, tuple[isolated.Job, str]] = {}
_outputs = tempfile.mkdtemp(prefix="inductor-prof-light-")
atexit.register(shutil.rmtree, _outputs, True)


def _prefetch(commands: list[list[str]]) -> list[list[str]]:
    """Sends `commands` now (isolated.prefetch's idea: the forks run while the tests before this module run); the
    tests' `light` takes the answers. Returns them, for the parametrize."""
    for i, args in enumerate(commands, start=len(_prefetched)):
        _prefetched[tuple(args)] = _submit(args, os.path.join(_outputs, f"command{i}"))
    return commands


@pytest.fixture
def light(tmp_path):
    """`light(ARGS)`: (exit code, stdout, stderr, the torch/triton imports tried) of `inductor-prof ARGS`
    without torch and triton, run from the repository root."""
    def run(args):
        ready = _prefetched.pop(tuple(args), None)
        return _result(*(ready or _submit(args, str(tmp_path / "command"))))
    return run


def _commands():
    return sorted(info.name or info.callback.__name__.replace("_command", "") for info in app.registered_commands)


@pytest.mark.parametrize("args", _prefetch([["--help"], *[[c, "--help"] for c in _commands()]]), ids=" ".join)
def test_help_imports_neither(args, light):
    code, out, err, tried = light(args)
    assert (code, tried) == (0, []), err
    assert "Usage: inductor-prof" in out


@pytest.mark.parametrize("args", _prefetch([
    ["report", RUN, "--top", "3"],
    ["report", RUN, "--json", "--top", "2"],
    ["report", RUN, "--csv", "-"],
    ["diff", RUN, OTHER, "--top", "3"],
    ["diff", RUN, OTHER, "--json"],
    # flux-h100 ships source reports: inspect reads one (ncu_report, in its own process)
    ["inspect", RUN, "gelu_permute", "--width", "100"],
    ["inspect", RUN, "gelu_permute", "--json"],
]), ids=" ".join)
def test_reading_a_run_imports_neither(args, light):
    code, out, err, tried = light(args)
    assert (code, tried, err) == (0, [], ""), err
    assert out.strip()


# what these write goes to the prefetch's folder, so they can be sent ahead too
PAGE, TRACE = os.path.join(_outputs, "flux.html"), os.path.join(_outputs, "flux.trace.json")
HTML, TRACE_ARGS, DOCTOR = _prefetch([["report", RUN, "--html", PAGE], ["trace", RUN, "--out", TRACE],
                                      ["doctor", "--json", "--out", _outputs]])


def test_html_report_imports_neither(light):
    pytest.importorskip("bokeh")   # the html extra: no torch either
    code, _, err, tried = light(HTML)
    assert (code, tried) == (0, []), err
    assert os.path.getsize(PAGE) > 100_000


def test_trace_imports_neither(light):
    code, _, err, tried = light(TRACE_ARGS)
    assert (code, tried) == (0, []), err
    assert json.loads(open(TRACE).read())["traceEvents"]


def test_doctor_says_torch_is_not_installed(light):
    code, out, err, _ = light(DOCTOR)
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


@pytest.mark.parametrize("args", _prefetch([["profile"], ["profile", "flux", "--ncu", "--out", "runs/x"], ["ncu", RUN],
                                            ["attention", "--list"], ["attention", RUN]]), ids=" ".join)
def test_gpu_commands_name_the_extra(args, light):
    code, out, err, _ = light(args)
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


def test_dependencies_leave_torch_and_triton_to_the_gpu_extra():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    names = [d.split(";")[0].split(">")[0].split("=")[0].split("[")[0].strip() for d in project["dependencies"]]
    assert not {"torch", "triton"} & set(names)
    extras = project["optional-dependencies"]
    assert {"torch", "triton"} <= {d.split(">")[0] for d in extras["gpu"]}


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
