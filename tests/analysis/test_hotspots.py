"""Per line and per SASS region (analysis/hotspots.py): sums, shares, stall ranking and basic blocks on
instructions written here, then on the recorded source reports against values listed by hand."""
import pytest

from recorded import NVJET_KERNEL, RMS_KERNEL, source_report
from inductor_prof.analysis import hotspots as hs
from inductor_prof.drivers.ncu.source import read_reports


def pc(offset, file, line, sass, inst, samples, stalls=None, l2=None):
    rec = {"offset": offset, "file": file, "line": line, "sass": sass, "inst": inst, "samples": samples,
           "stalls": stalls or {}}
    if l2:
        rec["l2_sectors"], rec["l2_sectors_ideal"] = l2
    return rec


# 500 instructions and 100 samples in all
PCS = [
    pc(0, "/k/kern.py", 10, "LDG.E R1, desc[UR4][R2.64]", 100, 50, {"long_scoreboard": 40, "selected": 10},
       (400, 200)),
    pc(16, "/k/kern.py", 10, "FADD R1, R1, R1", 100, 10, {"wait": 10}),
    pc(32, "/k/kern.py", 11, "@P0 STG.E desc[UR4][R2.64], R1", 50, 30,
       {"wait": 20, "long_scoreboard": 5, "selected": 5}, (100, 100)),
    pc(48, "/lib/helper.py", 3, "FMUL R1, R1, R1", 250, 10, {"math_pipe_throttle": 10}),
]


def test_a_line_sums_its_instructions_and_takes_its_share_of_the_kernels():
    rows = hs.by_line(PCS, "/k/kern.py")
    assert [r["label"] for r in rows] == ["10", "11", "helper.py:3"]   # most samples first
    ten = rows[0]
    assert (ten["inst"], ten["samples"], ten["instructions"]) == (200, 60, 2)
    assert (ten["inst_pct"], ten["samples_pct"]) == (40.0, 60.0)        # of 500 instructions, of 100 samples
    assert ten["stalls"] == [{"reason": "long_scoreboard", "samples": 40}, {"reason": "wait", "samples": 10}]
    assert ten["issuing_samples"] == 10                                 # `selected`: issuing, not a stall
    assert (ten["global_loads"], ten["global_stores"]) == (100, 0)
    assert (ten["l2_bytes"], ten["l2_excess_pct"]) == (400 * 32, 50.0)  # 200 of its 400 sectors excess
    assert ten["hottest"] == {"offset": 0, "sass": "LDG.E R1, desc[UR4][R2.64]", "samples": 50}
    eleven = rows[1]
    assert (eleven["inst_pct"], eleven["samples_pct"], eleven["global_stores"]) == (10.0, 30.0, 50)
    assert eleven["stalls"] == [{"reason": "wait", "samples": 20}, {"reason": "long_scoreboard", "samples": 5}]
    assert (eleven["l2_bytes"], eleven["l2_excess_pct"]) == (3200, 0.0)
    helper = rows[2]
    assert (helper["inst_pct"], helper["samples_pct"], helper["kernel_file"]) == (50.0, 10.0, False)
    assert helper["l2_excess_pct"] is None and [r["rank"] for r in rows] == [1, 2, 3]


def test_rows_tie_on_samples_rank_by_instructions_then_by_place():
    pcs = [pc(0, "k.py", 1, "NOP", 10, 5), pc(16, "k.py", 2, "NOP", 30, 5), pc(32, "k.py", 3, "NOP", 30, 5)]
    assert [r["label"] for r in hs.by_line(pcs, "k.py")] == ["2", "3", "1"]


def test_stall_reasons_rank_by_samples_then_name():
    pcs = [pc(0, "k.py", 1, "NOP", 1, 9, {"wait": 3, "barrier": 3, "mio_throttle": 1, "drain": 0, "selected": 2})]
    assert [s["reason"] for s in hs.by_line(pcs, "k.py")[0]["stalls"]] == ["barrier", "wait", "mio_throttle"]


def test_kernel_stalls_are_shares_of_all_samples():
    k = hs.kernel_stalls(PCS)
    assert k["samples"] == 100 and k["issuing_pct"] == 15.0
    assert k["stalls"] == [{"reason": "long_scoreboard", "samples": 45, "pct": 45.0},
                           {"reason": "wait", "samples": 30, "pct": 30.0},
                           {"reason": "math_pipe_throttle", "samples": 10, "pct": 10.0}]


