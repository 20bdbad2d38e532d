"""`doctor`: on this CPU machine (exit code, rows, JSON), with fake ncu and sudo executables (version, counter
permission error, a recorded report, a password prompt), the disk threshold, the child-process runner (hang,
crash), the rows made from GPU probe findings, and the probe kernel itself (Triton's interpreter)."""
import json
import os
import sys
import time

import importlib.metadata as md
import pytest
from typer.testing import CliRunner

import isolated
from recorded import REPO, data_path
from fakes import fake_exe as _fake_ncu
from inductor_prof import __version__, procs
from inductor_prof.cli import app
from inductor_prof.doctor import gpu, gpu_rows, host
from inductor_prof.doctor.check import Check
from inductor_prof.drivers.ncu import command
from inductor_prof.settings import Settings, resolve
from inductor_prof.specs import DoctorProbeSpec

runner = CliRunner()
ROWS = ["GPU and driver", "CUDA runtime", "torch", "triton", "diffusers", "ncu-report", "Python bytecode", "Proton",
        "Inductor -> Triton", "cuDNN SDPA", "ncu", "sudo -n", "ncu counters", "disk"]
# what `ncu --version` prints (the layout of Nsight Compute 2025.x)
NCU_VERSION = ("print('NVIDIA (R) Nsight Compute Command Line Profiler')\n"
               "print('Copyright (c) 2018-2025 NVIDIA Corporation')\n"
               "print('Version 2025.3.1.0 (build 36398880) (public-release)')")


def _cpu_only():
    import torch

    if torch.cuda.is_available():
        pytest.skip("checks the CPU-only answers")


def test_version_is_the_package_one():
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output == f"inductor-prof {__version__}\n"
    pyproject = (REPO / "pyproject.toml").read_text()   # the one place: pyproject reads __version__
    assert 'dynamic = ["version"]' in pyproject and 'version = {attr = "inductor_prof.__version__"}' in pyproject


def test_doctor_json_on_this_cpu_machine(tmp_path):
    _cpu_only()
    ncu = _fake_ncu(tmp_path, NCU_VERSION)
    r = runner.invoke(app, ["doctor", "--json", "--out", str(tmp_path / "runs" / "x")],
                      env={"INDUCTOR_PROF_NCU": ncu})
    assert r.exit_code == 1, r.output           # no GPU: profile --ncu would fail
    obj = json.loads(r.output)
    assert set(obj) == {"inductor_prof", "python", "profile_ncu_ready", "checks"}
    assert obj["inductor_prof"] == __version__ and obj["profile_ncu_ready"] is False
    rows = {c["name"]: c for c in obj["checks"]}
    assert [c["name"] for c in obj["checks"]] == ROWS
    assert all(set(c) == {"name", "status", "detail", "remedy"} for c in obj["checks"])
    assert rows["GPU and driver"]["status"] == "fail" and rows["GPU and driver"]["detail"].startswith(
        "no CUDA GPU visible")
    assert rows["torch"] == {"name": "torch", "status": "ok", "detail": md.version("torch"), "remedy": ""}
    assert f"torch {md.version('torch')}" in rows["CUDA runtime"]["detail"]   # what the child process found
    assert rows["triton"]["detail"] == md.version("triton")
    for name in ("Proton", "Inductor -> Triton", "cuDNN SDPA", "ncu counters"):
        assert rows[name]["status"] == "skip" and rows[name]["detail"] == "needs a CUDA GPU"
    assert rows["ncu"] == {"name": "ncu", "status": "ok", "remedy": "",
                           "detail": f"{ncu}, version 2025.3.1.0 (from INDUCTOR_PROF_NCU)"}
    assert rows["sudo -n"]["status"] == "skip"
    assert f"free at {tmp_path}" in rows["disk"]["detail"]   # the nearest folder that exists


