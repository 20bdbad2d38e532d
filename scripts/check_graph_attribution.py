"""Does the report of a run compiled with CUDA graphs (profile --mode reduce-overhead or max-autotune) still
attribute the kernels of the graph replays? Prints, for RUN_GRAPHS and RUN_REF (the same target compiled with
mode default), each run's plain step, its kernels and the Inductor kernels' GPU ms per step, the share of the
Inductor kernels' time carrying flops/bytes (the annotated step), under a block scope (regional compile) and the
library calls torch.profiler tied to an ATen op; then the Inductor kernels of both by name: calls per step and
µs a call side by side.

    python scripts/check_graph_attribution.py runs/decoder-ro runs/decoder-default
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def facts(run: str) -> dict:
    from inductor_prof.analysis import load_run_tables

    t = load_run_tables(run)
    df = t.kernels
    ind = df[df["origin"] == "inductor"] if "origin" in df.columns else df.iloc[0:0]
    ind_ms = float(ind["step_ms"].sum())
    annotated = float(ind.loc[ind["annotated"].fillna(False).astype(bool), "step_ms"].sum())
    launches = t.launches
    tri = launches[launches["name"].str.startswith("triton_")]
    in_block = float(tri.loc[tri["path"].str.count("/") >= 1, "time_ns"].sum()) / max(float(tri["time_ns"].sum()), 1)
    lib = t.library_ops
    return {"run": run, "mode": t.manifest["settings"]["compile"]["mode"],
            "plain_step_ms": t.summary.get("plain_step_ms"), "kernels": len(df), "inductor_kernels": len(ind),
            "gpu_ms_per_step": float(df["step_ms"].sum()), "inductor_ms_per_step": ind_ms,
            "inductor_time_annotated": annotated / ind_ms if ind_ms else float("nan"),
            "triton_time_under_a_deeper_scope": in_block,
            "library_ops_rows": None if lib is None else len(lib),
            "library_ops_with_op": None if lib is None else int(lib["op"].notna().sum()),
            # library kernels' GPU time whose calls torch.profiler tied to an ATen op (their GEMM shapes)
            "library_time_with_op": _library_share(df, lib),
            "warnings": t.warnings, "table": ind.set_index("name")[["calls_per_step", "avg_us"]]}


def _library_share(df, lib) -> float:
    from inductor_prof.names import demangle

    libk = df[df["origin"] == "library"]
    if lib is None or not len(libk):
        return float("nan")
    known = {demangle(k) for k in lib["kernel"]}
    return float(libk.loc[libk["name"].map(demangle).isin(known), "step_ms"].sum() / libk["step_ms"].sum())


def main() -> int:
    a, b = facts(sys.argv[1]), facts(sys.argv[2])
    for f in (a, b):
        print({k: v for k, v in f.items() if k != "table"})
    both = a["table"].merge(b["table"], left_index=True, right_index=True, how="outer", suffixes=("_graphs", "_ref"))
    print(f"Inductor kernels: {len(both)} by name; only with graphs {int(both['avg_us_ref'].isna().sum())}, only "
          f"without {int(both['avg_us_graphs'].isna().sum())}")
    shared = both.dropna()
    if len(shared):
        calls = (shared["calls_per_step_graphs"] / shared["calls_per_step_ref"]).tolist()
        us = (shared["avg_us_graphs"] / shared["avg_us_ref"]).tolist()
        print(f"shared {len(shared)}: calls per step ratio median {statistics.median(calls):.3f} (min {min(calls):.3f}, "
              f"max {max(calls):.3f}); µs a call ratio median {statistics.median(us):.3f} (min {min(us):.3f}, "
              f"max {max(us):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
