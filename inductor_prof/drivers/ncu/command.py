"""The ncu command line and running it: `build_cmd` is pure (an argument list, never a shell string);
`run_one` runs it over the replay worker (replay.py) with a timeout, keeps its output in a log, reads the
worker's step events, and ends its process group on a hang, Ctrl-C or SIGTERM."""
from __future__ import annotations

import os
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from ... import procs
from ...childenv import child_env
from ...errors import UserError, one_line
from ...inductor.cache import cache_env
from ...settings import Settings
from ...specs import ReplaySpec
from .metrics import METRICS, SOURCE_SECTIONS

PERMISSION_MARK = "ERR_NVGPUCTRPERM"
PERMISSION_HELP = ("ncu has no permission for the GPU performance counters (ERR_NVGPUCTRPERM). Remedies: "
                   "run with --sudo (INDUCTOR_PROF_SUDO=1); or load the driver with "
                   "NVreg_RestrictProfilingToAdminUsers=0; or in a container, start it with --cap-add SYS_ADMIN")
SUDO_PROMPT_MARKS = ("a password is required", "a terminal is required")   # what `sudo -n` says then
SUDO_PASSWORD_HELP = ("sudo asked for a password; allow passwordless sudo for ncu (NOPASSWD) or run "
                      "inductor-prof as a user with counter access")
# what the profiled Python program needs, passed explicitly because sudo resets the environment; the ptxas and
# libdevice the model's kernels were built with (inductor/cache.py inductors_ptxas) among them
PASS_ENV = ("PATH", "PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
            "CUDA_HOME", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "HF_HOME", "HOME", "TRITON_HOME",
            "TORCH_HOME", "NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS",
            "TRITON_PTXAS_PATH", "TRITON_LIBDEVICE_PATH")


class NcuPermissionError(UserError):
    pass


@dataclass
class NcuResult:
    status: str          # ok | failed | timeout
    reason: str = ""
    seconds: float = 0.0
    kind: str = ""       # how it failed, in short: "timeout", "killed by SIGSEGV", "exit 1", "kernel not launched"
    events: list[dict] = field(default_factory=list)   # the replay worker's step events (replay.py)


def kernel_filter(names: str | list[str]) -> str:
    """ncu -k argument matching exactly these (mangled) kernel names."""
    names = [names] if isinstance(names, str) else sorted(set(names))
    if len(names) == 1:
        return f"regex:^{re.escape(names[0])}$"
    return "regex:^(" + "|".join(re.escape(n) for n in names) + ")$"


def _profile_one(settings: Settings, ncu: str, kernel: str | list[str], report: Path, count: int) -> list[str]:
    return [ncu, "--target-processes", "all", "--clock-control", settings.clock_control,
            "--profile-from-start", "off", "--kernel-name-base", "mangled", "-k", kernel_filter(kernel),
            "-c", str(count), "-f", "-o", str(report)]


def _finish(settings: Settings, cmd: list[str], program: list[str], env: dict[str, str]) -> list[str]:
    """The user's extra ncu arguments and the program; under sudo: `sudo -n env VAR=... ncu ...`, so the program
    keeps its environment."""
    cmd = [*cmd, *settings.ncu_args, *program]
    if settings.sudo:
        cmd = settings.as_root("env", *[f"{k}={v}" for k, v in sorted(env.items())], *cmd)
    return cmd


def build_cmd(settings: Settings, ncu: str, kernel: str | list[str], report: Path, program: list[str],
              env: dict[str, str], count: int = 1) -> list[str]:
    """The full argument list of the metrics pass.

    `kernel` may name several kernels: the program then replays each once in its own profiler range and
    ncu writes one report holding `count` results, in launch order.
    """
    cmd = _profile_one(settings, ncu, kernel, report, count)
    if settings.ncu_set:
        cmd += ["--set", settings.ncu_set]
    else:
        cmd += ["--metrics", ",".join(METRICS.values())]
    return _finish(settings, cmd, program, env)


def build_source_cmd(settings: Settings, ncu: str, kernel: str | list[str], report: Path, program: list[str],
                     env: dict[str, str], count: int = 1) -> list[str]:
    """The source pass of one or more kernels (as build_cmd: `count` results, in launch order): only the
    sections of their per-instruction counters, warp stalls, launch statistics and occupancy (no --set), and the
    kernels' source files imported into the report (Triton kernels carry line info), so `inspect` reads them on
    any machine. ncu's --section applies to every kernel a process profiles (its filters choose kernels, not
    sections per kernel): so this pass is a process of its own, not part of the metric pass's."""
    cmd = _profile_one(settings, ncu, kernel, report, count)
    for section in SOURCE_SECTIONS:
        cmd += ["--section", section]
    cmd += ["--import-source", "yes"]
    return _finish(settings, cmd, program, env)


