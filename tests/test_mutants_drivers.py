"""Issue 9, mutation audit of the drivers: the ncu command line (build_cmd, kernel_filter, program_env,
sudo_home_env, tail, python_program, run_one with fake executables), the ncu report reader (unit conversion of
`_action_metrics` on fake actions, the mangled-name lookup, `main` in-process on a recorded report, the error
path of `parse_reports`) and the torch.profiler trace (op_cost, attention_call, parse_trace on small
constructed Chrome traces). Every expected value is derived by hand in the comment beside it."""
import io
import json
import re
import signal
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from fakes import fake_exe
from recorded import data_path
from inductor_prof import procs
from inductor_prof.drivers.ncu import command
from inductor_prof.drivers.ncu import report as ncu_report
from inductor_prof.drivers.ncu.metrics import METRICS
from inductor_prof.drivers.torch_profiler.trace import attention_call, op_cost, parse_trace
from inductor_prof.errors import UserError
from inductor_prof.settings import Settings

REC = "triton_poi_fused_add_gelu_mul_0.ncu-rep"


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


def test_sudo_home_env_every_place_inside_home(tmp_path):
    import site

    h = tmp_path.resolve()
    env = command.sudo_home_env(tmp_path / "x" / "..")   # resolved: the '..' goes
    assert env == {"HOME": str(h), "XDG_CACHE_HOME": str(h / ".cache"), "XDG_CONFIG_HOME": str(h / ".config"),
                   "XDG_DATA_HOME": str(h / ".local" / "share"),
                   "CUDA_CACHE_PATH": str(h / ".nv" / "ComputeCache"), "TRITON_HOME": str(h),
                   "TORCH_HOME": str(h / ".cache" / "torch"), "HF_HOME": str(h / ".cache" / "huggingface"),
                   "PYTHONUSERBASE": site.getuserbase(), "PYTHONDONTWRITEBYTECODE": "1"}


def test_tail_last_four_nonblank_lines_capped():
    # 6 lines (one blank): the last 4 non-blank, joined by " | "
    assert procs.tail("a\nb\n\n \nc\nd\ne\nf\n") == "c | d | e | f"
    assert procs.tail("a\nb\nc", lines=2) == "b | c"
    # capped at 600 characters
    assert procs.tail("x" * 1000) == "x" * 600


def test_python_program_one_or_many_specs():
    assert command.python_program(Path("/s/a.json")) == [sys.executable, "-m", "inductor_prof.drivers.ncu.replay",
                                                          "/s/a.json"]
    assert command.python_program([Path("a"), Path("b")])[-2:] == ["a", "b"]


# ---- run_one with fake executables --------------------------------------------------------------------------

def _run_one(tmp_path, body, env=None, timeout=30.0, mark=None):
    exe = fake_exe(tmp_path, body)
    return command.run_one([exe], env or {}, timeout, tmp_path / "logs" / "log.txt", mark)


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
    r = _run_one(tmp_path, "time.sleep(20)", timeout=0.3)
    assert (r.status, r.kind) == ("timeout", "timeout")
    # 0.3 printed with :g
    assert r.reason == "no progress for 0.3 s (the ncu_timeout setting, per kernel): ncu ended"
    assert 0.3 <= r.seconds < 15


def test_run_one_progress_mark_resets_the_timeout(tmp_path):
    # 5 marked lines 0.15 s apart (~0.75 s in all) under a 0.4 s timeout: each mark restarts the clock, so
    # the run is not ended; without the mark the 0.4 s would be for the whole run
    body = "for i in range(5):\n    print('STEP', i, flush=True); time.sleep(0.15)"
    r = _run_one(tmp_path, body, timeout=0.4, mark="STEP")
    assert (r.status, r.reason) == ("ok", "")
    assert 0.75 <= r.seconds < 15


# ==== ncu report reader =====================================================================================

class _Metric:
    def __init__(self, value, unit):
        self.value, self.u = value, unit

    def as_double(self):
        return self.value

    def unit(self):
        return self.u