def test_instructions_without_line_info_are_one_row():
    pcs = [pc(0, None, None, "NOP", 1, 1), pc(16, "k.py", 5, "NOP", 1, 2)]
    assert [r["label"] for r in hs.by_line(pcs, "k.py")] == ["5", hs.NO_LINE]


@pytest.mark.parametrize("sass, op", [("@!P1  LDG.E.EL.U16 R40, desc[UR4][R28.64+0x2]", "LDG"),
                                      ("STG.E desc[UR10][R22.64], R27", "STG"), ("@UP0  UMOV UR10, 0x1ffffe", "UMOV"),
                                      ("", "")])
def test_opcode(sass, op):
    assert hs.opcode(sass) == op


def test_basic_blocks_start_at_branch_targets_and_after_branches():
    base = 0x7F00_0000
    sass = ["MOV R1, 0x7f000040",            # a constant that looks like an address: not a branch
            f"@P0 BRA {base + 0x40:#x}",     # ends a block; its target starts one
            "IADD3 R1, R1, 0x1, RZ",
            "NOP",
            "FADD R2, R2, R2",               # +0x40: the target
            f"BRA.U UP0, {base + 0x20:#x}",  # back to +0x20
            "EXIT",
            "BRA 0x7f000070"]                # +0x70: after EXIT
    pcs = [pc(16 * i, None, None, s, 1, 1) for i, s in enumerate(sass)]
    blocks = hs.basic_blocks(pcs, base)
    assert [[p["offset"] for p in b] for b in blocks] == [[0x00, 0x10], [0x20, 0x30], [0x40, 0x50], [0x60],
                                                          [0x70]]
    rows = hs.by_region(pcs, base)
    assert sorted(r["label"] for r in rows) == ["+0x0000..+0x0010", "+0x0020..+0x0030", "+0x0040..+0x0050",
                                                 "+0x0060..+0x0060", "+0x0070..+0x0070"]
    assert next(r for r in rows if r["start"] == 0)["hottest"]["sass"] == "MOV R1, 0x7f000040"   # not a branch
    assert next(r for r in rows if r["start"] == 0x40)["hottest"]["sass"] == "FADD R2, R2, R2"
    assert hs.relative_sass(f"BRA {base + 0x20:#x}", base, 0x80) == "BRA +0x0020"


def test_kernel_file_is_the_one_named_after_the_kernel():
    pcs = [pc(0, "/x/triton_helpers.py", 1, "NOP", 9, 9), pc(16, "/x/triton_k_1.abc.py", 2, "NOP", 1, 1),
           pc(32, "/x/triton_helpers.py", 3, "NOP", 9, 9)]
    assert hs.kernel_file_of(pcs, "triton_k_1") == "/x/triton_k_1.abc.py"
    assert hs.kernel_file_of(pcs, "") == "/x/triton_helpers.py"     # no name: the file of most instructions
    assert hs.kernel_file_of([pc(0, None, None, "NOP", 1, 1)], "k") is None


# ---- the recorded source reports ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hot")
    paths = [source_report(k, folder / f"{k}.ncu-rep") for k in (RMS_KERNEL, NVJET_KERNEL)]
    read = read_reports(paths)
    return {k: hs.hotspots(read[str(p)]) for k, p in zip((RMS_KERNEL, NVJET_KERNEL), paths)}


