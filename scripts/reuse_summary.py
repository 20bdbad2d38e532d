"""What scripts/gpu_check_reuse.sh prints of its runs, a figure a line (stdlib only: no torch).

    python3 scripts/reuse_summary.py stages RUN          each stage's seconds (manifest.json), their total, and
                                                        what the ncu, source-pass and ceilings stages reused
    python3 scripts/reuse_summary.py changed RUN1 RUN2   the kernels whose file differs between the runs, beside
                                                        the ncu rows RUN2 measured itself (the rest: reused)
"""
from __future__ import annotations

import csv
import hashlib
import json
import sys
from pathlib import Path


def _manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


def stages(run: Path) -> None:
    m = _manifest(run)
    print(f"{run.name}: run_id {m.get('run_id')}")
    total = 0.0
    for name, st in (m.get("stages") or {}).items():
        if isinstance(st, dict) and isinstance(st.get("seconds"), (int, float)):
            total += st["seconds"]
            print(f"{run.name}: stage {name:<22} {st['seconds']:7.2f} s  {st.get('status', '')}")
    print(f"{run.name}: stages total {total:.1f} s")
    st = m.get("stages") or {}
    ncu = st.get("ncu") or {}
    print(f"{run.name}: ncu kernels {ncu.get('kernels')}, measured (ok) {ncu.get('ok')}, reused {ncu.get('reused')}"
          f" from {ncu.get('reused_from')}, failed {ncu.get('failed')}; store: {ncu.get('measure_store')}")
    src = st.get("ncu_source") or {}
    print(f"{run.name}: ncu_source kernels {src.get('kernels')}, measured {src.get('ok')}, reused "
          f"{src.get('reused', 0)} from {src.get('reused_from')}; {src.get('beside', '')}")
    ceil = m.get("ceilings") or {}
    print(f"{run.name}: ceilings reused_from {ceil.get('reused_from')}, flops16 {ceil.get('flops16_tflops')}, "
          f"dram {ceil.get('dram_gbps')}")
    rows = list(csv.DictReader(open(run / "ncu" / "ncu.csv"))) if (run / "ncu" / "ncu.csv").exists() else []
    own = {r.get("run_id") for r in rows}
    print(f"{run.name}: ncu.csv rows {len(rows)}, run_id column {sorted(own)}, origin_run_id "
          f"{sorted({r.get('origin_run_id') or '(measured here)' for r in rows})}")


def _kernel_files(run: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (run / "kernels").glob("*.py")
            if not p.name.endswith(".annotated.py")}


def changed(first: Path, second: Path) -> None:
    a, b = _kernel_files(first), _kernel_files(second)
    diff = sorted(n.removesuffix(".py") for n in b if a.get(n) != b[n])
    print(f"kernel files: {len(b)} in {second.name}, {len(diff)} differ from {first.name}'s: {diff}")
    rows = list(csv.DictReader(open(second / "ncu" / "ncu.csv")))
    measured = sorted(r["stem"] for r in rows if r["status"] == "ok" and not r.get("origin_run_id"))
    reused = [r for r in rows if r.get("origin_run_id")]
    print(f"ncu rows of {second.name}: {len(measured)} measured in it, {len(reused)} reused")
    print(f"measured in {second.name}: {measured}")
    kernels = {k["file"].removesuffix(".py"): k for k in json.loads((second / "kernels" / "kernels.json").read_text())
               if k.get("file")}
    before = {k["file"].removesuffix(".py"): k for k in json.loads((first / "kernels" / "kernels.json").read_text())
              if k.get("file")}
    relaunched = sorted(s for s, k in kernels.items() if s in before and s not in diff
                        and k.get("launch_config") != before[s].get("launch_config"))
    print(f"kernels launched with another config (autotuning chose again): {relaunched}")
    inductor_measured = sorted(s for s in measured if s.startswith("triton_"))
    print(f"CHECK re-measured Inductor kernels == changed kernel files + relaunched: "
          f"{inductor_measured == sorted(diff + relaunched)}")
    for s in measured:
        k = kernels.get(s) or {}
        prov = k.get("provenance") or {}
        print(f"  {s}: aten {k.get('aten_ops')}, modules {prov.get('modules') or prov.get('block')}")


if __name__ == "__main__":
    cmd, *runs = sys.argv[1:]
    try:
        if cmd == "stages":
            for r in runs:
                stages(Path(r))
        else:
            changed(Path(runs[0]), Path(runs[1]))
    except (OSError, ValueError, KeyError) as e:   # a run that did not get that far: one line, the script goes on
        print(f"STEP reuse_summary {cmd} {' '.join(runs)}: {type(e).__name__}: {e}")
        sys.exit(1)
