"""The HTML report's sections that the terminal prints from its own tables: a multi-rank run's ranks and the
shown rank's collectives (report/ranks.py), what Nsight Compute did not profile (terminal.ncu_left_out), and
the roofline's numbered points. The same numbers, as html.table() rows."""
from __future__ import annotations

import pandas as pd

from ..analysis.ranks import RanksView
from .format import num, rate, text
from .ranks import _exit, _size, spread_line
from .terminal import NO_ROW, NOT_PROFILED


def ranks_view(view: RanksView, shown: int) -> dict:
    """The ranks' table, the spread line and rank `shown`'s collectives, as report/ranks.render prints them."""
    from .html import Col, table

    ranks = table(pd.DataFrame(view.rows), [
        Col("rank", "rank", "{:.0f}"), Col("exit", _exit),
        Col("step ms", "plain_step_ms", "{:.3f}"), Col("under Proton ms", "proton_step_ms", "{:.3f}"),
        Col("compute ms", "compute_ms", "{:.3f}"), Col("comm ms", "comm_ms", "{:.3f}"),
        Col("hidden %", "hidden_pct", "{:.1f}"), Col("exposed comm ms", "exposed_ms", "{:.3f}")])
    n = view.top.get("nproc") if view.top else len(view.rows)
    out = {"title": f"Ranks of {view.ranked.root} ({n} ranks; compute and communication: GPU time in one "
                    "torch.profiler step, hidden: NCCL time with compute running beside it)",
           "table": ranks, "spread": spread_line(view.spread), "shown": shown, "collectives": None,
           "no_collectives": None,
           "collectives_title": f"Collectives of rank {shown} (NCCL kernels in one torch.profiler step; busbw as "
                                "nccl-tests: all_reduce algbw x 2(n-1)/n, all_gather, reduce_scatter, all_to_all "
                                "x (n-1)/n; % of the all_reduce busbw measured in the ceilings stage)"}
    coll = view.collectives.get(shown)
    if coll is not None and len(coll):
        out["collectives"] = table(coll, [
            Col("collective", "collective"), Col("dtype", "dtype"), Col("message", lambda r: _size(r["bytes"])),
            Col("ranks", "group", "{:.0f}"), Col("calls", "calls", "{:.0f}"), Col("ms/step", "step_ms", "{:.3f}"),
            Col("µs a call", "avg_us", "{:.1f}"), Col("algbw GB/s", "algbw_gbps", "{:.1f}"),
            Col("busbw GB/s", "busbw_gbps", "{:.1f}"), Col("% of link", "pct_of_link", "{:.1f}")])
    elif shown in view.collectives:
        out["no_collectives"] = f"rank {shown}'s torch.profiler step ran no NCCL kernel"
    return out


def ncu_missed(df: pd.DataFrame) -> tuple[dict | None, str]:
    """What ncu did not profile among the kernels, in a run that has ncu rows (terminal.ncu_left_out): a table
    of those it tried or meant to (status, reason), and the line counting those it had no row for."""
    from .html import Col, table

    if "ncu_status" not in df or not df["ncu_status"].notna().any():
        return None, ""
    missed = df[df["ncu_status"].notna() & (df["ncu_status"] != "ok")]
    t = table(missed, [
        Col("kernel", "display", style="name"), Col("kind", "kind"),
        Col("status", lambda r: NOT_PROFILED.get(r["ncu_status"], str(r["ncu_status"]))),
        Col("reason", "ncu_reason", style="prose")]) if len(missed) else None
    no_row = df[df["ncu_status"].isna()]
    counts = no_row["origin"].value_counts() if "origin" in no_row else pd.Series(dtype=int)
    return t, "; ".join(f"{n} {NO_ROW.get(origin, f'{origin} kernels')}" for origin, n in counts.items())


def roofline_legend(points: pd.DataFrame, rows: dict[str, str]) -> list[dict]:
    """The roofline's numbered points (charts.numbered_points), each with its kernel-table row's id."""
    from .html import TAIL

    out = []
    for _, p in points.iterrows():
        d = text(p["display"])
        cut = len(d) - TAIL if len(d) > 2 * TAIL else 0
        out.append({"n": int(p["n"]), "display": d, "head": d[:cut] if cut else d, "tail": d[cut:] if cut else "",
                    "row": rows.get(p["name"], ""), "kind": text(p["kind"]), "bound": text(p["bound"]),
                    "step_ms": num(p["step_ms"], "{:.3f}"), "step_ms_v": repr(float(p["step_ms"])),
                    "tflops": rate(p["tflops"]), "tflops_v": repr(float(p["tflops"])),
                    "intensity": num(p["intensity"], "{:.2f}"), "intensity_v": repr(float(p["intensity"]))})
    return out