def test_recorded_rms_kernel_line_73(recorded):
    """Line 73, `tmp92 = tl.load(in_ptr5 + (r0_1 + 128*x5), ...)` (sin of the rotary embedding, fp32), holds
    these ten instructions (ncu_report read apart, by hand, 2026-11-24):
    # +0x0140 ULDC.64 UR18, c[0x0][0x248]    inst  110592  samples    5  long_scoreboard    0  L2 sectors 0
    # +0x0ab0 IADD3 R24, P3, R24, UR18, RZ   inst  221184  samples   10  long_scoreboard    0  L2 sectors 0
    # +0x0ad0 IADD3.X R25, R25, UR19, RZ, P3 inst  221184  samples   21  long_scoreboard    0  L2 sectors 0
    # +0x0b30 LDG.E.EL.64 R24, desc[UR4][R24 inst  221184  samples   92  long_scoreboard    0  L2 sectors 1769472
    # +0x0b90 BAR.SYNC.DEFER_BLOCKING 0x0    inst  221184  samples    0  long_scoreboard    0  L2 sectors 0
    # +0x0ca0 STS [R7+UR8], R24              inst  221184  samples 1734  long_scoreboard 1699  L2 sectors 0
    # +0x0cb0 STS [R20+UR8+0x100], R25       inst  221184  samples   30  long_scoreboard    0  L2 sectors 0
    # +0x0cc0 BAR.SYNC.DEFER_BLOCKING 0x0    inst  221184  samples    4  long_scoreboard    0  L2 sectors 0
    # +0x13e0 LDS R31, [R19+UR8]             inst  221184  samples   15  long_scoreboard    0  L2 sectors 0
    # +0x13f0 LDS R37, [R8+UR8]              inst  221184  samples   32  long_scoreboard    0  L2 sectors 0
    inst 110592 + 9 x 221184 = 2,101,248 of the kernel's 71,995,392 (2.92%); samples 1,943 of 12,777 (15.21%);
    long_scoreboard 1,699 of them (87.4%), all at the STS that waits for the load; L2 1,769,472 sectors x 32 B
    = 56,623,104 B, all asked for (ideal = actual), by one global load executed 221,184 times."""
    spots = recorded[RMS_KERNEL]
    assert spots["by"] == "line" and spots["kernel_file"].endswith(f"{RMS_KERNEL}.py")
    top = spots["rows"][0]
    assert (top["label"], top["line"], top["instructions"]) == ("73", 73, 10)
    assert (top["inst"], top["samples"]) == (2_101_248, 1_943)
    assert round(top["inst_pct"], 2) == 2.92 and round(top["samples_pct"], 2) == 15.21
    assert top["stalls"][0] == {"reason": "long_scoreboard", "samples": 1_699}
    assert (top["global_loads"], top["global_stores"], top["l2_bytes"], top["l2_excess_pct"]) == \
        (221_184, 0, 56_623_104, 0.0)
    assert top["hottest"] == {"offset": 0x0CA0, "sass": "STS [R7+UR8], R24", "samples": 1734}


def test_recorded_rms_kernel_ranking_and_totals(recorded):
    spots = recorded[RMS_KERNEL]
    # line 72 (cos, in_ptr4): 15 instructions, 1,804 samples; line 54 (the second RMS load): 1,426
    assert [(r["label"], r["samples"]) for r in spots["rows"][:3]] == [("73", 1943), ("72", 1804), ("54", 1426)]
    assert sum(r["samples"] for r in spots["rows"]) == spots["samples"] == 12_777
    assert sum(r["inst"] for r in spots["rows"]) == spots["inst"] == 71_995_392
    # the kernel's samples per reason (each smsp__pcsamp_warps_issue_stalled_* summed over its PCs)
    assert [(s["reason"], s["samples"]) for s in spots["stalls"][:4]] == [
        ("long_scoreboard", 5440), ("not_selected", 1406), ("wait", 1244), ("short_scoreboard", 1139)]
    assert round(spots["issuing_pct"], 2) == round(100 * 973 / 12_777, 2)
    # tl.sum's add, inlined from Triton's standard.py, is a row of its own
    assert any(r["label"] == "standard.py:263" and not r["kernel_file"] for r in spots["rows"])
    # ncu's rule: "50.00% of this line's global accesses are excessive" on lines 81, 99, 114 and 127, and no other
    assert sorted(r["line"] for r in spots["rows"] if r["l2_excess_pct"]) == [81, 99, 114, 127]
    assert {r["l2_excess_pct"] for r in spots["rows"] if r["l2_excess_pct"]} == {50.0}


def test_recorded_library_kernel_by_region(recorded):
    spots = recorded[NVJET_KERNEL]
    assert spots["by"] == "region" and spots["kernel_file"] is None
    rows = sorted(spots["rows"], key=lambda r: r["start"])
    assert all(a["end"] < b["start"] for a, b in zip(rows, rows[1:]))        # regions partition the kernel
    assert sum(r["instructions"] for r in rows) == 1668 and sum(r["samples"] for r in rows) == 52_888
    top = spots["rows"][0]   # the main loop: wgmma (HGMMA) waiting on its warpgroup
    assert top["label"] == "+0x09c0..+0x0d20" and "HGMMA" in top["opcodes"]
    assert top["stalls"][0]["reason"] == "warpgroup_arrive" and round(top["samples_pct"], 1) == 63.0


# ---- mutation audit (issue 30): branch offsets at the kernel's edges, regions in full, empty counts ------------

def test_relative_sass_only_inside_the_kernel():
    base, size = 0x7F00_1000, 0x80
    # the first instruction (offset 0) and the last byte inside; the end (offset == size) is outside
    assert hs.relative_sass(f"BRA {base:#x}", base, size) == "BRA +0x0000"
    assert hs.relative_sass(f"BRA {base + 0x70:#x}", base, size) == "BRA +0x0070"
    assert hs.relative_sass(f"BRA {base + 0x80:#x}", base, size) == f"BRA {base + 0x80:#x}"
    # no function address known: addresses stay as they are, even ones that would fall inside
    assert hs.relative_sass("BRA 0x20", 0, size) == "BRA 0x20"


