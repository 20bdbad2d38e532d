"""The HTML report's source view of each harvested Inductor kernel: its file(s), and where the source pass
recorded the kernel (ncu/source/), each line with its share of the warp samples (a red heat column), of the
instructions, the L2 traffic its global accesses asked for (a blue one, `*` where they were not coalesced) and
its top stall reasons; beside it the kernel's model lines, FX nodes and launch config. The numbers are
analysis/inspect.py's view (the ranked rows `inspect` prints), laid out by line number here."""
from __future__ import annotations

from pathlib import PurePath
from typing import Any

import pandas as pd

from ..analysis.inspect import collect_command
from ..rundir import RunDir
from ..runfiles import kernel_records, kernel_source
from ..units import MB
from .format import num
from .inspect import EXCESS_SHOWN, excess_note, modules_text, stalls_text

HOT, L2 = (214, 39, 40), (31, 119, 180)   # the heat columns' colours: samples red, L2 traffic blue
STALLS_WIDTH = 48                          # characters of a line's top stall reasons


def _heat(rgb: tuple[int, int, int], share: float) -> str:
    """A background whose strength is `share` (0..1) of the hottest line's; transparent at 0."""
    return f"rgba({rgb[0]}, {rgb[1]}, {rgb[2]}, {0.08 + 0.72 * share:.2f})" if share > 0 else "transparent"


def _line(r: dict | None, label: str, code: str, top_samples: float, top_l2: float) -> dict:
    if r is None:
        return {"label": label, "code": code, "samples_pct": None, "inst_pct": None, "l2_bytes": None, "l2": "",
                "stalls": "", "heat": "transparent", "l2_heat": "transparent"}
    l2 = r["l2_bytes"] or 0
    excess = "*" if (r.get("l2_excess_pct") or 0) >= EXCESS_SHOWN else ""
    return {"label": label, "code": code, "samples_pct": r["samples_pct"], "inst_pct": r["inst_pct"],
            "l2_bytes": r["l2_bytes"] or None, "l2": f"{num(l2 / MB)}{excess}" if l2 else "",
            "stalls": stalls_text(r["stalls"], r["samples"], STALLS_WIDTH) if r["samples"] else "",
            "heat": _heat(HOT, (r["samples_pct"] or 0) / top_samples if top_samples else 0),
            "l2_heat": _heat(L2, l2 / top_l2 if top_l2 else 0)}


def heat_rows(sc: dict, text: str) -> dict:
    """Every line of the kernel's file `text` with its row of `sc` (a by-line source_view of analysis/inspect)
    where it has one, then the rows of inlined helpers' lines (named file.py:N) and of instructions without a
    line."""
    rows = sc["rows"]
    top_samples = max((r["samples_pct"] or 0 for r in rows), default=0)
    top_l2 = max((r["l2_bytes"] or 0 for r in rows), default=0)
    own = {r["line"]: r for r in rows if r.get("kernel_file")}
    out = [_line(own.get(i), str(i), code, top_samples, top_l2) for i, code in enumerate(text.splitlines(), 1)]
    out += [_line(r, r["label"], r.get("code") or "", top_samples, top_l2) for r in rows if not r.get("kernel_file")]
    return {"rows": out, "note": (excess_note(sc) or "").removeprefix("* ")}


def _report_of(views: list[dict], file: str | None) -> dict | None:
    """The by-line source counters of harvested file `file` (ncu replayed a file of the same name)."""
    for sc in views:
        if "error" not in sc and sc["by"] == "line" and file and sc.get("kernel_file") \
                and PurePath(sc["kernel_file"]).name == PurePath(file).name:
            return sc
    return None


def kernel_sources(run: RunDir, df: pd.DataFrame, views: dict[str, dict], rows: dict[str, str],
                   inspect_ids: dict[str, str]) -> list[dict]:
    """Each harvested Inductor kernel (in the table's order, then those never launched): its fused ATen ops,
    launch config, provenance and source file(s), each file with its per-line counters where `views` (kernel
    name -> analysis.inspect view) has them; a name Inductor gave two kernels shows both files. `rows`: kernel
    name -> its kernel-table row's id; `inspect_ids`: kernel name -> its ranked per-line section's id."""
    by_name: dict[str, list[dict]] = {}
    for rec in kernel_records(run):
        by_name.setdefault(rec["name"], []).append(rec)
    order = [n for n in df.get("name", []) if n in by_name] + sorted(set(by_name) - set(df.get("name", [])))
    step_ms = dict(zip(df["name"], df["step_ms"])) if len(df) else {}
    provenance = dict(zip(df["name"], df["provenance"])) if "provenance" in df.columns else {}
    out = []
    for i, name in enumerate(order):
        counters = (views.get(name) or {}).get("source_counters") or []
        files = []
        for rec in by_name[name]:
            text = kernel_source(run, rec)
            sc = _report_of(counters, rec.get("file"))
            files.append({"file": rec.get("file") or "(no file recorded)", "source": text,
                          "heat": heat_rows(sc, text) if sc is not None and text is not None else None})
        first = by_name[name][0]
        prov: Any = provenance.get(name) if isinstance(provenance.get(name), dict) else first.get("provenance") or {}
        out.append({"id": f"src-{i}", "name": name, "kind": first.get("kind"),
                    "step_ms": f"{num(step_ms[name], '{:.3f}')} ms/step" if name in step_ms else
                    "not launched in the timed steps",
                    "aten_ops": first.get("aten_ops") or [], "source_nodes": first.get("source_nodes") or [],
                    "launch_config": first.get("launch_config") or {}, "files": files,
                    "heat": any(f["heat"] for f in files), "row": rows.get(name), "inspect": inspect_ids.get(name),
                    "collect": collect_command(str(run.root), name) if name in step_ms else None,
                    "provenance": prov, "modules": modules_text(prov.get("modules") or [], prov.get("block"))})
    return out
