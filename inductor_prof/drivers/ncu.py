"""Nsight Compute: one ncu process per unique kernel, a .ncu-rep each, parsed with NVIDIA's ncu_report.

build_cmd is pure (argument lists, never shell strings); run_one runs it with a timeout and keeps stderr;
parse_report reads a report into short-named, unit-normalised values.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError
from ..settings import Settings

# short name -> raw ncu metric; the only place raw names appear.
METRICS = {
    "duration_ns": "gpu__time_duration.sum",
    "dram_read_bytes": "dram__bytes_read.sum",
    "dram_write_bytes": "dram__bytes_write.sum",
    "l2_bytes": "lts__t_bytes.sum",
    "l1_bytes": "l1tex__t_bytes.sum",
    "sol_compute_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sol_memory_pct": "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "registers": "launch__registers_per_thread",
    "local_load_bytes": "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum",
    "local_store_bytes": "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum",
    "tensor_pipe_pct": "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "fadd": "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "fmul": "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "ffma": "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "hadd": "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "hmul": "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "hfma": "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "dadd": "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "dmul": "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "dfma": "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
}
# Units ncu may report a metric in -> factor to the unit of its short name (ns, bytes, %).
_UNIT = {"nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9, "byte": 1, "kbyte": 1e3, "mbyte": 1e6,
         "gbyte": 1e9, "kibyte": 1024, "mibyte": 2**20, "gibyte": 2**30}
PERMISSION_MARK = "ERR_NVGPUCTRPERM"
PERMISSION_HELP = ("ncu has no permission for the GPU performance counters (ERR_NVGPUCTRPERM). Remedies: "
                   "run with --sudo (INDUCTOR_PROF_SUDO=1); or load the driver with "
                   "NVreg_RestrictProfilingToAdminUsers=0; or in a container, start it with --cap-add SYS_ADMIN")
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
    if "a password is required" in out or "a terminal is required" in out:
        raise UserError("sudo asked for a password; allow passwordless sudo for ncu (NOPASSWD) or run "
                        "inductor-prof as a user with counter access")
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


def import_ncu_report():
    """NVIDIA's ncu_report: the PyPI package, else the copy every ncu install ships in extras/python."""
    try:
        import ncu_report
        return ncu_report
    except ImportError:
        pass
    import glob
    import importlib

    candidates = [os.path.join(os.path.dirname(os.path.realpath(p)), "extras", "python")
                  for p in filter(None, [__import__("shutil").which("ncu")])]
    candidates += sorted(glob.glob("/opt/nvidia/nsight-compute/*/extras/python"), reverse=True)
    candidates += sorted(glob.glob("/usr/local/cuda*/nsight-compute*/extras/python"), reverse=True)
    for path in candidates:
        if os.path.isfile(os.path.join(path, "ncu_report.py")):
            sys.path.insert(0, path)
            return importlib.import_module("ncu_report")
    raise UserError("reading .ncu-rep files needs the ncu-report package: pip install ncu-report")


def parse_report(path: Path, index: int = 0) -> dict[str, float]:
    """Short-named metrics of the index-th profiled kernel of a .ncu-rep (ns, bytes, %, counts)."""
    return parse_report_all(path)[index]


def parse_report_all(path: Path) -> list[dict[str, float]]:
    """Metrics of every profiled kernel (ncu 'action') of a report, in profiling order; 'kernel' holds the
    mangled name. Everything is read while the report context is alive: its actions dangle once it is freed."""
    ncu_report = import_ncu_report()
    ctx = ncu_report.load_report(str(path))
    mangled = getattr(getattr(ncu_report, "IAction", None), "NameBase_MANGLED", None)
    out = []
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            action = rng.action_by_idx(a)
            metrics = _action_metrics(action)
            metrics["kernel"] = action.name(mangled) if mangled is not None else action.name()
            out.append(metrics)
    del ctx
    return out


def _action_metrics(action) -> dict[str, float]:
    names = set(action.metric_names())
    out: dict[str, float] = {}
    for short, raw in METRICS.items():
        if raw not in names:
            continue
        metric = action.metric_by_name(raw)
        value = metric.as_double()
        unit = (metric.unit() or "").lower()
        out[short] = value * _UNIT.get(unit, 1)
    return derive(out)


def derive(m: dict) -> dict:
    """Measured totals from raw counters: DRAM bytes, FP flops (an FMA is two), local-memory traffic."""
    m = dict(m)
    if "dram_read_bytes" in m or "dram_write_bytes" in m:
        m["dram_bytes"] = m.get("dram_read_bytes", 0) + m.get("dram_write_bytes", 0)
    if any(k in m for k in ("fadd", "fmul", "ffma", "hadd", "hmul", "hfma", "dadd", "dmul", "dfma")):
        m["flops"] = sum(m.get(k, 0) for k in ("fadd", "fmul", "hadd", "hmul", "dadd", "dmul")) + \
            2 * sum(m.get(k, 0) for k in ("ffma", "hfma", "dfma"))
    if "local_load_bytes" in m or "local_store_bytes" in m:
        m["local_bytes"] = m.get("local_load_bytes", 0) + m.get("local_store_bytes", 0)
    return m


def python_program(spec_paths: Path | list[Path]) -> list[str]:
    """The profiled program: this interpreter replaying the kernels of these specs (see ncu_runner)."""
    paths = [spec_paths] if isinstance(spec_paths, Path) else spec_paths
    return [sys.executable, "-m", "inductor_prof.ncu_runner", *map(str, paths)]
