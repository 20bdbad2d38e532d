"""Are a CUDA-graphs run's library kernels (cuBLAS, cuDNN, aten) priced as a default run of the same target prices
them? Prints, for RUN_GRAPHS (profile --mode reduce-overhead) and RUN_REF (default mode): the library_ops stage's
record of the graph replays (launches replayed, priced from the step without graphs, unmatched and why), the
library rows left unpriced by reason, then per library kernel by name its flops and bytes per step in both runs and
their ratio, and the report's TFLOP/step and GB/step of both with the ratio graphs/default.

    python scripts/graph_library_prices.py runs/decoder-ro runs/decoder
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    import pandas as pd

    from inductor_prof.analysis import load_run_tables
    from inductor_prof.units import GB, TFLOP

    graphs, ref = sys.argv[1], sys.argv[2]
    manifest = json.loads((Path(graphs) / "manifest.json").read_text())
    lib_stage = manifest["stages"].get("library_ops") or {}
    print("library_ops stage (graphs run):", json.dumps({k: v for k, v in lib_stage.items() if k != "started"}))
    for run in (graphs, ref):
        ops = pd.read_csv(Path(run) / "library_ops.csv", keep_default_na=False)
        left = ops[ops["unpriced"] != ""]
        print(f"library_ops.csv {run}: {len(ops)} launches, {len(left)} unpriced")
        for why, n in left["unpriced"].value_counts().items():
            print(f"  unpriced x{n}: {why}")
    per = {}
    for run in (graphs, ref):
        ops = pd.read_csv(Path(run) / "library_ops.csv", keep_default_na=False)
        per[run] = ops.groupby("kernel")[["flops", "bytes"]].sum()
    both = per[graphs].merge(per[ref], left_index=True, right_index=True, how="outer",
                            suffixes=("_graphs", "_default")).fillna(0)
    both = both.sort_values("flops_default", ascending=False)
    for name, r in both.head(8).iterrows():
        ratio = r.flops_graphs / r.flops_default if r.flops_default else float("nan")
        print(f"library kernel {str(name)[:60]}: TFLOP/step graphs {r.flops_graphs / TFLOP:.6f} default "
              f"{r.flops_default / TFLOP:.6f} (ratio {ratio:.6f}); GB/step graphs {r.bytes_graphs / GB:.6f} default "
              f"{r.bytes_default / GB:.6f}")
    totals = {}
    for run in (graphs, ref):
        t = load_run_tables(run)
        n = float(t.manifest["profile"]["steps"])
        totals[run] = (float(t.summary["tflops_per_step"]), float(t.kernels["bytes"].sum()) / n / GB)
        lib = t.kernels[t.kernels["origin"] == "library"].sort_values("total_ns", ascending=False).head(3)
        for _, k in lib.iterrows():
            tflops = k["flops"] / (k["total_ns"] * 1e-9) / TFLOP if k["total_ns"] else 0.0
            print(f"report {run}: {k['display'][:50]} calls {k['calls']} TFLOP/s {tflops:.1f} (GPU shared) "
                  f"unpriced '{k['unpriced']}'")
    (tg, bg), (tr, br) = totals[graphs], totals[ref]
    print(f"TFLOP/step graphs {tg:.6f} default {tr:.6f}: ratio graphs/default {tg / tr if tr else float('nan'):.6f}")
    print(f"GB/step graphs {bg:.6f} default {br:.6f}: ratio graphs/default {bg / br if br else float('nan'):.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
