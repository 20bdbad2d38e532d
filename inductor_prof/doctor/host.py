"""The checks of `doctor` that run from here: package versions, ncu (which path, which version, how it was
found), ncu on a tiny kernel (counter permissions), `sudo -n`, free disk. Each returns one `Check`."""
from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from .. import procs
from ..childenv import child_env
from ..drivers.ncu import command
from ..drivers.ncu.locate import NCU_EXTRA, NCU_SEARCH, import_ncu_report, locate_ncu, path_fault
from ..envinfo import GPU_EXTRA, importable, package_version
from ..errors import UserError, one_line
from ..rundir import write_json
from ..settings import Settings, file_settings
from ..units import MB, NS_PER_US
from ..specs import InductorCall
from .check import FAIL, OK, SKIP, WARN, Check

# distribution (its module's name too) -> (status when it is missing, remedy); `pip install inductor-prof` (the
# light install: report, diff, inspect, trace, doctor) has none of them, nor ncu-report (below)
GPU_REMEDY = f"profile, ncu and attention need it: pip install 'inductor-prof[{GPU_EXTRA}]'"
PACKAGES = {
    "torch": (FAIL, GPU_REMEDY),
    "triton": (FAIL, GPU_REMEDY),
    "diffusers": (FAIL, "profile flux needs it: pip install 'inductor-prof[flux]'"),
}
VERSION_TIMEOUT_S = 60
SUDO_TIMEOUT_S = 30
DISK_FAIL_GIB = 1.0   # headroom for a run folder (Inductor cache, ncu reports), not a measured size
DISK_WARN_GIB = 5.0


def versions() -> list[Check]:
    rows = []
    for dist, (missing, remedy) in PACKAGES.items():
        found = package_version(dist) if importable(dist) else None
        rows.append(Check(dist, OK, found) if found else Check(dist, missing, "not installed", remedy))
    found = package_version("ncu-report")
    if found:
        rows.append(Check("ncu-report", OK, found))
        return rows
    try:
        module = import_ncu_report()   # the copy an ncu install ships
    except UserError:
        rows.append(Check("ncu-report", FAIL, "not installed, and no copy beside an ncu install",
                          f"profile --ncu reads its reports with it: pip install 'inductor-prof[{GPU_EXTRA}]' "
                          f"(or [{NCU_EXTRA}], the reader alone)"))
    else:
        rows.append(Check("ncu-report", OK, f"not installed; ncu's own copy: {module.__file__}"))
    return rows


def _how_configured(origin: str, cwd: Path) -> str:
    """Where the configured ncu path came from, in words, from settings.resolve's origin of it."""
    if origin == "cli":
        return "from --ncu-path"
    if origin.startswith("env "):
        return f"from {origin[4:]}"
    return f"from the settings file {file_settings(cwd)[0]}"


def ncu_version(ncu: str) -> tuple[str | None, str]:
    """(the version `ncu --version` prints, '') or (None, why not: it did not run, or it is another program)."""
    try:
        done = procs.run([ncu, "--version"], child_env(), VERSION_TIMEOUT_S, merge=True)
    except OSError as e:
        return None, f"does not run: ncu --version: {one_line(e)}"
    if not done.ok:
        return None, f"does not run: ncu --version: {done.why(VERSION_TIMEOUT_S)}"
    text = done.stdout
    found = re.search(r"Version\s+(\S+)", text)
    if found is None and "Nsight Compute" not in text:   # nsys, a wrapper, /bin/true: profile --ncu would fail
        return None, f"is not Nsight Compute's ncu: --version printed {procs.tail(text, 1)!r}"
    return (found.group(1) if found else procs.tail(text, 1)), ""


def ncu_found(settings: Settings, origin: dict[str, str], cwd: Path | None = None) -> tuple[Check, str | None]:
    """(the row, the ncu path or None)."""
    configured = _how_configured(origin.get("ncu", ""), cwd or Path.cwd()) if settings.ncu else ""
    try:
        path, how = locate_ncu(settings.ncu)
    except UserError:
        fault = path_fault(settings.ncu) if settings.ncu else None   # given, there, but not a program
        if fault:
            return Check("ncu", FAIL, f"{settings.ncu!r} ({configured}) is {fault}",
                         "give the ncu executable itself (e.g. /usr/local/cuda/bin/ncu)"), None
        where = f"at {settings.ncu!r} ({configured})" if settings.ncu else \
            f"on PATH nor in {', '.join(NCU_SEARCH)}"
        return Check("ncu", FAIL, f"not found {where}", "install Nsight Compute (part of the CUDA toolkit); pass "
                     "--ncu-path or set INDUCTOR_PROF_NCU when it is not on PATH"), None
    how = {"PATH": "found on PATH", "search": f"found by searching {', '.join(NCU_SEARCH)}"}.get(how, configured)
    version, why = ncu_version(path)
    if version is None:
        return Check("ncu", FAIL, f"{path} ({how}) {why}",
                     "repair the Nsight Compute install, or pass another with --ncu-path"), None
    return Check("ncu", OK, f"{path}, version {version} ({how})"), path


