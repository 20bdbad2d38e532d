"""ncu driver: command construction, parsing a real report, fake ncu executables (ok, permission, crash, hang)."""
import time
from pathlib import Path

import pandas as pd
import pytest

from fakes import HANG, HangClock, MarksClock, fake_exe as _fake_ncu
from recorded import REPO, data_path
from inductor_prof.childenv import child_env
from inductor_prof.drivers.ncu import command, metrics
from inductor_prof.drivers.ncu import report as ncu_report
from inductor_prof.errors import UserError
from inductor_prof.drivers.ncu.locate import find_ncu
from inductor_prof.settings import Settings, resolve
import re
import sys
from fakes import fake_exe
from inductor_prof.drivers.ncu.metrics import METRICS


def test_build_cmd_plain():
    cmd = command.build_cmd(Settings(), "/opt/ncu dir/ncu", "triton_poi_x_0", Path("/runs/my run/ncu/k"),
                        ["/venv/bin/python", "-m", "inductor_prof.drivers.ncu.replay", "/runs/my run/spec.json"], {})
    assert cmd[0] == "/opt/ncu dir/ncu"                       # a list: spaces need no quoting
    assert cmd[cmd.index("-k") + 1] == "regex:^triton_poi_x_0$"
    assert cmd[cmd.index("--clock-control") + 1] == "none"
    assert cmd[cmd.index("-o") + 1] == "/runs/my run/ncu/k"
    assert cmd[-1] == "/runs/my run/spec.json"
    assert "gpu__time_duration.sum" in cmd[cmd.index("--metrics") + 1]


def test_build_cmd_sudo_passes_environment():
    env = child_env({"TORCHINDUCTOR_CACHE_DIR": "/runs/a b/cache"}, keep=command.PASS_ENV,
                    source={"PATH": "/venv/bin:/usr/bin", "VIRTUAL_ENV": "/venv", "SECRET": "x"})
    s = Settings(sudo=True, sudo_path="/usr/bin/sudo", ncu_set="full", ncu_args=["--nvtx"])
    cmd = command.build_cmd(s, "/usr/local/cuda/bin/ncu", "k", Path("o"), ["python3", "prog"], env)
    assert cmd[:3] == ["/usr/bin/sudo", "-n", "env"]
    assert "PATH=/venv/bin:/usr/bin" in cmd and "VIRTUAL_ENV=/venv" in cmd
    assert "TORCHINDUCTOR_CACHE_DIR=/runs/a b/cache" in cmd
    assert not any(c.startswith("SECRET=") for c in cmd)
    assert cmd[cmd.index("--set") + 1] == "full" and "--metrics" not in cmd and "--nvtx" in cmd
    assert cmd.index("/usr/local/cuda/bin/ncu") > cmd.index("PATH=/venv/bin:/usr/bin")


def test_parse_real_report():
    m = ncu_report.parse_report(data_path("triton_poi_fused_add_gelu_mul_0.ncu-rep"))
    assert m["kernel"] == "triton_poi_fused_add_gelu_mul_0"
    assert m["duration_ns"] == 42336
    assert m["dram_read_bytes"] == 67_121_408 and m["dram_write_bytes"] == 46_897_664
    assert m["dram_bytes"] == 67_121_408 + 46_897_664
    assert m["registers"] == 31


def test_parse_flux_report_with_default_metrics():
    m = ncu_report.parse_report(data_path("flux_small", "ncu", "triton_poi_fused_gelu_view_12.ncu-rep"))
    # recorded before issue 53 asked for the stall counters: every other metric is there
    assert set(metrics.METRICS) - set(metrics.STALL_METRICS) <= set(m)
    assert 0 < m["sol_memory_pct"] <= 100 and m["flops"] > 0 and m["local_bytes"] == 0


def _run(tmp_path, body, timeout=30, clock=time.monotonic):
    exe = _fake_ncu(tmp_path, body)
    cmd = command.build_cmd(Settings(), exe, "k", tmp_path / "out", ["prog"], {})
    return command.run_one(cmd, {}, timeout, tmp_path / "log.txt", clock=clock)


