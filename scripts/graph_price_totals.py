"""Are a CUDA-graphs run's kernels priced as a default run of the same target prices them? Prints, for RUN_GRAPHS
(profile --mode reduce-overhead or max-autotune) and RUN_REF (mode default), the report's work per step (TFLOP and
GB per step, all kernels and the Inductor kernels apart), how many Inductor kernels carry a price and the reasons
of those that do not; then the Inductor kernels both runs have by name, their flops and bytes a call side by side
(the same kernel at the same shapes: equal).

    python scripts/graph_price_totals.py runs/decoder-ro runs/decoder
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def totals(run: str) -> dict:
    from inductor_prof.analysis import load_run_tables
    from inductor_prof.units import GB, TFLOP

    t = load_run_tables(run)
    df = t.kernels
    n = float(t.manifest["profile"]["steps"])
    ind = df[df["origin"] == "inductor"]
    unpriced = ind[ind["unpriced"].astype(str) != ""]
    return {"run": run, "mode": t.manifest["settings"]["compile"]["mode"],
            "tflop_per_step": float(df["flops"].sum()) / n / TFLOP, "gb_per_step": float(df["bytes"].sum()) / n / GB,
            "inductor_tflop_per_step": float(ind["flops"].sum()) / n / TFLOP,
            "inductor_gb_per_step": float(ind["bytes"].sum()) / n / GB,
            "inductor_priced": f"{int(ind['annotated'].sum())} of {len(ind)}",
            "unpriced": dict(zip(unpriced["name"], unpriced["unpriced"])),
            "per_call": ind.assign(flops_call=ind["flops"] / ind["calls"], bytes_call=ind["bytes"] / ind["calls"])
            .set_index("name")[["flops_call", "bytes_call"]], "warnings": t.warnings}


def main() -> int:
    a, b = totals(sys.argv[1]), totals(sys.argv[2])
    for f in (a, b):
        print(f"{f['mode']} ({f['run']}): TFLOP/step {f['tflop_per_step']:.6f}, GB/step {f['gb_per_step']:.6f}; "
              f"Inductor TFLOP/step {f['inductor_tflop_per_step']:.6f}, Inductor GB/step "
              f"{f['inductor_gb_per_step']:.6f}; Inductor kernels priced {f['inductor_priced']}")
        for name, why in f["unpriced"].items():
            print(f"  unpriced {name}: {why}")
        for w in f["warnings"]:
            print(f"  warning: {w}")
    for key in ("tflop_per_step", "gb_per_step", "inductor_tflop_per_step", "inductor_gb_per_step"):
        ratio = a[key] / b[key] if b[key] else float("nan")
        print(f"{key} graphs/default: {ratio:.6f}")
    both = a["per_call"].merge(b["per_call"], left_index=True, right_index=True, how="outer",
                               suffixes=("_graphs", "_default"))
    same = both.dropna()
    equal = same[(same["flops_call_graphs"] == same["flops_call_default"])
                 & (same["bytes_call_graphs"] == same["bytes_call_default"])]
    print(f"Inductor kernels by name: {len(both)}; in both {len(same)}, flops and bytes a call equal in {len(equal)}; "
          f"only with graphs {int(both['flops_call_default'].isna().sum())}, only default "
          f"{int(both['flops_call_graphs'].isna().sum())}")
    for name, r in same.drop(equal.index).iterrows():
        print(f"  differs {name}: flops/call {r.flops_call_graphs:.6g} vs {r.flops_call_default:.6g}, bytes/call "
              f"{r.bytes_call_graphs:.6g} vs {r.bytes_call_default:.6g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