def ncu_counters(settings: Settings, ncu: str, work: Path) -> Check:
    """ncu, as `profile --ncu` runs it (sudo included), on a tiny Triton kernel: do the counters read?"""
    from ..drivers.ncu.report import parse_reports
    from ..drivers.ncu.command import give_back, pass_env
    from . import probe_kernel

    name = "ncu counters"
    spec, report = work / "probe_spec.json", work / "probe"
    write_json(spec, InductorCall(probe_kernel.KERNEL, probe_kernel.__file__).as_json())
    env = pass_env(work / "inductor_cache", settings, work / "ncu_home")
    cmd = command.build_cmd(settings, ncu, probe_kernel.KERNEL, report, command.python_program(), env)
    warnings: list[str] = []
    try:
        result = command.run_one(cmd, [spec], env, settings.ncu_timeout, work / "ncu.log")
    except command.NcuPermissionError as e:
        return Check(name, FAIL, "ncu on a tiny kernel: ERR_NVGPUCTRPERM", str(e))
    except UserError as e:   # sudo asked for a password
        return Check(name, FAIL, "ncu through `sudo -n`: sudo asked for a password", str(e))
    finally:
        give_back([work], settings, warnings.append)
    if result.status != "ok":
        return Check(name, FAIL, f"ncu on a tiny kernel: {result.status}: {result.reason}",
                     "profile --ncu would fail the same way; run ncu by hand on a small program to see why")
    parsed = parse_reports([report.with_suffix(".ncu-rep")]).popitem()[1]
    if "error" in parsed or not parsed["results"]:
        return Check(name, FAIL, f"ncu's report could not be read: {parsed.get('error', 'no kernel in it')}",
                     "pip install ncu-report, at least as new as ncu")
    m = parsed["results"][0]
    detail = (f"ncu profiled a tiny Triton kernel: {m['duration_ns'] / NS_PER_US:.1f} µs, "
              f"DRAM {m['dram_bytes'] / MB:.1f} MB")
    return Check(name, WARN, f"{detail}; {'; '.join(warnings)}") if warnings else Check(name, OK, detail)


def sudo_usable(settings: Settings) -> Check:
    """When ncu is to run through sudo: does `sudo -n` run a command, in the form ncu is run (sudo -n env ...)?"""
    name = "sudo -n"
    if not settings.sudo:
        return Check(name, SKIP, "not configured: ncu runs as you (--sudo or INDUCTOR_PROF_SUDO=1 to change)")
    cmd = settings.as_root("env", "true")
    try:
        done = procs.run(cmd, child_env(), SUDO_TIMEOUT_S, merge=True)
    except OSError as e:
        return Check(name, FAIL, f"{shlex.join(cmd)}: {one_line(e)}", "install sudo, or pass --sudo-path")
    if done.ok:
        return Check(name, OK, f"{settings.sudo_path} -n runs commands without a password")
    if any(mark in done.stdout for mark in command.SUDO_PROMPT_MARKS):
        return Check(name, FAIL, f"{settings.sudo_path} -n asked for a password", command.SUDO_PASSWORD_HELP)
    return Check(name, FAIL, f"{shlex.join(cmd)}: {done.why(SUDO_TIMEOUT_S)}", command.SUDO_PASSWORD_HELP)


def free_disk(out: Path, fail_gib: float = DISK_FAIL_GIB, warn_gib: float = DISK_WARN_GIB) -> Check:
    """Free space where the run folder goes (its nearest existing parent when it does not exist yet)."""
    where = Path(out).resolve()
    while not where.exists():
        where = where.parent
    free = shutil.disk_usage(where).free / 2**30
    detail = f"{free:.1f} GiB free at {where}"
    if free < fail_gib:
        return Check("disk", FAIL, detail, f"free at least {fail_gib:g} GiB there, or give --out another disk")
    if free < warn_gib:
        return Check("disk", WARN, detail, f"a full FLUX run with ncu reports may need more: {warn_gib:g} GiB or more")
    return Check("disk", OK, detail)