def test_fake_ncu_success_writes_report(tmp_path):
    report = data_path("triton_poi_fused_add_gelu_mul_0.ncu-rep")
    body = f"shutil.copy({str(report)!r}, args[args.index('-o') + 1] + '.ncu-rep'); print('==PROF== done')"
    assert _run(tmp_path, body).status == "ok"
    assert ncu_report.parse_report(tmp_path / "out.ncu-rep")["duration_ns"] == 42336


def test_fake_ncu_permission_error(tmp_path):
    body = ("print('==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
            "Performance Counters on the target device 0.'); sys.exit(1)")
    with pytest.raises(command.NcuPermissionError) as e:
        _run(tmp_path, body)
    assert "--sudo" in str(e.value) and "NVreg_RestrictProfilingToAdminUsers=0" in str(e.value)
    assert "SYS_ADMIN" in str(e.value)


def test_fake_ncu_crash_is_recorded(tmp_path):
    r = _run(tmp_path, "print('==ERROR== The application returned an error code (11).'); sys.exit(11)")
    assert r.status == "failed" and "exit 11" in r.reason and "error code (11)" in r.reason


def test_fake_ncu_hang_times_out(tmp_path):
    r = _run(tmp_path, HANG, timeout=1, clock=HangClock(str(tmp_path / "fake ncu"), step=0.4))
    assert r.status == "timeout" and r.seconds < 10


def test_fake_sudo_password_prompt(tmp_path):
    sudo = _fake_ncu(tmp_path, "print('sudo: a password is required', file=sys.stderr); sys.exit(1)")
    cmd = command.build_cmd(Settings(sudo=True, sudo_path=sudo), "ncu", "k", tmp_path / "o", ["p"], {})
    with pytest.raises(UserError, match="sudo asked for a password"):
        command.run_one(cmd, {}, 30, tmp_path / "log.txt")


def test_settings_precedence(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.inductor-prof]\nncu = "/from/file"\nsudo = true\n'
                                             'ncu-timeout = 12\n')
    s, origin = resolve({}, env={}, cwd=tmp_path)
    assert (s.ncu, s.sudo, s.ncu_timeout) == ("/from/file", True, 12)
    s, origin = resolve({}, env={"INDUCTOR_PROF_NCU": "/from/env", "INDUCTOR_PROF_SUDO": "0"}, cwd=tmp_path)
    assert (s.ncu, s.sudo) == ("/from/env", False) and origin["ncu"] == "env INDUCTOR_PROF_NCU"
    s, origin = resolve({"ncu": "/from/cli", "sudo": None}, env={"INDUCTOR_PROF_NCU": "/from/env"}, cwd=tmp_path)
    assert s.ncu == "/from/cli" and origin["ncu"] == "cli" and s.sudo is True


def test_settings_errors(tmp_path):
    (tmp_path / "inductor-prof.toml").write_text('ncu_pth = "x"\n')
    with pytest.raises(UserError, match="unknown inductor-prof settings: ncu_pth"):
        resolve({}, env={}, cwd=tmp_path)
    with pytest.raises(UserError, match="not found at '/no/such/ncu'"):
        find_ncu("/no/such/ncu")


def test_kernel_filter_several_names_is_one_anchored_alternation():
    f = command.kernel_filter(["triton_b.x", "triton_a", "triton_a"])
    assert f == r"regex:^(triton_a|triton_b\.x)$"
    import re

    pattern = re.compile(f[len("regex:"):])
    assert pattern.match("triton_a") and pattern.match("triton_b.x") and not pattern.match("triton_a_2")


def test_batch_command_counts_every_kernel():
    cmd = command.build_cmd(Settings(), "ncu", ["k1", "k2", "k3"], Path("o"), ["prog"], {}, count=3)
    assert cmd[cmd.index("-c") + 1] == "3"


