"""The source counter reader (drivers/ncu/source.py) on the recorded source reports (data/README.md): every
instruction of the kernel, its line, counters and launch statistics, checked against what ncu's own rules wrote
into the same report (its source markers, read in a child process through another ncu_report path)."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from recorded import NVJET_KERNEL, RMS_KERNEL, source_report
from inductor_prof.drivers.ncu.source import read_reports

# ncu's rule results of a report: its source markers, and the kernel's first instruction address
MARKERS = """
import json, sys, ncu_report
ctx = ncu_report.load_report(sys.argv[1])
a = ctx.range_by_idx(0).action_by_idx(0)
print(json.dumps({"first": a.metric_by_name("launch__function_pcs").as_uint64(0),
                  "markers": [dict(m) for m in a.source_markers()]}))
"""


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("src")
    paths = {k: source_report(k, folder / f"{k}.ncu-rep") for k in (RMS_KERNEL, NVJET_KERNEL)}
    read = read_reports(list(paths.values()))
    return {k: read[str(p)] for k, p in paths.items()}, paths


def _markers(path: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", MARKERS, str(path)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_every_instruction_of_the_triton_kernel_is_read(reports):
    rms = reports[0][RMS_KERNEL]
    assert rms["kernel"] == RMS_KERNEL
    pcs = rms["pcs"]
    assert len(pcs) == 401                     # 400 executed, one more sampled (past its EXIT)
    assert [p["offset"] for p in pcs] == sorted(p["offset"] for p in pcs) and pcs[0]["offset"] == 0
    assert sum(p["inst"] for p in pcs) == 71_995_392       # inst_executed over the kernel
    assert sum(p["samples"] for p in pcs) == 12_777        # smsp__pcsamp_sample_count over the kernel
    assert pcs[0] == {"offset": 0, "file": f"/tmp/flux-h100/kernels/{RMS_KERNEL}.py", "line": 22,
                      "sass": "LDC R1, c[0x0][0x28]", "inst": 110592.0, "samples": 41.0,
                      "stalls": {"dispatch_stall": 1.0, "no_instructions": 26.0, "not_selected": 14.0}}
    # the report imports the kernel's file and the Triton helper inlined into it (tl.sum's add)
    assert sorted(Path(f).name for f in rms["files"]) == ["standard.py", f"{RMS_KERNEL}.py"]
    assert rms["files"][f"/tmp/flux-h100/kernels/{RMS_KERNEL}.py"].splitlines()[72].strip().startswith(
        "tmp92 = tl.load(in_ptr5")                         # line 73


def test_launch_statistics(reports):
    rms, nvjet = reports[0][RMS_KERNEL]["launch"], reports[0][NVJET_KERNEL]["launch"]
    assert (rms["grid_x"], rms["block_x"], rms["registers"], rms["shared_dynamic_bytes"]) == (55296, 64, 48, 512)
    assert rms["occupancy_theoretical_pct"] == 62.5 and rms["limit_registers"] == 20
    assert (nvjet["grid_x"], nvjet["grid_y"], nvjet["block_x"], nvjet["cluster_x"]) == (2, 66, 384, 2)


def test_a_library_kernel_has_no_line_info(reports):
    nvjet = reports[0][NVJET_KERNEL]
    assert nvjet["files"] == {} and all(p["file"] is None and p["line"] is None for p in nvjet["pcs"])
    assert len(nvjet["pcs"]) == 1668 and sum(p["samples"] for p in nvjet["pcs"]) == 52_888


def test_stall_shares_and_lines_are_ncus_own(reports):
    """ncu's CPIStall rule marks the instructions holding the most stalls ("This line is responsible for 11.6% of
    all warp stalls. 90.5% of the stalls for this line are of type long_scoreboard.") and the source lines they
    belong to ("... a high number of warp stalls"): our samples, reason shares and lines agree."""
    read, paths = reports
    for kernel in (RMS_KERNEL, NVJET_KERNEL):
        got = read[kernel]
        marks = _markers(paths[kernel])
        by_offset = {p["offset"]: p for p in got["pcs"]}
        total = sum(p["samples"] for p in got["pcs"])
        checked, lines = 0, set()
        for m in marks["markers"]:
            hit = re.match(r"This line is responsible for ([\d.]+)% of all warp stalls\. ([\d.]+)% of the stalls "
                           r"for this line are of type (\w+)\.", m["message"])
            if hit and "source_address" in m:
                pc = by_offset[m["source_address"] - marks["first"]]
                assert round(100 * pc["samples"] / total, 1) == float(hit.group(1))
                assert round(100 * pc["stalls"][hit.group(3)] / pc["samples"], 1) == float(hit.group(2))
                lines.add(pc["line"])
                checked += 1
        assert checked >= 1
        said = {m["source_location"]["line"] for m in marks["markers"]
                if "source_location" in m and "high number of warp stalls" in m["message"]}
        assert lines == (said or {None})   # nvjet: no line info, so ncu names no line
    assert {p["line"] for p in read[RMS_KERNEL]["pcs"] if p["samples"] in (1479, 1734)} == {72, 73}


def test_an_unreadable_report_is_its_error(tmp_path):
    bad = tmp_path / "bad.ncu-rep"
    bad.write_bytes(b"not a report")
    assert set(read_reports([bad])[str(bad)]) == {"error"}