def test_doctor_table_names_what_fails(tmp_path):
    _cpu_only()
    ncu = _fake_ncu(tmp_path, NCU_VERSION)
    r = runner.invoke(app, ["doctor", "--ncu-path", ncu], env={"COLUMNS": "200"})
    assert r.exit_code == 1
    for name in ROWS:
        assert name in r.output
    assert r.output.rstrip().splitlines()[-1] == "profile --ncu would fail: GPU and driver"


def test_ncu_found_says_how(tmp_path, monkeypatch):
    ncu = _fake_ncu(tmp_path, NCU_VERSION, name="ncu")
    settings, origin = resolve({"ncu": ncu}, env={}, cwd=tmp_path)
    assert host.ncu_found(settings, origin)[0].detail == f"{ncu}, version 2025.3.1.0 (from --ncu-path)"
    (tmp_path / "inductor-prof.toml").write_text(f"ncu = {ncu!r}\n")
    settings, origin = resolve({}, env={}, cwd=tmp_path)
    row, path = host.ncu_found(settings, origin, cwd=tmp_path)
    assert row.detail == f"{ncu}, version 2025.3.1.0 (from the settings file {tmp_path / 'inductor-prof.toml'})"
    assert path == ncu
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert host.ncu_found(Settings(), {})[0].detail == f"{ncu}, version 2025.3.1.0 (found on PATH)"


def test_ncu_that_does_not_run(tmp_path):
    ncu = _fake_ncu(tmp_path, "print('libcupti.so: cannot open shared object file', file=sys.stderr); sys.exit(127)")
    row, path = host.ncu_found(Settings(ncu=ncu), {"ncu": "cli"})
    assert (row.status, path) == ("fail", None)
    assert row.detail == (f"{ncu} (from --ncu-path) does not run: ncu --version: exit 127: "
                          "libcupti.so: cannot open shared object file")


def test_a_program_that_is_not_ncu_is_not_ok(tmp_path):
    # INDUCTOR_PROF_NCU pointed at nsys (or any program that takes --version): doctor said "ok", profile --ncu
    # then failed on every kernel
    nsys = _fake_ncu(tmp_path, "print('NVIDIA Nsight Systems version 2025.1.1.110-251135427971v0')", name="nsys")
    row, path = host.ncu_found(Settings(ncu=nsys), {"ncu": "cli"})
    assert (row.status, path) == ("fail", None)
    assert row.detail == (f"{nsys} (from --ncu-path) is not Nsight Compute's ncu: --version printed "
                          "'NVIDIA Nsight Systems version 2025.1.1.110-251135427971v0'")


def test_configured_ncu_that_is_a_folder_or_not_executable(tmp_path):
    plain = tmp_path / "ncu"
    plain.write_text("")
    for given, what in [(tmp_path, "a folder"), (plain, "not executable")]:
        row, path = host.ncu_found(Settings(ncu=str(given)), {"ncu": "env INDUCTOR_PROF_NCU"})
        assert (row.status, path) == ("fail", None)
        assert row.detail == f"{str(given)!r} (from INDUCTOR_PROF_NCU) is {what}"
        assert row.remedy == "give the ncu executable itself (e.g. /usr/local/cuda/bin/ncu)"


def test_ncu_missing(tmp_path):
    row, path = host.ncu_found(Settings(ncu=str(tmp_path / "nope")), {"ncu": "env INDUCTOR_PROF_NCU"})
    assert row.status == "fail" and path is None
    assert row.detail == f"not found at {str(tmp_path / 'nope')!r} (from INDUCTOR_PROF_NCU)"


