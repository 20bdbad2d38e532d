"""How a value is written in every report (terminal and HTML): numbers with a format, "-" for a missing one."""
from __future__ import annotations

import math

from ..analysis.comm_phase import communication_line
from ..analysis.telemetry import line as telemetry_line

from ..analysis.ncu_compare import ANNOTATION_TOLERANCE
from ..analysis.summary import Summary
from ..peaks import Peaks
from ..units import BYTES, MS_PER_S


def num(v, fmt: str = "{:.1f}") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return fmt.format(v)


def rate(v) -> str:
    """A throughput (TFLOP/s), in every table of both reports: whole from 10 up, two significant digits below,
    so a CPU's 0.023 is not "0"."""
    return num(v, "{:.0f}" if v is not None and abs(v) >= 10 else "{:.2g}")


def off_flag(row) -> str:
    """'bytes+flops >25% off' where the annotation disagrees with ncu by more than the tolerance, else ''."""
    return f"{row.get('annotation_off_in')} >{ANNOTATION_TOLERANCE:.0%} off" if row.get("annotation_off") else ""


def text(v) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def reused_from(row) -> str:
    """The run an ncu row was reused from (its id's first 12 characters, as the note names it), "" when this run
    measured it."""
    return text(row.get("ncu_origin_run_id"))[:12]


def ncu_reused_line(df) -> str | None:
    """One line for the ncu section when some of its rows were reused from earlier runs (pipeline/ncu_reuse.py):
    how many of the rows, and from which runs; None when this run measured every row."""
    if "ncu_origin_run_id" not in df or "ncu_duration_ns" not in df:
        return None
    rows = [r for _, r in df[df["ncu_duration_ns"].notna()].iterrows()]
    origins = [reused_from(r) for r in rows]
    runs = sorted({o for o in origins if o})
    if not runs:
        return None
    n = sum(1 for o in origins if o)
    return (f"Nsight Compute: {n} of {len(rows)} kernels' rows reused from run {', '.join(runs)} (same GPU, driver, "
            "versions, ncu settings and kernel; `profile --fresh` measures them again)")


def attention_reused_line(att) -> str | None:
    """One line under the attention table when some of its rows were reused from earlier runs
    (attention/benchmark/reuse.py): how many, and from which runs; None when this run timed every row."""
    if att is None or "origin_run_id" not in att:
        return None
    origins = [text(o)[:12] for o in att["origin_run_id"]]
    runs = sorted({o for o in origins if o})
    if not runs:
        return None
    return (f"Attention: {sum(1 for o in origins if o)} of {len(origins)} rows reused from run {', '.join(runs)} "
            "(same GPU, driver, versions, backends and shape; `profile --fresh` times them again)")


def short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _proton_cost_row(summary: Summary) -> list[tuple[str, str]]:
    """Proton's own cost, said as such: the step under Proton over the plain step, synchronised, and GPU ms per
    step with the steps queued back to back (no host sync), where its host cost per launch hides while the CPU
    runs ahead. Runs recorded before the back-to-back steps have only the first."""
    proton, plain = summary.get("step_ms_wall"), summary.get("plain_step_ms")
    if proton is None or plain is None:
        return []
    text = f"step {proton:.2f} ms under Proton ({proton / plain:.3f}x the plain step)"
    b2b, b2b_plain = summary.get("proton_back_to_back_ms"), summary.get("plain_back_to_back_ms")
    if b2b is not None and b2b_plain is not None:
        text += f"; back to back {b2b:.2f} vs {b2b_plain:.2f} ms ({b2b / b2b_plain:.3f}x)"
    return [("Proton's own cost", text)]


def _roof_rows(peaks: Peaks) -> list[tuple[str, str]]:
    """The roofs kernels are judged against, where each comes from, and the spec and published figures beside
    them as references only (a power-limited H100 reaches neither)."""
    def compute(key: str, label: str) -> str:
        value, source = peaks["tflops"].get(key), peaks["source"].get(key, "none")
        if source == "reached":
            reached = (peaks.get("reached") or {}).get(key)
            by = reached["by"] if reached else ""
            measured = (peaks.get("measured_tflops") or {}).get(key)
            text = f"{label} {rate(value)} TFLOP/s reached by {by}" + (
                f" (above the {rate(measured)} the ceilings stage measured)" if measured else "")
        else:
            text = f"{label} {rate(value)} TFLOP/s ({source})"
        spec = (peaks.get("spec") or {}).get(key)
        if source != "spec" and spec:
            published = (peaks.get("published") or {}).get(key)
            text += f"; spec {rate(spec)} at the maximum clock" + (f", published {rate(published)}" if published
                                                                  else "")
        return text
    eight_bit = peaks["source"].get("flops8") in ("measured", "reached")   # the run has 8-bit work, or measured it
    rows = [("compute roofs", "; ".join(([compute("flops8", "8-bit")] if eight_bit else []) +
                                        [compute("flops16", "bf16"), compute("flops32", "fp32")]))]
    memory = f"DRAM {num(peaks['dram_gbps'], '{:.0f}')} GB/s ({peaks['source']['dram_gbps']})"
    if peaks.get("l2_gbps"):
        l2_by = peaks.get("reached_l2")
        memory += f", L2 {num(peaks['l2_gbps'], '{:.0f}')} GB/s " + (
            f"reached by {l2_by['by']}" if l2_by else "(measured)")
    rows.append(("memory roofs", memory))
    if peaks.get("measured_in"):
        rows.append(("ceilings", f"reused from run {peaks['measured_in'][:12]} (same GPU, driver, versions and GEMM "
                                 "shapes; `profile --fresh` measures them again)"))
    return rows