def test_a_branch_before_the_last_instruction_starts_a_block_there():
    pcs = [pc(0, None, None, "NOP", 1, 1), pc(16, None, None, "BRA 0x7f000000", 1, 1), pc(32, None, None, "NOP", 1, 1)]
    assert [[p["offset"] for p in b] for b in hs.basic_blocks(pcs, 0x7F00_0000)] == [[0, 16], [32]]
    assert hs.basic_blocks([], 0) == [] and hs.by_region([], 0) == []


def test_regions_of_a_kernel_without_line_info_in_full():
    base = 0x7F00_1000
    pcs = [pc(0x00, None, None, f"MOV R1, {base + 0x10:#x}", 1, 0),   # a constant at an address: no block
           pc(0x10, None, None, "IMAD R3, R3, 0x2, RZ", 2, 1),
           pc(0x20, None, None, "ISETP.GE P0, R1, 0x4", 4, 2, {"selected": 2}),
           pc(0x30, None, None, f"@P0 BRA {base + 0x60:#x}", 4, 5, {"wait": 5}),
           pc(0x40, None, None, "FADD R2, R2, R2", 1, 1),         # after the branch: a block
           pc(0x50, None, None, "NOP", 0, 0),
           pc(0x60, None, None, "EXIT", 1, 1)]                    # the branch's target: a block
    h = hs.hotspots({"pcs": pcs, "function_pc": base, "kernel": "nvjet_x"})
    assert (h["by"], h["kernel_file"], h["inst"], h["samples"]) == ("region", None, 13, 10)
    rows = {r["start"]: r for r in h["rows"]}
    assert sorted(rows) == [0x00, 0x40, 0x60]
    first = rows[0x00]
    # the three most executed opcodes (ISETP 4, BRA 4, IMAD 2; MOV 1 left out); 11 of 13 instructions, 8 of 10
    # samples; its hottest instruction (the branch, 5 samples) with its target as an offset (size 0x70)
    assert first["opcodes"] == ["ISETP", "BRA", "IMAD"] and first["label"] == "+0x0000..+0x0030"
    assert (first["inst_pct"], first["samples_pct"], first["issuing_samples"]) == (100 * 11 / 13, 80.0, 2)
    assert first["hottest"] == {"offset": 0x30, "sass": "@P0 BRA +0x0060", "samples": 5}
    # an opcode that never ran is not named
    assert rows[0x40]["opcodes"] == ["FADD"] and rows[0x40]["issuing_samples"] == 0.0
    assert [r["rank"] for r in h["rows"]] == [1, 2, 3]


def test_sectors_without_an_ideal_count_have_no_excess():
    # no l2_sectors_ideal recorded: the ideal is the sectors asked for, so nothing is excess
    row = hs.by_line([{**pc(0, "k.py", 1, "LDG.E R1, [R2]", 4, 1), "l2_sectors": 8.0}], "k.py")[0]
    assert (row["l2_bytes"], row["l2_excess_pct"], row["file"]) == (256.0, 0.0, "k.py")


def test_a_kernel_of_no_instructions_and_no_samples():
    row = hs.by_line([pc(0, "k.py", 1, "NOP", 0, 0)], "k.py")[0]
    assert (row["inst_pct"], row["samples_pct"], row["issuing_samples"]) == (None, None, 0.0)
    assert hs.kernel_stalls([pc(0, "k.py", 1, "NOP", 0, 0, {"wait": 0})]) == {"samples": 0, "issuing_pct": None,
                                                                              "stalls": []}
    # samples but none issuing: 0 %, not unknown
    assert hs.kernel_stalls([pc(0, "k.py", 1, "NOP", 1, 4, {"wait": 4})])["issuing_pct"] == 0.0


def test_hotspots_take_the_file_named_after_the_kernel():
    pcs = [pc(0, "/x/triton_helpers.py", 1, "NOP", 9, 9), pc(16, "/x/triton_k_1.abc.py", 2, "NOP", 1, 1)]
    h = hs.hotspots({"pcs": pcs, "kernel": "triton_k_1"})
    assert (h["by"], h["kernel_file"]) == ("line", "/x/triton_k_1.abc.py")
    assert [r["label"] for r in h["rows"]] == ["triton_helpers.py:1", "2"]
