"""The ncu metrics inductor-prof asks for, by short name (the only place raw metric names appear), the units
ncu may report them in, and the totals derived from them. Pure."""
from __future__ import annotations

from ...units import BYTES, TIME_NS

# short name -> raw ncu metric; the only place raw names appear.
METRICS = {
    "duration_ns": "gpu__time_duration.sum",
    "dram_read_bytes": "dram__bytes_read.sum",
    "dram_write_bytes": "dram__bytes_write.sum",
    "l2_bytes": "lts__t_bytes.sum",
    "l1_bytes": "l1tex__t_bytes.sum",
    "sol_compute_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "sol_memory_pct": "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "registers": "launch__registers_per_thread",
    "local_load_bytes": "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum",
    "local_store_bytes": "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum",
    "tensor_pipe_pct": "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "fadd": "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "fmul": "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "ffma": "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "hadd": "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum",
    "hmul": "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum",
    "hfma": "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
    "dadd": "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "dmul": "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "dfma": "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    # why a kernel no unit binds is slow (analysis/causes.py), for every kernel, not only the source pass's few:
    # issue slots busy, the cycles between a warp's issues and of them those stalled on each reason it acts on
    # (WarpStateStats' own metrics; stalled / between = the share the source pass's samples estimate: FLUX's rope
    # kernel 42.5% long-scoreboard by these, 42.9% of its samples), theoretical occupancy and its limits
    "issue_active": "smsp__issue_active.avg.per_cycle_active",
    "warp_cycles_per_issue": "smsp__average_warp_latency_per_inst_issued.ratio",
    **{f"stall_{r}": f"smsp__average_warps_issue_stalled_{r}_per_issue_active.ratio" for r in
       ("long_scoreboard", "math_pipe_throttle", "mio_throttle", "barrier")},
    "occupancy_theoretical_pct": "sm__maximum_warps_per_active_cycle_pct",
    "limit_registers": "launch__occupancy_limit_registers",
    "limit_shared_mem": "launch__occupancy_limit_shared_mem",
    "limit_warps": "launch__occupancy_limit_warps",
    "limit_blocks": "launch__occupancy_limit_blocks",
}
# asked for since issue 53 (the runs shipped before lack them; the analysis uses them where present)
STALL_METRICS = ("issue_active", "warp_cycles_per_issue", "stall_long_scoreboard", "stall_math_pipe_throttle",
                 "stall_mio_throttle", "stall_barrier")
# Units ncu may report a time or size in (lower case) -> factor to the unit of its short name (ns, bytes).
# ncu_report names them "ns" and "byte"; its CSV and the Nsight UI scale them ("usecond", "Mbyte", ...).
UNITS = {"ns": TIME_NS["ns"], "nsecond": TIME_NS["ns"], "us": TIME_NS["us"], "usecond": TIME_NS["us"],
         "ms": TIME_NS["ms"], "msecond": TIME_NS["ms"], "s": TIME_NS["s"], "second": TIME_NS["s"],
         "byte": BYTES["B"], "kbyte": BYTES["kB"], "mbyte": BYTES["MB"], "gbyte": BYTES["GB"],
         "kibyte": BYTES["KiB"], "mibyte": BYTES["MiB"], "gibyte": BYTES["GiB"]}
SCALED = ("_ns", "_bytes")   # short names whose value must be converted (the rest are %, counts, registers)


def from_raw(raw: dict) -> dict[str, float]:
    """Short-named metrics of one profiled kernel from what ncu reported (raw metric name -> (value, unit as ncu
    names it)): each of METRICS present, a time in ns and a size in bytes whatever unit ncu used (one not in UNITS
    raises ValueError: a silent factor of 1 would be 1000x off), the rest (%, counts, registers) as they are; then
    the derived totals."""
    out: dict[str, float] = {}
    for short, name in METRICS.items():
        if name not in raw:
            continue
        value, unit = raw[name]
        if short.endswith(SCALED):
            if (unit or "").lower() not in UNITS:
                raise ValueError(f"ncu reported {name} in unknown unit {unit!r}")
            value *= UNITS[(unit or "").lower()]
        out[short] = value
    return derive(out)


def derive(m: dict) -> dict:
    """Measured totals from raw counters: DRAM bytes, FP flops (an FMA is two), local-memory traffic."""
    m = dict(m)
    if "dram_read_bytes" in m or "dram_write_bytes" in m:
        m["dram_bytes"] = m.get("dram_read_bytes", 0) + m.get("dram_write_bytes", 0)
    if any(k in m for k in ("fadd", "fmul", "ffma", "hadd", "hmul", "hfma", "dadd", "dmul", "dfma")):
        m["flops"] = sum(m.get(k, 0) for k in ("fadd", "fmul", "hadd", "hmul", "dadd", "dmul")) + \
            2 * sum(m.get(k, 0) for k in ("ffma", "hfma", "dfma"))
    if "local_load_bytes" in m or "local_store_bytes" in m:
        m["local_bytes"] = m.get("local_load_bytes", 0) + m.get("local_store_bytes", 0)
    return m


# ---- the source pass (`ncu RUN --source`): per-instruction counters, by short name -------------------------

# the ncu sections that pass collects (ncu --section identifiers)
SOURCE_SECTIONS = ("SourceCounters", "WarpStateStats", "LaunchStats", "Occupancy")
# counters with one value per instruction address (PC) of the kernel
PC_METRICS = {
    "inst": "inst_executed",                                        # warp-level instructions executed
    "samples": "smsp__pcsamp_sample_count",                         # warp state samples at this PC (all states)
    "l2_sectors": "memory_l2_theoretical_sectors_global",           # 32-byte L2 sectors its global accesses ask
    "l2_sectors_ideal": "memory_l2_theoretical_sectors_global_ideal",   # ... were they fully coalesced
}
STALL_PREFIX = "smsp__pcsamp_warps_issue_stalled_"   # + reason: samples in that state; `_not_issued` left out
ISSUING = "selected"                                 # the state of a warp issuing: not a stall
FUNCTION_PC = "launch__function_pcs"                 # the kernel's first instruction address
LAUNCH_METRICS = {
    "grid_x": "launch__grid_dim_x", "grid_y": "launch__grid_dim_y", "grid_z": "launch__grid_dim_z",
    "block_x": "launch__block_dim_x", "block_y": "launch__block_dim_y", "block_z": "launch__block_dim_z",
    "cluster_x": "launch__cluster_dim_x", "cluster_y": "launch__cluster_dim_y", "cluster_z": "launch__cluster_dim_z",
    "registers": "launch__registers_per_thread",
    "shared_static_bytes": "launch__shared_mem_per_block_static",
    "shared_dynamic_bytes": "launch__shared_mem_per_block_dynamic",
    "waves_per_sm": "launch__waves_per_multiprocessor",
    "occupancy_theoretical_pct": "sm__maximum_warps_per_active_cycle_pct",
    "occupancy_achieved_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    # blocks per SM each resource allows: the smallest is what limits occupancy
    "limit_registers": "launch__occupancy_limit_registers", "limit_shared_mem": "launch__occupancy_limit_shared_mem",
    "limit_warps": "launch__occupancy_limit_warps", "limit_blocks": "launch__occupancy_limit_blocks",
    "limit_barriers": "launch__occupancy_limit_barriers",
}
