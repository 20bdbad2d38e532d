"""ncu driver: command construction, parsing a real report, fake ncu executables (ok, permission, crash, hang)."""
from pathlib import Path

import pandas as pd
import pytest

from fakes import fake_exe as _fake_ncu
from recorded import REPO, data_path
from inductor_prof.childenv import child_env
from inductor_prof.drivers.ncu import command, metrics
from inductor_prof.drivers.ncu import report as ncu_report
from inductor_prof.errors import UserError
from inductor_prof.drivers.ncu.locate import find_ncu
from inductor_prof.settings import Settings, resolve


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
    assert set(metrics.METRICS) <= set(m)
    assert 0 < m["sol_memory_pct"] <= 100 and m["flops"] > 0 and m["local_bytes"] == 0


def _run(tmp_path, body, timeout=30):
    exe = _fake_ncu(tmp_path, body)
    cmd = command.build_cmd(Settings(), exe, "k", tmp_path / "out", ["prog"], {})
    return command.run_one(cmd, {}, timeout, tmp_path / "log.txt")


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
    r = _run(tmp_path, "time.sleep(60)", timeout=1)
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


def test_batches_keep_origins_apart_and_results_map_in_launch_order():
    from inductor_prof.drivers.ncu.batch import NcuTarget, assign_results, batches

    def t(stem, name, origin="inductor"):
        return NcuTarget(name, stem, origin, {"name": name})
    todo = [t("a", "k_a"), t("s1", "silu"), t("s2", "silu"), t("lib", "nvjet", "library")]
    got_batches = batches(todo, 2)
    assert [[x.stem for x in b] for b in got_batches] == [["a", "s1"], ["s2"], ["lib"]]
    batch = todo[:3]
    # two kernels share a name: each takes its own result, in order; a skipped kernel gets the runner's reason
    got = assign_results(batch, ["k_a", "silu", "silu"], "")
    assert got == {"a": (0, ""), "s1": (1, ""), "s2": (2, "")}
    got = assign_results(batch, ["silu"], "ncu_runner: skipped k_a: ImportError: no module\n")
    assert got["a"] == (None, "ImportError: no module") and got["s1"] == (0, "") and got["s2"][0] is None


def test_run_ncu_batch_maps_results_and_writes_table(tmp_path, monkeypatch):
    """run_ncu end to end with a fake ncu that writes a real batch report (8 library kernels, recorded on the
    H100): one process for the batch, each kernel mapped to its own result, the table parsed from it."""
    from inductor_prof import rundir
    from inductor_prof.pipeline import ncu as ncu_stage

    report = REPO / "examples" / "runs" / "flux-h100" / "ncu" / \
        "batch-44e152832a.ncu-rep"
    names = [m["kernel"] for m in ncu_report.parse_report_all(report)]
    exe = _fake_ncu(tmp_path, f"shutil.copy({str(report)!r}, args[args.index('-o') + 1] + '.ncu-rep')\n"
                              "open(sys.argv[0] + '.calls', 'a').write('x')")
    run = rundir.RunDir(tmp_path / "run")
    (run.root).mkdir()
    targets = [ncu_stage.NcuTarget(n, f"k{i}", "library", {"type": "aten", "op": "aten::addmm"})
               for i, n in enumerate(names)]
    monkeypatch.setattr(ncu_stage, "targets", lambda run, *a: targets)
    summary = ncu_stage.run_ncu(run, Settings(ncu=exe, ncu_batch=12), log=lambda m: None)
    assert summary == {"kernels": 8, "skipped": 0, "tried": 8, "ok": 8, "failed": 0, "not_tried": 0, "stopped": ""}
    assert Path(exe + ".calls").read_text() == "x"          # one ncu process for the whole batch
    table = pd.read_csv(run.ncu_csv)
    assert list(table["name"]) == names and (table["status"] == "ok").all()
    expected = [m["duration_ns"] for m in ncu_report.parse_report_all(report)]
    assert list(table["duration_ns"]) == expected            # each kernel got its own result
    # a rerun resumes: nothing left to profile, ncu not started again
    assert ncu_stage.run_ncu(run, Settings(ncu=exe, ncu_batch=12), log=lambda m: None)["skipped"] == 8
    assert Path(exe + ".calls").read_text() == "x"