class _Action:
    def __init__(self, metrics, name="k"):
        self.m, self.nm = metrics, name   # raw name -> (value, unit)

    def metric_names(self):
        return list(self.m)

    def metric_by_name(self, raw):
        return _Metric(*self.m[raw])

    def name(self, *base):
        # "a[MANGLED]" for name(MANGLED), "a[None]" for name(None), "a" for name()
        return f"{self.nm}[{base[0]}]" if base else self.nm


def test_action_metrics_unit_factors():
    a = _Action({METRICS["duration_ns"]: (2.5, "usecond"),      # 2.5 us = 2500 ns
                 METRICS["dram_read_bytes"]: (3.0, "Mbyte"),     # 3 MB = 3,000,000 B (case folded)
                 METRICS["dram_write_bytes"]: (2.0, "KiByte"),   # 2 KiB = 2048 B
                 METRICS["l2_bytes"]: (7.0, "byte"),             # factor 1
                 METRICS["sol_memory_pct"]: (55.5, "%"),         # not scaled: % stays
                 METRICS["registers"]: (31.0, None),             # not scaled: no unit needed
                 "unrelated.metric": (9.0, "ns")})               # not asked for: dropped
    m = ncu_report._action_metrics(a)
    assert m == {"duration_ns": 2500.0, "dram_read_bytes": 3_000_000.0, "dram_write_bytes": 2048.0,
                 "l2_bytes": 7.0, "sol_memory_pct": 55.5, "registers": 31.0,
                 "dram_bytes": 3_002_048.0}                      # derive: read + write


def test_action_metrics_ms_and_gibyte():
    m = ncu_report._action_metrics(_Action({METRICS["duration_ns"]: (1.5, "msecond"),      # 1.5e6 ns
                                            METRICS["l1_bytes"]: (1.0, "GiByte")}))        # 2**30 B
    assert m == {"duration_ns": 1_500_000.0, "l1_bytes": float(2**30)}


@pytest.mark.parametrize("unit", ["furlong", None, ""])
def test_action_metrics_unknown_unit_of_scaled_metric_raises(unit):
    with pytest.raises(ValueError, match="unknown unit"):
        ncu_report._action_metrics(_Action({METRICS["duration_ns"]: (1.0, unit)}))


def _fake_ncu_report(monkeypatch, actions_per_range, with_mangled=True):
    loaded = []

    class Rng:
        def __init__(self, acts):
            self.acts = acts

        def num_actions(self):
            return len(self.acts)

        def action_by_idx(self, i):
            return self.acts[i]

    class Ctx:
        def num_ranges(self):
            return len(actions_per_range)

        def range_by_idx(self, r):
            return Rng(actions_per_range[r])

    def load_report(path):
        loaded.append(path)
        return Ctx()

    mod = SimpleNamespace(load_report=load_report)
    if with_mangled:
        mod.IAction = SimpleNamespace(NameBase_MANGLED="MANGLED")
    monkeypatch.setattr(ncu_report, "import_ncu_report", lambda: mod)
    return loaded


def test_parse_report_all_asks_for_mangled_names_in_order(monkeypatch):
    dur = METRICS["duration_ns"]
    loaded = _fake_ncu_report(monkeypatch, [[_Action({dur: (1.0, "ns")}, "a")],
                                            [_Action({dur: (2.0, "us")}, "b"), _Action({}, "c")]])
    out = ncu_report.parse_report_all(Path("/r/x.ncu-rep"))
    assert loaded == ["/r/x.ncu-rep"]
    # ranges then actions in order; name asked with ncu_report.IAction.NameBase_MANGLED; 2 us = 2000 ns
    assert out == [{"duration_ns": 1.0, "kernel": "a[MANGLED]"}, {"duration_ns": 2000.0, "kernel": "b[MANGLED]"},
                   {"kernel": "c[MANGLED]"}]
    assert ncu_report.parse_report(Path("p"), 1)["kernel"] == "b[MANGLED]"