def unpriced_line(unpriced: dict | None) -> str:
    """'none: every kernel has flops or bytes', or the share of GPU time without a price and its longest
    kernel with why (the rest in --json)."""
    if not unpriced or not unpriced["kernels"]:
        return "none: every kernel has flops or bytes"
    first, n = unpriced["kernels"][0], len(unpriced["kernels"])
    more = f" and {n - 1} more (--json)" if n > 1 else ""
    return (f"{unpriced['pct_of_gpu_time']:.1f}% of GPU time ({unpriced['ms_per_step']:.2f} ms/step): "
            f"{first['display']} ({first['pct_of_gpu_time']:.1f}%: {first['reason']}){more}")


def _ms_or_s(ms: float) -> str:
    return f"{ms / MS_PER_S:.1f} s" if ms >= MS_PER_S else f"{ms:.0f} ms"


def _compile_row(summary: Summary) -> list[tuple[str, str]]:
    """How the model compiled and how many graphs Dynamo built: with several sizes, whether a size recompiled
    (its first step as long as a compile) or reused a graph. Runs recorded before it have none."""
    c = summary.get("compile") or {}
    if "graphs_compiled" not in c:
        return []
    n = c["graphs_compiled"]
    text = f"{c.get('how', '?')}, {'dynamic' if c.get('dynamic') else 'static'} shapes, {n} graph{'s' if n != 1 else ''}"
    firsts = c.get("first_step_ms_by_size") or {}
    if firsts:
        text += "; first step " + ", ".join(f"{_ms_or_s(ms)} at {size}" for size, ms in firsts.items())
    elif c.get("first_step_ms") is not None:
        text += f"; first step {_ms_or_s(c['first_step_ms'])}"
    return [("compile", text)]


def summary_rows(summary: Summary) -> list[tuple[str, str]]:
    """The run summary as (label, value) lines, the same in the terminal and in HTML."""
    peaks = summary["peaks"]
    rows = [
        ("target / GPU", f"{summary['target']} on {summary['gpu']}"),
        ("step (plain)", f"{num(summary['plain_step_ms'], '{:.2f}')} ms, {summary['steps']} steps (no profiler: "
         "the launch gap is judged from it)"),
        *_proton_cost_row(summary),
        ("GPU clock / power", telemetry_line(summary.get("telemetry"))),
        *_compile_row(summary),
        ("GPU kernel time per step", f"{summary['gpu_kernel_ms_per_step']:.2f} ms"),
        ("work per step / overall", f"{summary['tflops_per_step']:.1f} TFLOP, "
         f"{rate(summary['overall_tflops'])} TFLOP/s over kernel time"),
        ("kernels", f"{summary['kernels']} ({summary['inductor_kernels']} Inductor, "
         f"{summary['inductor_annotated']} annotated)"),
        ("unpriced", unpriced_line(summary.get("unpriced"))),
        *_roof_rows(peaks),
    ]
    if summary.get("sizes"):   # a run of several input sizes: what its "step" is
        names = ", ".join(s["size"] for s in summary["sizes"])
        ncu = f"; ncu at {summary['ncu_at_size']}" if summary.get("ncu_at_size") else ""
        rows.append(("input sizes", f"{names} (a step: one call at each size{ncu})"))
    head = (summary.get("headroom") or {}).get("by_category", {})
    for cat, c in summary["by_category"].items():
        room = f"  headroom {head[cat]:.2f}" if cat in head else ""
        count = f"{c['kernels']} kernel" + ("" if c["kernels"] == 1 else "s")
        rows.append((f"  {cat}", f"{c['step_ms']:.2f} ms/step  {c['pct']:.1f}%  "
                     f"{rate(c['tflops'] or None)} TFLOP/s  ({count}){room}"))
    return rows + phase_rows(summary.get("phases"))


def phase_rows(phases: dict | None) -> list[tuple[str, str]]:
    """A training run's phases: GPU time, work and launches per step, and the allocator's peak in each."""
    if not phases:
        return []
    rows = [("training phases", "GPU kernel time, work and launches per step; peak: torch.cuda.max_memory_allocated "
                                "while the phase ran")]
    for name, p in phases.items():
        peak = p.get("peak_memory_bytes")
        memory = f"  peak {peak / BYTES['GiB']:.2f} GiB" if peak is not None else ""
        rows.append((f"  {name}", f"{p['ms_per_step']:.2f} ms/step  {p['pct_of_gpu_time']:.1f}%  "
                                  f"{p['tflop_per_step']:.2f} TFLOP  {p['gb_per_step']:.2f} GB  "
                                  f"{rate(p['tflops'] or None)} TFLOP/s  {p['launches_per_step']:.0f} launches{memory}"))
        if communication_line(p):   # a training step on several ranks: its NCCL time as waiting and moving
            rows.append(("    of it", communication_line(p)))
    return rows
