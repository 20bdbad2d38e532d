"""Prints, one labelled line each, the figures `scripts/gpu_check_trainranks.sh` checks in a `profile --train --nproc N`
run: per rank, each phase's ms/step, TFLOP and GB per step; the communication phase's waiting, moving, exposed,
hidden share, top collective's busbw and the phase it was launched in; the ranks' compute/transfer/wait/idle
split; the NCCL kernels' phase in the kernel table and in the trace; the manifest's data-parallel record; the top
advice items. Reads `report --json` documents (one a rank) and the rank folders.

Usage: python3 scripts/trainranks_figures.py RUN REPORT0.json REPORT1.json [TRACE.json]"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def fmt(v, spec="{:.3f}"):
    return "-" if v is None else spec.format(v)


def rank_lines(run: Path, doc: dict, rank: int) -> None:
    manifest = json.loads((run / f"rank{rank}" / "manifest.json").read_text())
    print(f"rank {rank} data_parallel: {(manifest.get('target') or {}).get('data_parallel')}")
    prof = manifest.get("profile") or {}
    print(f"rank {rank} plain step ms: {fmt(prof.get('plain_step_ms'))}  proton step ms: "
          f"{fmt(prof.get('proton_step_ms'))}")
    phases = (doc.get("summary") or {}).get("phases") or {}
    if not phases:
        print(f"rank {rank} CHECK FAILED: no phases in the summary")
    for name, p in phases.items():
        print(f"rank {rank} phase {name}: {fmt(p.get('ms_per_step'))} ms/step, {fmt(p.get('tflop_per_step'), '{:.4f}')} "
              f"TFLOP/step, {fmt(p.get('gb_per_step'), '{:.4f}')} GB/step, {fmt(p.get('launches_per_step'), '{:.0f}')} "
              f"launches, peak {fmt((p.get('peak_memory_bytes') or 0) / 2**30, '{:.2f}')} GiB")
    c = phases.get("communication")
    if c is None:
        print(f"rank {rank} CHECK FAILED: no communication phase")
    else:
        top = c.get("top_collective") or {}
        print(f"rank {rank} communication: waiting {fmt(c.get('wait_ms_per_step'))} ms/step, moving "
              f"{fmt(c.get('moving_ms_per_step'))}, exposed moving {fmt(c.get('exposed_ms_per_step'))}, exposed waiting "
              f"{fmt(c.get('exposed_wait_ms_per_step'))}, hidden {fmt(c.get('hidden_pct'), '{:.1f}')}%")
        print(f"rank {rank} communication top collective: {top.get('collective')} {top.get('dtype')} "
              f"{fmt((top.get('bytes') or 0) / 1e6, '{:.1f}')} MB x {fmt(top.get('calls'), '{:.0f}')}/step, busbw "
              f"{fmt(top.get('busbw_gbps'), '{:.1f}')} GB/s over {top.get('timed_on')}, "
              f"{fmt(top.get('pct_of_link'), '{:.1f}')}% of the link")
        print(f"rank {rank} communication launched in: {c.get('launched_in')}")
    ranks = doc.get("ranks") or {}
    for r in ranks.get("ranks") or []:
        print(f"rank {rank} report, ranks row {r['rank']}: span {fmt(r.get('span_ms'))} ms = compute "
              f"{fmt(r.get('compute_ms'))} + transfer {fmt(r.get('transfer_ms'))} + unsplit {fmt(r.get('unsplit_ms'))}"
              f" + wait {fmt(r.get('wait_ms'))} + idle {fmt(r.get('idle_ms'))}; NCCL kernel {fmt(r.get('comm_ms'))} ms, "
              f"hidden {fmt(r.get('hidden_pct'), '{:.1f}')}%")
    for row in ranks.get("collectives") or []:
        print(f"rank {rank} collective: {row.get('collective')} {row.get('dtype')} {row.get('bytes')} B x "
              f"{row.get('calls')}: {fmt(row.get('step_ms'))} ms/step, wait {fmt(row.get('wait_ms'))}, busbw "
              f"{fmt(row.get('busbw_gbps'), '{:.1f}')} GB/s over {row.get('timed_on')}")
    print(f"rank {rank} matched collectives: {ranks.get('matched_collectives')}  straggler: "
          f"{(ranks.get('straggler') or {}).get('rank')}")
    kernels = doc.get("kernels") or []
    nccl = [k for k in kernels if str(k.get("name", "")).lstrip("_Z0123456789").startswith("nccl")]
    print(f"rank {rank} NCCL kernels in the table: {len(nccl)}, phases {sorted({k.get('phase') for k in nccl})}")
    others = sorted({k.get("phase") for k in kernels} - {None})
    print(f"rank {rank} phases in the kernel table: {others}")
    head = (doc.get("summary") or {}).get("headroom") or {}
    print(f"rank {rank} GPU busy {fmt(head.get('gpu_busy_ms_per_step'))} ms/step (waiting taken out), launch gap "
          f"{fmt(head.get('launch_gap_ms_per_step'))}")
    for i, it in enumerate((head.get("next") or [])[:6]):
        print(f"rank {rank} where to look next #{i + 1}: {fmt(it.get('headroom_ms_per_step'))} ms/step "
              f"[{it.get('category')}] {it.get('what')} | {it.get('why')}")
    for it in ((doc.get("summary") or {}).get("training") or [])[:4]:
        print(f"rank {rank} training item: {it.get('phase')}: {it.get('what')} ({fmt(it.get('ms_per_step'))} ms)")
    for w in doc.get("warnings") or []:
        print(f"rank {rank} warning: {w}")


def trace_lines(path: Path) -> None:
    events = json.loads(path.read_text())["traceEvents"]
    nccl = [e for e in events if str(e.get("name", "")).startswith("nccl") and e.get("ph") == "X"]
    phases = sorted({str((e.get("args") or {}).get("training phases of the kernel")) for e in nccl})
    print(f"trace rank0: {len(nccl)} NCCL slices, their phase: {phases}")


def main(argv: list[str]) -> None:
    run = Path(argv[0])
    for rank, doc_path in enumerate(argv[1:3]):
        try:
            rank_lines(run, json.loads(Path(doc_path).read_text()), rank)
        except Exception as e:   # one rank's document unreadable: the other's figures still print
            print(f"rank {rank} CHECK FAILED: {type(e).__name__}: {e}")
    if len(argv) > 3:
        try:
            trace_lines(Path(argv[3]))
        except Exception as e:
            print(f"trace CHECK FAILED: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main(sys.argv[1:])
