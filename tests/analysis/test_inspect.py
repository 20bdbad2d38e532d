"""One kernel's view (analysis/inspect.py): the ceiling's rate, the command that records what is missing, and the
view of a kernel whose source pass failed."""
import json

from recorded import RMS_KERNEL, source_run
from inductor_prof.analysis import load_run_tables
from inductor_prof.analysis.inspect import ceiling_rate, collect_command, inspect, inspected

PEAKS = {"dram_gbps": 3264.0, "l2_gbps": 4626.0, "tflops": {"flops16": 757.0}}


def test_ceiling_rate_is_the_roof_the_report_judged_by():
    assert ceiling_rate({"bound": "memory", "ceiling": "DRAM (measured)"}, PEAKS) == (3264.0, "GB/s")
    assert ceiling_rate({"bound": "memory", "ceiling": "L2 (measured)"}, PEAKS) == (4626.0, "GB/s")
    assert ceiling_rate({"bound": "compute", "flops_key": "flops16"}, PEAKS) == (757.0, "TFLOP/s")
    assert ceiling_rate({"bound": ""}, PEAKS) == (None, "")


def test_collect_command_quotes_what_the_shell_would_split():
    assert collect_command("runs/my run", "k<a,b>") == "inductor-prof ncu 'runs/my run' --source 'k<a,b>'"


def test_a_failed_source_pass_is_said_with_its_reason(tmp_path):
    run = source_run(tmp_path / "run")
    status_path = run / "ncu" / "source" / "status.json"
    status = json.loads(status_path.read_text())
    status[RMS_KERNEL].update(status="failed", reason="exit 1: ==ERROR== boom", report="")
    status_path.write_text(json.dumps(status))
    tables = load_run_tables(run)
    view = inspect(tables, RMS_KERNEL)
    assert view["source_counters"] == []
    assert view["missing"].startswith(f"no source counters for this kernel in {run} (the source pass failed: exit 1: "
                                      "==ERROR== boom); record them on the GPU machine: inductor-prof ncu ")
    assert inspected(tables) == ["nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"]


def test_source_text_from_the_run_where_the_report_has_none(tmp_path):
    """A report taken without --import-source names the kernel's file but holds no text: the run's file is shown."""
    from inductor_prof.analysis.inspect import source_view

    run = source_run(tmp_path / "run")
    tables = load_run_tables(run)
    records = [r for r in json.loads((run / "kernels" / "kernels.json").read_text()) if r["name"] == RMS_KERNEL]
    kernel_file = f"/tmp/flux-h100/kernels/{RMS_KERNEL}.py"
    counters = {"kernel": RMS_KERNEL, "function_pc": 0, "files": {kernel_file: "", "/x/standard.py": ""},
                "pcs": [{"offset": 0, "file": kernel_file, "line": 73, "sass": "NOP", "inst": 1, "samples": 1},
                        {"offset": 16, "file": "/x/standard.py", "line": 263, "sass": "NOP", "inst": 1, "samples": 1}]}
    rows = {r["label"]: r for r in source_view(tables, RMS_KERNEL, counters, records)["rows"]}
    assert rows["73"]["code"].startswith("tmp92 = tl.load(in_ptr5")
    assert rows["standard.py:263"]["code"] is None      # a helper's text is not in the run


# ---- mutation audit (issue 30): the view's plain values, source text at a file's edges, counters not read -------

def test_the_view_in_full_when_counters_were_not_read(tmp_path):
    import dataclasses

    import pandas as pd

    from inductor_prof.analysis.inspect import inspect_kernel

    run = source_run(tmp_path / "run")
    tables = load_run_tables(run)
    tables = dataclasses.replace(tables, warnings=["an earlier warning"])
    # counters handed in without the kernel's report: its view says so, after the run's own warnings
    view = inspect_kernel(tables, RMS_KERNEL, counters={})
    (sc,) = view["source_counters"]
    assert sc == {"stem": RMS_KERNEL, "report": str(run / "ncu" / "source" / f"{RMS_KERNEL}.ncu-rep"),
                  "error": "not read"}
    assert view["warnings"] == ["an earlier warning", f"{sc['report']}: not read"]
    assert view["missing"] is None and view["collect"] is None
    # numbers as plain Python values (numpy's are not JSON), the record's provenance
    assert type(view["step_ms"]) is float and type(view["roofline"]["pct_of_peak"]) is float
    record = next(r for r in json.loads((run / "kernels" / "kernels.json").read_text()) if r["name"] == RMS_KERNEL)
    assert view["provenance"] == record["provenance"]
    # the source sections' kernels: none in a table of no kernels
    assert inspected(dataclasses.replace(tables, kernels=pd.DataFrame())) == []


def test_source_text_at_the_files_edges(tmp_path):
    from inductor_prof.analysis.inspect import source_view

    run = source_run(tmp_path / "run")
    tables = load_run_tables(run)
    kernel_file = f"/tmp/x/{RMS_KERNEL}.py"
    # the report imported the kernel's text (3 lines): its first and last line shown, none for line 0 (unknown); no
    # record of the run is needed then
    counters = {"kernel": RMS_KERNEL, "function_pc": 0, "files": {kernel_file: "first\n  second\nlast  "},
                "pcs": [{"offset": 0, "file": kernel_file, "line": 1, "sass": "NOP", "inst": 3, "samples": 3},
                        {"offset": 16, "file": kernel_file, "line": 3, "sass": "NOP", "inst": 2, "samples": 2},
                        {"offset": 32, "file": kernel_file, "line": 0, "sass": "NOP", "inst": 1, "samples": 1}]}
    view = source_view(tables, RMS_KERNEL, counters, [])
    assert [(r["label"], r["code"]) for r in view["rows"]] == [("1", "first"), ("3", "last"), ("0", None)]
    assert not any("order" in r for r in view["rows"])