def sudo_home_env(home: Path) -> dict[str, str]:
    """Under sudo, ncu and the replayed program run as root: every per-user place they write (ncu's config,
    the CUDA, Triton and torch caches) is put inside `home`, a folder of the run given back afterwards, so
    no root-owned file lands in the user's HOME or virtual environment."""
    import site

    home = Path(home).resolve()
    cache = home / ".cache"
    return {"HOME": str(home), "XDG_CACHE_HOME": str(cache), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"), "CUDA_CACHE_PATH": str(home / ".nv" / "ComputeCache"),
            "TRITON_HOME": str(home), "TORCH_HOME": str(cache / "torch"), "HF_HOME": str(cache / "huggingface"),
            # packages of `pip install --user` still found; no .pyc written as root beside your sources
            "PYTHONUSERBASE": site.getuserbase(), "PYTHONDONTWRITEBYTECODE": "1"}


def run_one(cmd: list[str], specs: list[Path], env: dict[str, str], timeout: float, log_path: Path,
            per_step: bool = False, clock: Callable[[], float] = time.monotonic) -> NcuResult:
    """Runs one ncu command (`cmd`, ending with python_program()) over the replay worker of these kernel
    `specs`, stdout+stderr kept in log_path. `timeout`: seconds in all, or with `per_step` seconds without a
    step event (the replay worker says each kernel it finishes), as `clock` counts them; then the process group
    is ended, as on Ctrl-C and SIGTERM."""
    worker = procs.run_worker(ReplaySpec(specs=[str(p) for p in specs]), log_path, timeout, env=child_env(env),
                              idle=per_step, program=cmd, clock=clock)
    done, events = worker.finished, worker.events
    out = log_path.read_text(errors="replace")
    if done.timed_out:
        return NcuResult("timeout", f"no progress for {timeout:g} s (the ncu_timeout setting, per kernel): ncu ended", done.seconds, "timeout", events)
    if PERMISSION_MARK in out:
        raise NcuPermissionError(PERMISSION_HELP)
    if any(mark in out for mark in SUDO_PROMPT_MARKS):
        raise UserError(SUDO_PASSWORD_HELP)
    if done.returncode != 0:
        how = procs.describe_exit(done.returncode)
        # the replay worker's own word on why (its error event), else the end of the log (ncu's, the program's)
        why = worker.error if worker.error is not None else procs.tail(out)
        return NcuResult("failed", f"{how}: {why}", done.seconds, how, events)
    if "No kernels were profiled" in out:
        return NcuResult("failed", f"kernel not launched: {procs.tail(out)}", done.seconds, "kernel not launched",
                         events)
    return NcuResult("ok", "", done.seconds, "", events)


def python_program() -> list[str]:
    """The profiled program: this interpreter running the worker entry; run_one adds its spec (a ReplaySpec of
    the kernels' specs, see replay.py)."""
    return [sys.executable, *procs.WORKER]


CHOWN_TIMEOUT_S = 60


def give_back(paths: list[Path], settings: Settings, log: Callable[[str], None] = print) -> None:
    """Files ncu wrote as root go back to the invoking user; a failure is said, not hidden."""
    if not settings.sudo:
        return
    owner = f"{os.getuid()}:{os.getgid()}"
    cmd = settings.as_root("chown", "-R", owner, *map(str, paths))
    try:
        done = procs.run(cmd, child_env(), CHOWN_TIMEOUT_S)
        why = "" if done.ok else done.why(CHOWN_TIMEOUT_S)
    except OSError as e:
        why = one_line(e)
    if why:
        log(f"warning: could not give files ncu wrote as root back to you (chown {owner} "
            f"{' '.join(map(str, paths))}): {why}")


@contextmanager
def giving_back(paths: list[Path], settings: Settings, log: Callable[[str], None] = print) -> Iterator[None]:
    """give_back after the block, also when it raises (Ctrl-C included): the block's error stays the one shown,
    whatever happens to the chown."""
    try:
        yield
    except BaseException:
        try:
            give_back(paths, settings, log)
        except BaseException as e:  # noqa: BLE001  (a second Ctrl-C, say): the first error is the one to show
            log(f"warning: files not given back after the interruption: {one_line(e)}")
        raise
    give_back(paths, settings, log)


def pass_env(inductor_cache: Path, settings: Settings, ncu_home: Path) -> dict[str, str]:
    """A pass's environment: the replay program's, and under sudo ncu's HOME in `ncu_home` (root's caches and
    configs go inside the run, given back after, not into your HOME)."""
    env = replay_env(inductor_cache)
    if settings.sudo:
        ncu_home.mkdir(parents=True, exist_ok=True)
        env.update(sudo_home_env(ncu_home))
    return env


def replay_env(inductor_cache: Path) -> dict[str, str]:
    """The environment of the replay program ncu runs (only PASS_ENV of ours: under sudo it is all there is):
    this package importable, Inductor's cache given."""
    return child_env({**cache_env(inductor_cache),
                      "TORCHINDUCTOR_COMPILE_THREADS": "1"},   # no compile workers for ncu to follow into
                     keep=PASS_ENV)