def test_parse_report_all_without_name_base(monkeypatch):
    # an ncu_report without IAction.NameBase_MANGLED: action.name() with no argument
    _fake_ncu_report(monkeypatch, [[_Action({}, "a")]], with_mangled=False)
    assert ncu_report.parse_report_all(Path("p")) == [{"kernel": "a"}]


def test_main_error_is_type_and_first_line(monkeypatch):
    def load_report(path):
        raise ValueError("bad report\nsecond line")

    monkeypatch.setattr(ncu_report, "import_ncu_report", lambda: SimpleNamespace(load_report=load_report))
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    assert ncu_report.main(["report.py", "r1"]) == 0
    # one_line: "Type: message", first line only
    assert json.loads(buf.getvalue()) == {"r1": {"error": "ValueError: bad report"}}


def test_main_in_process_on_recorded_report(monkeypatch, tmp_path):
    rec = str(data_path(REC))
    missing = str(tmp_path / "missing.ncu-rep")
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buf)
    assert ncu_report.main(["report.py", rec, missing]) == 0
    out = json.loads(buf.getvalue())
    assert list(out) == [rec, missing]
    (m,) = out[rec]["results"]
    # the recorded values (tests/data/README.md): 42336 ns, 67,121,408 B read; 46,897,664 B written
    assert m["kernel"] == "triton_poi_fused_add_gelu_mul_0"
    assert m["duration_ns"] == 42336
    assert m["dram_bytes"] == 67_121_408 + 46_897_664
    # an unreadable report is that report's error (one line), not a crash
    assert set(out[missing]) == {"error"} and out[missing]["error"] and "\n" not in out[missing]["error"]


def test_parse_reports_empty_and_error_path(monkeypatch):
    from inductor_prof.procs import Finished

    assert ncu_report.parse_reports([]) == {}
    seen = {}

    def fake_run(cmd, env, timeout, **kw):
        seen["cmd"], seen["env"], seen["timeout"] = cmd, env, timeout
        return Finished(2, 0.1, "", "  " + "x" * 400 + "END\n")

    monkeypatch.setattr(ncu_report.procs, "run", fake_run)
    got = ncu_report.parse_reports([Path("/a.ncu-rep"), Path("/b.ncu-rep")])
    # how it ended, then the end of its stderr (procs.tail: the last lines, up to 600 characters)
    why = "report parser exit 2: " + "x" * 400 + "END"
    assert got == {"/a.ncu-rep": {"error": why}, "/b.ncu-rep": {"error": why}}
    assert seen["cmd"] == [sys.executable, "-m", "inductor_prof.drivers.ncu.report", "/a.ncu-rep", "/b.ncu-rep"]
    # the module's timeout, and the child environment (the package on PYTHONPATH)
    from inductor_prof.childenv import child_env
    assert seen["timeout"] == ncu_report.TIMEOUT_S and seen["env"] == child_env()


def test_parse_reports_ok_path_reads_stdout(monkeypatch):
    from inductor_prof.procs import Finished

    monkeypatch.setattr(ncu_report.procs, "run", lambda cmd, env, timeout, **kw: Finished(0, 0.1, '{"p": {"results": []}}'))
    assert ncu_report.parse_reports([Path("p")]) == {"p": {"results": []}}


# ==== torch.profiler trace: op_cost, attention_call ========================================================



def test_op_cost_private_mm_and_bare_name():
    # aten::_mm is a mm: 2*M*N*K = 2*2*4*3 = 48; bytes (6 + 12 + out 8) x 4 = 104
    want = {"flops_key": "flops32", "flops": 48, "bytes": 104, "dtype": "float32"}
    assert op_cost("aten::_mm", [[2, 3], [3, 4]], [F32, F32]) == want
    # the name after the last '::' counts (none at all: the whole name)
    assert op_cost("mm", [[2, 3], [3, 4]], [F32, F32]) == want
    assert op_cost("x::y::mm", [[2, 3], [3, 4]], [F32, F32]) == want


