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