def test_batches_mix_origins_in_order_and_results_map_in_launch_order():
    from inductor_prof.drivers.ncu.batch import NcuTarget, assign_results, batches

    def t(stem, name, origin="inductor"):
        return NcuTarget(name, stem, origin, {"name": name})
    todo = [t("a", "k_a"), t("s1", "silu"), t("s2", "silu"), t("lib", "nvjet", "library")]
    got_batches = batches(todo, 2)
    # one process serves Inductor and library kernels alike: cut in the order given, at the batch size
    assert [[x.stem for x in b] for b in got_batches] == [["a", "s1"], ["s2", "lib"]]
    assert [[x.stem for x in b] for b in batches(todo, 64)] == [["a", "s1", "s2", "lib"]]
    batch = todo[:3]
    # two kernels share a name: each takes its own result, in order; a skipped kernel gets the runner's reason
    got = assign_results(batch, ["k_a", "silu", "silu"], "")
    assert got == {"a": (0, ""), "s1": (1, ""), "s2": (2, "")}
    got = assign_results(batch, ["silu"], "ncu_runner: skipped k_a: ImportError: no module\n")
    assert got["a"] == (None, "ImportError: no module") and got["s1"] == (0, "") and got["s2"][0] is None


def test_run_ncu_batch_maps_results_and_writes_table(tmp_path, monkeypatch):
    """run_ncu end to end with a fake ncu that writes a real batch report (the library batch recorded on the H100,
    2026-11-24: 12 results, one per replayed call; nvjet ..._192x192_... and ..._256x128_... three calls each, in
    the run's order): one process for the batch, each call mapped to its own result, the table parsed from it with
    the call it replayed (shape, model_us, model_bytes, rank: from its target's spec)."""
    import json

    from inductor_prof import rundir
    from inductor_prof.pipeline import ncu as ncu_stage

    recorded_run = REPO / "examples" / "runs" / "flux-h100" / "ncu"
    report = recorded_run / "batch-3b6c2492b6.ncu-rep"
    status = json.loads((recorded_run / "status.json").read_text())
    calls = sorted(((stem, e) for stem, e in status.items() if e["report"] == report.name),
                   key=lambda se: se[1]["index"])
    names = [m["kernel"] for m in ncu_report.parse_report_all(report)]
    assert len(calls) == len(names) == 12 and len(set(names)) == 8      # 8 kernels, 2 of them replayed 3 times
    assert [e["rank"] for _, e in calls] == [0, 1, 2, 0, 0, 1, 2, 0, 0, 0, 0, 0]
    exe = _fake_ncu(tmp_path, f"shutil.copy({str(report)!r}, args[args.index('-o') + 1] + '.ncu-rep')\n"
                              "open(sys.argv[0] + '.calls', 'a').write('x')")
    run = rundir.RunDir(tmp_path / "run")
    (run.root).mkdir()
    targets = [ncu_stage.NcuTarget(n, stem, "library", {"type": "aten", "op": "aten::addmm",
                                                         **{k: e[k] for k in ncu_stage.CALL_FIELDS}})
               for n, (stem, e) in zip(names, calls)]
    monkeypatch.setattr(ncu_stage, "targets", lambda run, *a: targets)
    summary = ncu_stage.run_ncu(run, Settings(ncu=exe, ncu_batch=12), log=lambda m: None)
    assert summary == {"kernels": 12, "skipped": 0, "tried": 12, "ok": 12, "failed": 0, "not_tried": 0,
                       "stopped": ""}
    assert Path(exe + ".calls").read_text() == "x"          # one ncu process for the whole batch
    table = pd.read_csv(run.ncu_csv)
    assert list(table["name"]) == names and (table["status"] == "ok").all()
    assert list(table["stem"]) == [stem for stem, _ in calls]
    expected = [m["duration_ns"] for m in ncu_report.parse_report_all(report)]
    # each call got its own result: e.g. nvjet ..._192x192_...'s three, 528608, 446592 and 117280 ns
    assert expected[:3] == [528608.0, 446592.0, 117280.0]
    assert list(table["duration_ns"]) == expected
    # the call each row replayed, as the recorded ncu.csv has it
    assert list(table["shape"]) == [e["shape"] for _, e in calls]
    assert table["shape"].iloc[0] == "[4608,15360]x[15360,3072]"
    assert list(table["rank"]) == [e["rank"] for _, e in calls]
    assert list(table["model_us"]) == pytest.approx([e["model_us"] for _, e in calls], rel=1e-12)
    assert list(table["model_bytes"]) == [e["model_bytes"] for _, e in calls]
    # a rerun resumes: nothing left to profile, ncu not started again
    assert ncu_stage.run_ncu(run, Settings(ncu=exe, ncu_batch=12), log=lambda m: None)["skipped"] == 12
    assert Path(exe + ".calls").read_text() == "x"


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

