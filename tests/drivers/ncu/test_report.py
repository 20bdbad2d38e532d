"""The ncu report reader (drivers/ncu/report.py): unit conversion of each metric on fake actions, the mangled names
asked in order, the in-process reader on the recorded report and its errors (pinned where a mutation audit found
them unpinned)."""
from pathlib import Path
from types import SimpleNamespace
import pytest
from recorded import data_path
from inductor_prof import procs
from inductor_prof.specs import ReportReadSpec
from inductor_prof.drivers.ncu import report as ncu_report, report_process
from inductor_prof.drivers.ncu.metrics import METRICS


REC = "triton_poi_fused_add_gelu_mul_0.ncu-rep"


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
        self.asked = []

    def metric_names(self):
        return list(self.m)

    def metric_by_name(self, raw):
        self.asked.append(raw)
        return _Metric(*self.m[raw])

    def name(self, *base):
        # "a[MANGLED]" for name(MANGLED), "a[None]" for name(None), "a" for name()
        return f"{self.nm}[{base[0]}]" if base else self.nm


def test_each_kernels_metrics_unit_factors(monkeypatch):
    a = _Action({METRICS["duration_ns"]: (2.5, "usecond"),      # 2.5 us = 2500 ns
                 METRICS["dram_read_bytes"]: (3.0, "Mbyte"),     # 3 MB = 3,000,000 B (case folded)
                 METRICS["dram_write_bytes"]: (2.0, "KiByte"),   # 2 KiB = 2048 B
                 METRICS["l2_bytes"]: (7.0, "byte"),             # factor 1
                 METRICS["sol_memory_pct"]: (55.5, "%"),         # not scaled: % stays
                 METRICS["registers"]: (31.0, None),             # not scaled: no unit needed
                 "unrelated.metric": (9.0, "ns")})               # not asked for: never read
    b = _Action({METRICS["duration_ns"]: (1.5, "msecond"),      # 1.5e6 ns
                 METRICS["l1_bytes"]: (1.0, "GiByte")}, "b")     # 2**30 B
    _fake_ncu_report(monkeypatch, [[a, b]])
    assert ncu_report.parse_report_all(Path("r")) == [
        {"duration_ns": 2500.0, "dram_read_bytes": 3_000_000.0, "dram_write_bytes": 2048.0, "l2_bytes": 7.0,
         "sol_memory_pct": 55.5, "registers": 31.0, "dram_bytes": 3_002_048.0,   # derive: read + write
         "kernel": "k[MANGLED]"},
        {"duration_ns": 1_500_000.0, "l1_bytes": float(2**30), "kernel": "b[MANGLED]"}]
    # only the metrics asked for are read, in the table's order
    assert a.asked == [METRICS[k] for k in ("duration_ns", "dram_read_bytes", "dram_write_bytes", "l2_bytes",
                                            "sol_memory_pct", "registers")]


@pytest.mark.parametrize("unit", ["furlong", None, ""])
def test_unknown_unit_of_a_scaled_metric_raises(monkeypatch, unit):
    _fake_ncu_report(monkeypatch, [[_Action({METRICS["duration_ns"]: (1.0, unit)})]])
    with pytest.raises(ValueError, match=f"^ncu reported gpu__time_duration.sum in unknown unit {unit!r}$"):
        ncu_report.parse_report_all(Path("r"))


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


def test_a_report_that_cannot_be_read_is_its_error_type_and_first_line(monkeypatch):
    def load_report(path):
        raise ValueError("bad report\nsecond line")

    monkeypatch.setattr(ncu_report, "import_ncu_report", lambda: SimpleNamespace(load_report=load_report))
    got = report_process.work(ReportReadSpec(reader="metrics", paths=["r1"]), None)
    # one_line: "Type: message", first line only
    assert got == {"r1": {"error": "ValueError: bad report"}}


def test_the_worker_side_on_a_recorded_report(tmp_path):
    rec = str(data_path(REC))
    missing = str(tmp_path / "missing.ncu-rep")
    out = report_process.work(ReportReadSpec(reader="metrics", paths=[rec, missing]), None)
    assert list(out) == [rec, missing]
    (m,) = out[rec]["results"]
    # the recorded values (tests/data/README.md): 42336 ns, 67,121,408 B read; 46,897,664 B written
    assert m["kernel"] == "triton_poi_fused_add_gelu_mul_0"
    assert m["duration_ns"] == 42336
    assert m["dram_bytes"] == 67_121_408 + 46_897_664
    # an unreadable report is that report's error (one line), not a crash
    assert set(out[missing]) == {"error"} and out[missing]["error"] and "\n" not in out[missing]["error"]


def _outcome(rc, events, end=""):
    return procs.WorkerOutcome(procs.Finished(rc, 0.1, end), None, events)


def test_parse_reports_empty_and_error_path(monkeypatch):
    assert ncu_report.parse_reports([]) == {}
    seen = {}

    def fake_run(spec, log, timeout, **kw):
        seen["spec"], seen["timeout"] = spec, timeout
        return _outcome(2, [], "  " + "x" * 400 + "END\n")

    monkeypatch.setattr(procs, "run_worker", fake_run)
    got = ncu_report.parse_reports([Path("/a.ncu-rep"), Path("/b.ncu-rep")])
    # how it ended, then the end of its output (procs.tail: the last lines, up to 600 characters)
    why = "report parser exit 2: " + "x" * 400 + "END"
    assert got == {"/a.ncu-rep": {"error": why}, "/b.ncu-rep": {"error": why}}
    assert (seen["spec"].reader, seen["spec"].paths) == ("metrics", ["/a.ncu-rep", "/b.ncu-rep"])
    assert seen["timeout"] == report_process.TIMEOUT_S


def test_parse_reports_ok_path_reads_the_result(monkeypatch):
    monkeypatch.setattr(procs, "run_worker", lambda spec, log, timeout, **kw: _outcome(
        0, [{"event": "result", "value": {"p": {"results": []}}}]))
    assert ncu_report.parse_reports([Path("p")]) == {"p": {"results": []}}


def test_the_reader_runs_in_a_real_worker(tmp_path):
    # the real worker, on a file that is not a report: its entry comes back as the worker's result (what this
    # machine's ncu_report makes of it, or its error), never a failed worker
    bad = tmp_path / "bad.ncu-rep"
    bad.write_text("not a report")
    got = ncu_report.parse_reports([bad])
    assert set(got) == {str(bad)} and len(got[str(bad)]) == 1 and set(got[str(bad)]) <= {"results", "error"}
    assert not str(got[str(bad)].get("error", "")).startswith("report parser")
