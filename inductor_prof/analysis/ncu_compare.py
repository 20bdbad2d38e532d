"""ncu's measurements beside the annotation (pure): per kernel, measured over annotated DRAM bytes (reads and
writes apart) and flops per launch, and a flag where they disagree by more than the tolerance."""
from __future__ import annotations

import pandas as pd

from ..drivers.ncu.metrics import STALL_METRICS

from ..units import NS_PER_US

NCU_COLUMNS = {"duration_ns": "ncu_duration_ns", "dram_bytes": "ncu_dram_bytes",
               "dram_read_bytes": "ncu_dram_read_bytes", "dram_write_bytes": "ncu_dram_write_bytes", "flops": "ncu_flops",
               "sol_compute_pct": "sol_compute_pct", "sol_memory_pct": "sol_memory_pct",
               "occupancy_pct": "occupancy_pct", "registers": "registers", "l2_bytes": "ncu_l2_bytes",
               "l1_bytes": "ncu_l1_bytes", "local_bytes": "ncu_local_bytes", "tensor_pipe_pct": "tensor_pipe_pct",
               "status": "ncu_status", "reason": "ncu_reason", "shape": "ncu_shape", "model_us": "ncu_model_us",
               "model_bytes": "ncu_model_bytes",
               # the run that measured a row reused from an earlier run (pipeline/ncu_reuse.py); "" measured here
               "origin_run_id": "ncu_origin_run_id",
               # the stall and occupancy counters (runs recorded before them lack them: causes.counter_facts)
               **{k: k for k in (*STALL_METRICS, "occupancy_theoretical_pct", "limit_registers", "limit_shared_mem",
                                 "limit_warps", "limit_blocks")}}
ANNOTATION_TOLERANCE = 0.25


def merge_ncu(df: pd.DataFrame, ncu: pd.DataFrame | None) -> pd.DataFrame:
    """ncu columns per kernel; measured over annotated bytes/flops per launch; off by > 25% flagged."""
    df = df.copy()
    if ncu is None or ncu.empty:
        return df
    keep = {k: v for k, v in NCU_COLUMNS.items() if k in ncu.columns}
    if "rank" in ncu.columns:   # a library kernel's ncu row: the replay of its costliest call (rank 0)
        ncu = ncu.sort_values("rank", kind="stable", na_position="first")
    ncu = ncu[["name", *keep]].rename(columns=keep).drop_duplicates("name")
    df = df.merge(ncu, on="name", how="left")
    per_call_bytes = df["bytes"] / df["calls"].clip(lower=1)
    if "ncu_model_bytes" in df:   # the replayed call's own bytes, not the kernel's average over its shapes
        per_call_bytes = df["ncu_model_bytes"].where(df["ncu_model_bytes"] > 0, per_call_bytes)
    per_call_flops = df["flops"] / df["calls"].clip(lower=1)
    if "ncu_dram_bytes" in df:
        df["dram_ratio"] = (df["ncu_dram_bytes"] / per_call_bytes).where(per_call_bytes > 0)
    if "ncu_dram_read_bytes" in df and "read_bytes_per_call" in df:
        # reads are what ncu measures exactly (caches flushed before the replay); writes that stay dirty in
        # the write-back L2 when the kernel ends never reach DRAM inside it, so DRAM writes undercount
        df["dram_read_ratio"] = (df["ncu_dram_read_bytes"] / df["read_bytes_per_call"]).where(
            df["read_bytes_per_call"] > 0)
        df["dram_write_ratio"] = (df["ncu_dram_write_bytes"] / df["write_bytes_per_call"]).where(
            df["write_bytes_per_call"] > 0)
    if "ncu_flops" in df:
        df["flops_ratio"] = (df["ncu_flops"] / per_call_flops).where(
            (per_call_flops > 0) & (df["category"] != "GEMM") & (df["category"] != "attention"))
    # Flags only for Inductor kernels: ncu replays exactly the launch that was annotated. A library kernel
    # name (cuBLAS nvjet_*) serves many shapes, and the one replayed is not the average the step saw.
    inductor = df["origin"] == "inductor"
    bytes_ratio = df["dram_read_ratio"] if "dram_read_ratio" in df else df.get("dram_ratio")
    bytes_off = inductor & ((bytes_ratio - 1).abs() > ANNOTATION_TOLERANCE) if bytes_ratio is not None \
        else pd.Series(False, index=df.index)
    flops_off = inductor & ((df["flops_ratio"] - 1).abs() > ANNOTATION_TOLERANCE) if "flops_ratio" in df \
        else pd.Series(False, index=df.index)
    df["annotation_off"] = bytes_off | flops_off
    # a library call's replay against the profiled time of the same call: far off, the counters describe
    # another run of it (clocks, caches, data) than the one in the step
    if "ncu_model_us" in df:
        df["ncu_time_off"] = ((df["ncu_duration_ns"] / NS_PER_US / df["ncu_model_us"] - 1).abs()
                              > ANNOTATION_TOLERANCE).fillna(False) & df["ncu_model_us"].notna()
    df["annotation_off_in"] = [("bytes" if b else "") + ("+" if b and f else "") + ("flops" if f else "")
                               for b, f in zip(bytes_off, flops_off)]
    return df