# ==== ncu command line ======================================================================================

def test_build_cmd_whole_default_list():
    # the full argument list with default settings, flag by flag; the metric list is METRICS' raw names in
    # table order joined by plain commas; count defaults to 1
    cmd = command.build_cmd(Settings(), "ncu", "k_0", Path("/r/out"), ["py", "prog"], {"A": "1"})
    assert cmd == ["ncu", "--target-processes", "all", "--clock-control", "none",
                   "--profile-from-start", "off", "--kernel-name-base", "mangled", "-k", "regex:^k_0$",
                   "-c", "1", "-f", "-o", "/r/out",
                   "--metrics", ",".join(METRICS.values()), "py", "prog"]   # env unused without sudo
    assert cmd[cmd.index("--metrics") + 1].split(",")[0] == "gpu__time_duration.sum"


def test_build_cmd_count_set_args_sudo_env_sorted():
    s = Settings(sudo=True, sudo_path="/s", ncu_set="full", ncu_args=["--a", "b"], clock_control="base")
    cmd = command.build_cmd(s, "ncu", ["k2", "k1"], Path("o"), ["p"], {"Z": "z", "A": "a b"}, count=2)
    # sudo prefix, then env VAR=value sorted by name (A before Z), then ncu; --set replaces --metrics;
    # extra args come before the program; count 2 -> "-c 2"
    assert cmd == ["/s", "-n", "env", "A=a b", "Z=z",
                   "ncu", "--target-processes", "all", "--clock-control", "base",
                   "--profile-from-start", "off", "--kernel-name-base", "mangled", "-k", "regex:^(k1|k2)$",
                   "-c", "2", "-f", "-o", "o", "--set", "full", "--a", "b", "p"]


def test_kernel_filter_escapes_sorts_dedups():
    # one name: anchored, regex metacharacters escaped ('.' -> '\.')
    assert command.kernel_filter("a.b") == r"regex:^a\.b$"
    # a one-element list is the single-name form; duplicates fold, order is sorted
    assert command.kernel_filter(["x"]) == "regex:^x$"
    assert command.kernel_filter(["b", "a+", "b"]) == r"regex:^(a\+|b)$"
    pat = command.kernel_filter(["k_1", "k_10"])[len("regex:"):]
    assert re.match(pat, "k_1") and re.match(pat, "k_10") and not re.match(pat, "k_100")


def test_replay_env_passes_only_listed_names(monkeypatch, tmp_path):
    # sudo resets the environment: the replay program gets PASS_ENV's names of ours, never the rest
    monkeypatch.setenv("HF_HOME", "/hf")
    monkeypatch.setenv("SECRET_TOKEN", "s")
    env = command.replay_env(tmp_path / "cache")
    assert env["HF_HOME"] == "/hf" and "SECRET_TOKEN" not in env
    assert env["TORCHINDUCTOR_COMPILE_THREADS"] == "1" and env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "cache")


