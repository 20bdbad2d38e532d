"""The HTML report's sections that the terminal prints from its own tables: what Nsight Compute did not profile
(terminal.ncu_left_out), and the roofline's numbered points. The same numbers, as html.table() rows."""
from __future__ import annotations

import pandas as pd

from .format import num, rate, text
from .terminal import NO_ROW, NOT_PROFILED


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