def test_op_cost_mm_uses_last_two_dims():
    # batched-looking [1, 2, 3] x [1, 3, 4]: M, K = 2, 3 and N = 4 from the last two dims -> 48 flops;
    # bytes (6 + 12 + out 8) x 2 B (bf16) = 52
    c = op_cost("aten::mm", [[1, 2, 3], [1, 3, 4]], [BF16, BF16])
    assert c == {"flops_key": "flops16", "flops": 48, "bytes": 52, "dtype": "bfloat16"}
    # addmm: mat1/mat2 are the 2nd and 3rd inputs; bias [4]: bytes (4 + 6 + 12 + 8) x 4 = 120
    c = op_cost("aten::addmm", [[4], [1, 2, 3], [1, 3, 4]], [F32, F32, F32])
    assert (c["flops"], c["bytes"]) == (48, 120)


def test_op_cost_linear_1d_input():
    # x [5] (one row, m = prod([]) = 1), w [3, 5]: 2*1*3*5 = 30 flops; bytes (5 + 15 + out 3) x 4 = 92
    c = op_cost("aten::linear", [[5], [3, 5]], [F32, F32])
    assert (c["flops"], c["bytes"]) == (30, 92)


def test_op_cost_unknown_op_with_three_4d_inputs_has_no_cost():
    c = op_cost("aten::add", [[1, 2, 3, 4]] * 3, [F32] * 3)
    assert c == {"flops_key": "", "flops": 0, "bytes": 0, "dtype": "float32"}


def test_attention_call_mask_position_past_the_args():
    # efficient attention: mask position 3; with only 3 args there is no mask (and no IndexError)
    op = "aten::_scaled_dot_product_efficient_attention"
    c = attention_call(op, [[1, 2, 8, 4], [1, 2, 6, 4], [1, 2, 6, 4]], [], [], "float32", "kern")
    assert c == {"op": op, "B": 1, "H": 2, "Hkv": 2, "Sq": 8, "Sk": 6, "D": 4, "dtype": "float32", "causal": False,
                 "mask": False, "scale": None, "layout": "", "kernel": "kern"}


def test_attention_call_layout_from_q_strides():
    op = "aten::_scaled_dot_product_flash_attention"
    q, k = [1, 2, 8, 4], [1, 2, 6, 4]
    # q bshd: strides (S*H*D, D, H*D, 1) = (64, 4, 8, 1): stride of S (8) > stride of H (4) -> bshd;
    # k given as bhsd (48, 24, 4, 1): only q's strides decide
    c = attention_call(op, [q, k, k], [[64, 4, 8, 1], [48, 24, 4, 1]], [], "bfloat16", "k")
    assert c["layout"] == "bshd"
    # H = 1: bshd strides (8, 4, 4, 1) have equal S and H strides -> not "S stride > H stride" -> bhsd
    c = attention_call(op, [[1, 1, 2, 4], [1, 1, 2, 4], [1, 1, 2, 4]], [[8, 4, 4, 1]], [], "bfloat16", "k")
    assert c["layout"] == "bhsd"


# ==== torch.profiler trace: parse_trace =====================================================================

COLUMNS = ["kernel", "op", "dims", "strides", "types", "scalars", "dur_ns", "flops_key", "flops", "bytes", "dtype"]


def _write(tmp_path, events, key="traceEvents"):
    p = tmp_path / "trace.json"
    p.write_text(json.dumps({key: events} if key else {}))
    return p


def _op(name, ts, dur=None, tid=1, **args):
    e = {"cat": "cpu_op", "name": name, "ts": ts, "tid": tid, "args": args}
    if dur is not None:
        e["dur"] = dur
    return e


def _rt(ts, corr, dur=None, tid=1, cat="cuda_runtime"):
    e = {"cat": cat, "name": "cudaLaunchKernel", "ts": ts, "tid": tid, "args": {"correlation": corr}}
    if dur is not None:
        e["dur"] = dur
    return e


def _k(name, corr, dur=None):
    e = {"cat": "kernel", "name": name, "ts": 1000, "args": {"correlation": corr}}
    if name is None:
        del e["name"]
    if dur is not None:
        e["dur"] = dur
    return e