def test_the_replay_compiles_with_the_ptxas_the_model_was_built_with(monkeypatch, tmp_path):
    # sudo resets the environment: the ptxas and libdevice paths Inductor (or the user) set pass through it
    monkeypatch.setenv("TRITON_PTXAS_PATH", "/torch/bin/ptxas")
    monkeypatch.setenv("TRITON_LIBDEVICE_PATH", "/cuda/libdevice.10.bc")
    env = command.replay_env(tmp_path / "cache")
    assert env["TRITON_PTXAS_PATH"] == "/torch/bin/ptxas" and env["TRITON_LIBDEVICE_PATH"] == "/cuda/libdevice.10.bc"
    monkeypatch.delenv("TRITON_PTXAS_PATH")
    assert "TRITON_PTXAS_PATH" not in command.replay_env(tmp_path / "cache")   # Triton's own, as the model's was


def test_sudo_home_env_every_place_inside_home(tmp_path):
    import site

    h = tmp_path.resolve()
    env = command.sudo_home_env(tmp_path / "x" / "..")   # resolved: the '..' goes
    assert env == {"HOME": str(h), "XDG_CACHE_HOME": str(h / ".cache"), "XDG_CONFIG_HOME": str(h / ".config"),
                   "XDG_DATA_HOME": str(h / ".local" / "share"),
                   "CUDA_CACHE_PATH": str(h / ".nv" / "ComputeCache"), "TRITON_HOME": str(h),
                   "TORCH_HOME": str(h / ".cache" / "torch"), "HF_HOME": str(h / ".cache" / "huggingface"),
                   "PYTHONUSERBASE": site.getuserbase(), "PYTHONDONTWRITEBYTECODE": "1"}


def test_python_program_one_or_many_specs():
    assert command.python_program(Path("/s/a.json")) == [sys.executable, "-m", "inductor_prof.drivers.ncu.replay",
                                                          "/s/a.json"]
    assert command.python_program([Path("a"), Path("b")])[-2:] == ["a", "b"]


# ---- run_one with fake executables --------------------------------------------------------------------------

def _run_one(tmp_path, body, env=None, timeout=30.0, mark=None, clock=time.monotonic):
    exe = fake_exe(tmp_path, body)
    return command.run_one([exe], env or {}, timeout, tmp_path / "logs" / "log.txt", mark, clock)


def test_run_one_ok(tmp_path):
    r = _run_one(tmp_path, "print('==PROF== done')")
    assert (r.status, r.reason, r.kind) == ("ok", "", "")
    assert isinstance(r.seconds, float) and 0 < r.seconds < 30


def test_run_one_failed_exit_with_tail_and_merged_env(tmp_path, monkeypatch):
    # the program sees os.environ plus env; its last 4 non-blank lines form the reason
    monkeypatch.setenv("IP_OUTER", "o")
    body = ("print('1'); print('2'); print('outer=' + os.environ['IP_OUTER']); "
            "print('inner=' + os.environ['IP_INNER']); print('\\xe9', flush=True); sys.exit(3)")
    r = _run_one(tmp_path, body, env={"IP_INNER": "i"})
    assert (r.status, r.kind) == ("failed", "exit 3")
    assert r.reason == "exit 3: 2 | outer=o | inner=i | \xe9"
    assert 0 < r.seconds < 30


def test_run_one_killed_by_signal(tmp_path):
    r = _run_one(tmp_path, "os.kill(os.getpid(), signal.SIGSEGV)")
    assert (r.status, r.kind) == ("failed", "killed by SIGSEGV")
    assert r.reason.startswith("killed by SIGSEGV: ")


def test_run_one_no_kernels_profiled(tmp_path):
    r = _run_one(tmp_path, "print('==WARNING== No kernels were profiled.')")
    assert (r.status, r.kind) == ("failed", "kernel not launched")
    assert r.reason == "kernel not launched: ==WARNING== No kernels were profiled."
    assert 0 < r.seconds < 30