def test_counters_permission_error_gives_the_remedies(tmp_path):
    ncu = _fake_ncu(tmp_path, "print('==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                              "NVIDIA GPU Performance Counters on the target device 0.'); sys.exit(1)")
    row = host.ncu_counters(Settings(), ncu, tmp_path)
    assert row == Check("ncu counters", "fail", "ncu on a tiny kernel: ERR_NVGPUCTRPERM", command.PERMISSION_HELP)


def test_counters_read_from_the_report(tmp_path):
    # the fake ncu checks it was asked to replay the probe kernel, then leaves a real recorded report:
    # triton_poi_fused_add_gelu_mul_0 on an H100, 42,336 ns, DRAM 67,121,408 + 46,897,664 = 114,019,072 bytes
    report = data_path("triton_poi_fused_add_gelu_mul_0.ncu-rep")
    ncu = _fake_ncu(tmp_path, (
        "assert args[args.index('-k') + 1] == 'regex:^inductor_prof_doctor_add_one$', args\n"
        "assert args[-3:-1] == ['-m', 'inductor_prof.worker'], args\n"
        "spec = json.load(open(json.load(open(args[-1]))['specs'][0]))\n"
        "assert spec['name'] == 'inductor_prof_doctor_add_one' and spec['file'].endswith('probe_kernel.py'), spec\n"
        f"shutil.copy({str(report)!r}, args[args.index('-o') + 1] + '.ncu-rep')"))
    row = host.ncu_counters(Settings(), ncu, tmp_path)
    assert row == Check("ncu counters", "ok", "ncu profiled a tiny Triton kernel: 42.3 µs, DRAM 114.0 MB")


def test_counters_failure_is_said(tmp_path):
    ncu = _fake_ncu(tmp_path, "print('==ERROR== The application returned an error code (11).'); sys.exit(11)")
    row = host.ncu_counters(Settings(), ncu, tmp_path)
    assert row.status == "fail" and row.detail == (
        "ncu on a tiny kernel: failed: exit 11: ==ERROR== The application returned an error code (11).")


def test_sudo_that_asks_for_a_password(tmp_path):
    sudo = _fake_ncu(tmp_path, "print('sudo: a password is required', file=sys.stderr); sys.exit(1)", name="sudo")
    row = host.sudo_usable(Settings(sudo=True, sudo_path=sudo))
    assert row == Check("sudo -n", "fail", f"{sudo} -n asked for a password", command.SUDO_PASSWORD_HELP)
    counters = host.ncu_counters(Settings(sudo=True, sudo_path=sudo), "ncu", tmp_path)   # ncu runs through it
    assert counters == Check("ncu counters", "fail", "ncu through `sudo -n`: sudo asked for a password",
                             command.SUDO_PASSWORD_HELP)


def test_sudo_without_password_and_not_configured(tmp_path):
    sudo = _fake_ncu(tmp_path, "assert args == ['-n', 'env', 'true'], args", name="sudo")
    assert host.sudo_usable(Settings(sudo=True, sudo_path=sudo)).status == "ok"
    assert host.sudo_usable(Settings(sudo=False, sudo_path=sudo)).status == "skip"


def test_free_disk_thresholds(tmp_path):
    st = os.statvfs(tmp_path)
    free = f"{st.f_bavail * st.f_frsize / 2**30:.1f} GiB free at {tmp_path}"
    assert host.free_disk(tmp_path / "new" / "run", fail_gib=0, warn_gib=0) == Check("disk", "ok", free)
    assert host.free_disk(tmp_path, fail_gib=0, warn_gib=1e9).status == "warn"
    row = host.free_disk(tmp_path, fail_gib=1e9, warn_gib=2e9)
    assert row.status == "fail" and row.detail == free and "1e+09 GiB" in row.remedy


def test_child_that_hangs_is_ended_in_time(tmp_path):
    t0 = time.perf_counter()
    done = procs.run_worker(DoctorProbeSpec(probe="cuda"), None, 1,
                            program=[sys.executable, "-c", "import time; time.sleep(60)"])
    assert gpu.found(done) == {"error": "no answer after 1 s (hung; ended)"} and time.perf_counter() - t0 < 10


def test_child_that_crashes_is_named(tmp_path):
    crash = "import os, signal; print('loading the driver'); os.kill(os.getpid(), signal.SIGSEGV)"
    done = procs.run_worker(DoctorProbeSpec(probe="cuda"), None, 30, program=[sys.executable, "-c", crash])
    assert gpu.found(done) == {"error": "killed by SIGSEGV: loading the driver"}


def test_a_probe_that_raises_finds_its_error_and_one_that_answers_its_finding(tmp_path, monkeypatch):
    monkeypatch.setitem(gpu.PROBES, "cuda", lambda work: {"available": False, "work": str(work)})
    assert gpu.work(DoctorProbeSpec(probe="cuda", work=str(tmp_path)), None) == {"available": False,
                                                                               "work": str(tmp_path)}
    monkeypatch.setitem(gpu.PROBES, "cuda", lambda work: 1 / 0)
    assert gpu.work(DoctorProbeSpec(probe="cuda"), None) == {"error": "ZeroDivisionError: division by zero"}


H100 = {"torch": "2.11.0+cu130", "torch_cuda": "13.0", "available": True, "warnings": [], "count": 1,
        "device": "NVIDIA H100 80GB HBM3", "capability": "9.0", "memory_gib": 79.2, "kernel_ran": True}


def test_rows_on_a_gpu():
    assert gpu_rows.gpu_and_driver(H100, "580.159.04").detail == (
        "NVIDIA H100 80GB HBM3 (sm 9.0, 79.2 GiB; 1 visible), driver 580.159.04")
    assert gpu_rows.cuda_runtime(H100, "580.159.04") == Check("CUDA runtime", "ok",
                                                              "CUDA 13.0 (torch 2.11.0+cu130); a kernel ran")
    assert gpu_rows.proton({"kernel": "k", "calls": 1, "time_ns": 3250.0}).detail == (
        "a session recorded a tiny Triton kernel (1 launch, 3.2 µs)")
    assert gpu_rows.inductor({"triton_kernels": 2, "seconds": 4.5, "matches_eager": True}).detail == (
        "compiled a tiny function into 2 Triton kernel(s) in 4.5 s; result matches eager")
    assert gpu_rows.inductor({"triton_kernels": 0, "seconds": 4.5, "matches_eager": True}).status == "fail"
    assert gpu_rows.cudnn_sdpa({"error": "RuntimeError: No available kernel"}).status == "warn"


def test_rows_when_torch_cannot_use_the_driver():
    old = {**H100, "available": False, "kernel_ran": None,
           "warnings": ["CUDA initialization: The NVIDIA driver on your system is too old (found version 12020)."]}
    row = gpu_rows.cuda_runtime(old, "535.54")
    assert row.status == "fail" and row.detail == (
        "CUDA 13.0 (torch 2.11.0+cu130) cannot use driver 535.54 (torch: CUDA initialization: The NVIDIA driver "
        "on your system is too old (found version 12020).)")
    assert "CUDA 13.0" in row.remedy
    cpu_torch = {"torch": "2.13.0+cpu", "torch_cuda": None, "available": False, "warnings": []}
    assert gpu_rows.cuda_runtime(cpu_torch, "580.159.04").status == "fail"   # a GPU machine with CPU torch
    assert gpu_rows.cuda_runtime(cpu_torch, None).status == "skip"           # right on a CPU machine
    assert gpu_rows.gpu_and_driver({"error": "no answer after 180 s (hung; ended)"}, None).status == "fail"


PROBE = ("from inductor_prof.doctor import probe_kernel as p\n"
         "args = p.get_args('cpu'); p.call(args)\n"
         "assert (args[1] == args[0] + 1).all() and len(args[1]) == p.N\n")
isolated.prefetch({"TRITON_INTERPRET": "1"}, PROBE)     # run while the tests before this module run


def test_probe_kernel_adds_one_under_the_interpreter():
    proc = isolated.run({"TRITON_INTERPRET": "1"}, PROBE)
    assert proc.returncode == 0, proc.stderr