def _ops_of(df):
    return dict(zip(df["kernel"], df["op"]))


def test_parse_trace_no_events_and_columns(tmp_path):
    for key in ("traceEvents", None):
        df, att = parse_trace(_write(tmp_path, [], key))
        assert list(df.columns) == COLUMNS and len(df) == 0 and att == []


def test_parse_trace_row_fields(tmp_path):
    mm = _op("aten::mm", 10, 100, **{"Input Dims": [[2, 3], [3, 4]], "Input type": [F32, F32],
                                     "Input Strides": [[3, 1], [4, 1]], "Concrete Inputs": ["", ""]})
    ev = [mm, _rt(20, 1, dur=5), _k("gemm", 1, dur=2.5),
          _k("triton_poi_x", 1, dur=9)]                     # Inductor kernels are skipped
    df, att = parse_trace(_write(tmp_path, ev))
    assert list(df.columns) == COLUMNS and att == []
    (row,) = df.to_dict("records")
    # the op's args serialised as JSON; 2.5 us = 2500 ns; mm cost: 48 flops, (6+12+8) x 4 = 104 B
    assert row == {"kernel": "gemm", "op": "aten::mm", "dims": "[[2, 3], [3, 4]]", "strides": "[[3, 1], [4, 1]]",
                   "types": '["float", "float"]', "scalars": '["", ""]', "dur_ns": 2500.0,
                   "flops_key": "flops32", "flops": 48, "bytes": 104, "dtype": "float32"}


def test_parse_trace_kernel_without_launch_or_name(tmp_path):
    # no runtime event with its correlation, no name, no dur: an empty row of zero cost
    df, _ = parse_trace(_write(tmp_path, [_op("aten::mm", 0, 10), _k(None, 99)]))
    (row,) = df.to_dict("records")
    assert row == {"kernel": "", "op": "", "dims": "[]", "strides": "[]", "types": "[]", "scalars": "[]",
                   "dur_ns": 0, "flops_key": "", "flops": 0, "bytes": 0, "dtype": ""}


def test_parse_trace_launch_on_thread_without_ops(tmp_path):
    # the launch's thread (tid 2) recorded no cpu_op: no op, and no failure
    df, _ = parse_trace(_write(tmp_path, [_op("aten::mm", 0, 100, tid=1), _rt(5, 1, dur=1, tid=2), _k("g", 1)]))
    assert _ops_of(df) == {"g": ""}


def test_parse_trace_op_args_missing(tmp_path):
    # an op with no args: its cost is op_cost's for no inputs (default dtype float32, no flops)
    df, _ = parse_trace(_write(tmp_path, [{"cat": "cpu_op", "name": "aten::mm", "ts": 0, "dur": 50, "tid": 1},
                                          _rt(5, 1, dur=1), _k("g", 1)]))
    (row,) = df.to_dict("records")
    assert (row["op"], row["dims"], row["dtype"], row["flops"]) == ("aten::mm", "[]", "float32", 0)


def test_parse_trace_enclosure_boundaries(tmp_path):
    ev = [
        # launch 1 at ts 100 with no dur: "start" starts exactly then and ends exactly then (ts == rt ts,
        # end == rt end): it encloses; "outer" too, but "start" starts later, so it is innermost
        _op("outer", 0, 1000), _op("start", 100, 0), _rt(100, 1), _k("k1", 1),
        # launch 2 at ts 200 lasting 10: "ends_early" (190..205) ends before the launch ends -> not enclosing
        _op("ends_early", 190, 15), _rt(200, 2, dur=10), _k("k2", 2),
        # launch 3 at ts 300.5, no dur: "nodur" (ts 300, no dur = ends at 300) does not enclose it
        _op("nodur", 300), _rt(300.5, 3), _k("k3", 3),
        # launch 4 through the driver API, at ts 400 lasting 10: "exact" ends at 410 = launch end -> encloses
        _op("exact", 395, 15), _rt(400, 4, dur=10, cat="cuda_driver"), _k("k4", 4),
    ]
    df, _ = parse_trace(_write(tmp_path, ev))
    assert _ops_of(df) == {"k1": "start", "k2": "outer", "k3": "outer", "k4": "exact"}