def test_run_one_invalid_utf8_log_is_read(tmp_path):
    # errors="replace": a byte that is not UTF-8 becomes U+FFFD instead of failing the read
    r = _run_one(tmp_path, "sys.stdout.buffer.write(b'bad \\xff byte\\n'); sys.exit(2)")
    assert r.reason == "exit 2: bad \ufffd byte"


@pytest.mark.parametrize("line", ["sudo: a password is required", "sudo: a terminal is required to read"])
def test_run_one_sudo_prompt(tmp_path, line):
    with pytest.raises(UserError) as e:
        _run_one(tmp_path, f"print({line!r}); sys.exit(1)")
    assert str(e.value) == command.SUDO_PASSWORD_HELP
    assert not isinstance(e.value, command.NcuPermissionError)


def test_run_one_permission(tmp_path):
    with pytest.raises(command.NcuPermissionError) as e:
        _run_one(tmp_path, "print('==ERROR== ERR_NVGPUCTRPERM'); sys.exit(1)")
    assert str(e.value) == command.PERMISSION_HELP


def test_run_one_timeout(tmp_path):
    r = _run_one(tmp_path, HANG, timeout=0.3, clock=HangClock(str(tmp_path / "fake ncu"), step=0.2))
    assert (r.status, r.kind) == ("timeout", "timeout")
    # 0.3 printed with :g
    assert r.reason == "no progress for 0.3 s (the ncu_timeout setting, per kernel): ncu ended"
    assert 0.3 <= r.seconds < 15


def test_run_one_progress_mark_resets_the_timeout(tmp_path):
    # 5 marked lines 0.15 s apart by the clock (0.6 s from the first to the last) under a 0.4 s timeout: each mark
    # restarts the timeout (at most 0.15 + 0.1 s pass between two), so the run is not ended; without the mark
    # the 0.4 s would be for the whole run, ended before STEP 3
    go, log = tmp_path / "go", tmp_path / "logs" / "log.txt"
    body = f"for i in range(5):\n    while not os.path.exists(f'{go}.{{i}}'): time.sleep(0.005)\n" \
           "    print('STEP', i, flush=True)"
    r = _run_one(tmp_path, body, timeout=0.4, mark="STEP", clock=MarksClock(go, log, 5, "STEP", step=0.1, due=0.15))
    assert (r.status, r.reason) == ("ok", "")
    assert 0.6 <= r.seconds < 15


# ---- the source pass's command -------------------------------------------------------------------------------

def test_build_source_cmd_collects_the_source_sections_and_imports_the_source():
    program = ["/venv/bin/python", "-m", "inductor_prof.drivers.ncu.replay", "/runs/r/ncu/specs/k.json"]
    s = Settings(ncu_set="full", ncu_args=["--nvtx"])   # the metric pass's set does not apply here
    cmd = command.build_source_cmd(s, "/usr/local/cuda/bin/ncu", "triton_red_k_2", Path("/runs/r/ncu/source/.k.partial"),
                                   program, {})
    assert cmd == ["/usr/local/cuda/bin/ncu", "--target-processes", "all", "--clock-control", "none",
                   "--profile-from-start", "off", "--kernel-name-base", "mangled", "-k", "regex:^triton_red_k_2$",
                   "-c", "1", "-f", "-o", "/runs/r/ncu/source/.k.partial",
                   "--section", "SourceCounters", "--section", "WarpStateStats", "--section", "LaunchStats",
                   "--section", "Occupancy", "--import-source", "yes", "--nvtx", *program]


def test_build_source_cmd_under_sudo_passes_the_environment():
    s = Settings(sudo=True, sudo_path="/usr/bin/sudo", clock_control="base")
    cmd = command.build_source_cmd(s, "ncu", "k", Path("o"), ["python3", "prog"], {"PATH": "/venv/bin"})
    assert cmd[:4] == ["/usr/bin/sudo", "-n", "env", "PATH=/venv/bin"] and cmd[4] == "ncu"
    assert cmd[cmd.index("--clock-control") + 1] == "base" and cmd[-2:] == ["python3", "prog"]
