"""The ncu command line and running it: `build_cmd` is pure (an argument list, never a shell string);
`run_one` runs it with a timeout, keeps its output in a log, and ends its process group on a hang or Ctrl-C."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ...errors import UserError
from ...settings import Settings
from .metrics import METRICS

PERMISSION_MARK = "ERR_NVGPUCTRPERM"
PERMISSION_HELP = ("ncu has no permission for the GPU performance counters (ERR_NVGPUCTRPERM). Remedies: "
                   "run with --sudo (INDUCTOR_PROF_SUDO=1); or load the driver with "
                   "NVreg_RestrictProfilingToAdminUsers=0; or in a container, start it with --cap-add SYS_ADMIN")
SUDO_PROMPT_MARKS = ("a password is required", "a terminal is required")   # what `sudo -n` says then
SUDO_PASSWORD_HELP = ("sudo asked for a password; allow passwordless sudo for ncu (NOPASSWD) or run "
                      "inductor-prof as a user with counter access")
# what the profiled Python program needs, passed explicitly because sudo resets the environment
PASS_ENV = ("PATH", "PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
            "CUDA_HOME", "TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR", "HF_HOME", "HOME", "TRITON_HOME",
            "TORCH_HOME", "NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS")


class NcuPermissionError(UserError):
    pass


@dataclass
class NcuResult:
    status: str          # ok | failed | timeout
    reason: str = ""
    seconds: float = 0.0


def kernel_filter(names: str | list[str]) -> str:
    """ncu -k argument matching exactly these (mangled) kernel names."""
    names = [names] if isinstance(names, str) else sorted(set(names))
    if len(names) == 1:
        return f"regex:^{re.escape(names[0])}$"
    return "regex:^(" + "|".join(re.escape(n) for n in names) + ")$"


def build_cmd(settings: Settings, ncu: str, kernel: str | list[str], report: Path, program: list[str],
              env: dict[str, str], count: int = 1) -> list[str]:
    """The full argument list; under sudo: `sudo -n env VAR=... ncu ...` so the program keeps its environment.

    `kernel` may name several kernels: the program then replays each once in its own profiler range and
    ncu writes one report holding `count` results, in launch order.
    """
    cmd = [ncu, "--target-processes", "all", "--clock-control", settings.clock_control,
           "--profile-from-start", "off", "--kernel-name-base", "mangled", "-k", kernel_filter(kernel),
           "-c", str(count), "-f", "-o", str(report)]
    if settings.ncu_set:
        cmd += ["--set", settings.ncu_set]
    else:
        cmd += ["--metrics", ",".join(METRICS.values())]
    cmd += list(settings.ncu_args)
    cmd += program
    if settings.sudo:
        cmd = [settings.sudo_path, "-n", "env", *[f"{k}={v}" for k, v in sorted(env.items())], *cmd]
    return cmd


def program_env(extra: dict[str, str] | None = None, source: dict[str, str] | None = None) -> dict[str, str]:
    source = os.environ if source is None else source
    env = {k: source[k] for k in PASS_ENV if k in source}
    env.update(extra or {})
    return env


def run_one(cmd: list[str], env: dict[str, str], timeout: float, log_path: Path) -> NcuResult:
    """Runs one ncu command; stdout+stderr kept in log_path; a hang is killed with its process group."""
    import time

    t0 = time.perf_counter()
    full_env = {**os.environ, **env}
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=full_env, start_new_session=True,
                                stdin=subprocess.DEVNULL)
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return NcuResult("timeout", f"no result after {timeout:.0f} s", time.perf_counter() - t0)
        except KeyboardInterrupt:
            _kill_group(proc)
            raise
    out = log_path.read_text(errors="replace")
    seconds = time.perf_counter() - t0
    if PERMISSION_MARK in out:
        raise NcuPermissionError(PERMISSION_HELP)
    if any(mark in out for mark in SUDO_PROMPT_MARKS):
        raise UserError(SUDO_PASSWORD_HELP)
    if rc != 0:
        return NcuResult("failed", f"exit {rc}: {tail(out)}", seconds)
    if "No kernels were profiled" in out:
        return NcuResult("failed", f"kernel not launched: {tail(out)}", seconds)
    return NcuResult("ok", "", seconds)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()
    proc.wait()


def tail(text: str, lines: int = 4) -> str:
    keep = [ln for ln in text.strip().splitlines() if ln.strip()][-lines:]
    return " | ".join(keep)[:600]


def python_program(spec_paths: Path | list[Path]) -> list[str]:
    """The profiled program: this interpreter replaying the kernels of these specs (see replay.py)."""
    paths = [spec_paths] if isinstance(spec_paths, Path) else spec_paths
    return [sys.executable, "-m", "inductor_prof.drivers.ncu.replay", *map(str, paths)]