def test_parse_trace_first_op_is_found(tmp_path):
    # the enclosing op is the thread's first cpu_op (index 0 of the window)
    df, _ = parse_trace(_write(tmp_path, [_op("first", 0, 100), _op("short", 1, 1), _rt(50, 1, dur=1),
                                          _k("g", 1)]))
    assert _ops_of(df) == {"g": "first"}


def test_parse_trace_looks_back_200_ops_only(tmp_path):
    # 200 short ops start between the enclosing op and the launch: the window holds the 200 ops that start
    # last before the launch, so "outer" (201st back) is out of it
    ev = [_op("outer", 0, 10_000)] + [_op(f"s{i}", 1 + i, 0.5) for i in range(200)] + [_rt(500, 1, dur=1),
                                                                                       _k("g", 1)]
    df, _ = parse_trace(_write(tmp_path, ev))
    assert _ops_of(df) == {"g": ""}
    # 199 short ops: outer is the 200th back, inside the window
    ev = [_op("outer", 0, 10_000)] + [_op(f"s{i}", 1 + i, 0.5) for i in range(199)] + [_rt(500, 1, dur=1),
                                                                                       _k("g", 1)]
    df, _ = parse_trace(_write(tmp_path, ev))
    assert _ops_of(df) == {"g": "outer"}


def test_parse_trace_split_kernels_cost_to_longest(tmp_path):
    mm = _op("aten::mm", 0, 100, **{"Input Dims": [[2, 3], [3, 4]], "Input type": [F32, F32]})
    df, _ = parse_trace(_write(tmp_path, [mm, _rt(10, 1, dur=1), _k("splitk", 1, dur=3),
                                          _rt(20, 2, dur=1), _k("reduce", 2, dur=1)]))
    rows = {r["kernel"]: r for r in df.to_dict("records")}
    # the op's cost (48 flops, 104 B) once, on the longer kernel (3 us > 1 us)
    assert (rows["splitk"]["flops"], rows["splitk"]["bytes"], rows["splitk"]["flops_key"]) == (48, 104, "flops32")
    assert (rows["reduce"]["flops"], rows["reduce"]["bytes"], rows["reduce"]["flops_key"]) == (0, 0, "")
    assert rows["reduce"]["dur_ns"] == 1000.0 and rows["splitk"]["dur_ns"] == 3000.0


def test_parse_trace_attention_call_reads_scalars_and_strides(tmp_path):
    op = "aten::_scaled_dot_product_flash_attention"   # is_causal at position 4, scale at 6
    q = [1, 2, 8, 4]
    att_op = _op(op, 0, 100, **{"Input Dims": [q, q, q, [], [], [], []], "Input type": [BF16] * 3,
                                "Input Strides": [[64, 4, 8, 1], [64, 4, 8, 1], [64, 4, 8, 1]],
                                "Concrete Inputs": ["", "", "", "0.0", "True", "False", "0.5"]})
    df, att = parse_trace(_write(tmp_path, [att_op, _rt(10, 1, dur=1), _k("fa", 1, dur=1)]))
    # is_causal True: 4*B*H*D * kept pairs (row i keeps i+1 keys: 8*9/2 = 36) = 4*1*2*4*36 = 1152 flops
    # (dense would be 4*1*2*8*8*4 = 2048); bytes (3 x 64 in + 64 out) x 2 B = 512
    assert (df["flops"][0], df["bytes"][0], df["dtype"][0]) == (1152, 512, "bfloat16")
    assert att == [{"op": op, "B": 1, "H": 2, "Hkv": 2, "Sq": 8, "Sk": 8, "D": 4, "dtype": "bfloat16",
                    "causal": True, "mask": False, "scale": 0.5, "layout": "bshd", "kernel": "fa", "row": 0}]
