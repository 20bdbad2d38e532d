"""Checks of one run file against another, for damage that parses: a file cut at a line end reads as a shorter
file, and only what another file of the run says shows it."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd

_SAVED = re.compile(r"\((\d+) of (\d+) ok\)\s*$")   # the attention stage's last line: "saved to ... (7 of 12 ok)"


def recorded_rows(manifest: dict[str, Any]) -> dict[str, int]:
    """What the stages recorded of the rows they wrote (manifest stages): library_ops.csv's launches,
    attention_shapes.json's calls, attention.csv's rows. Runs that did not record one lack its key."""
    stages = manifest.get("stages") or {}
    lib, att = stages.get("library_ops") or {}, stages.get("attention") or {}
    out = {k: lib[key] for k, key in (("library_ops", "library_launches"), ("calls", "attention_calls"))
           if isinstance(lib, dict) and isinstance(lib.get(key), int) and not isinstance(lib.get(key), bool)}
    saved = _SAVED.search(str(att.get("last_line") or "")) if isinstance(att, dict) else None
    if saved:
        out["attention"], out["attention_ok"] = int(saved.group(2)), int(saved.group(1))
    return out


def row_count(path: Path, held: int, recorded: int | None, what: str, where: str) -> str | None:
    """A warning when a file holds another number of rows than its stage recorded writing."""
    if recorded is None or held == recorded:
        return None
    return (f"{path} holds {held} {what}, the run recorded {recorded} ({where} in manifest.json): it was cut, "
            "edited or copied from another run")


def library_calls_short(ops: pd.DataFrame | None, calls_by_name: pd.Series, n_steps: int,
                        path: Path) -> tuple[pd.DataFrame | None, str | None]:
    """library_ops.csv holds every call of one step: a library kernel with fewer rows there than the timed steps
    ran it per step lost rows (the file cut, rows deleted), and its flops would be those of the rows left. Its
    rows are left out (the kernel shown without flops and bytes), with one warning naming the file.
    calls_by_name: the timed steps' launches per kernel name (kernels.by_name, summed once for the kernel table
    too: a group-by of a large run's 250,000 rows)."""
    if ops is None or not len(ops) or "kernel" not in ops.columns or not len(calls_by_name):
        return ops, None
    # plain dicts: a Series lookup per kernel cost more than the group-by (and a count of the listed names, a
    # group-by of 23,000 rows of text in a large run)
    listed = Counter(ops["kernel"].dropna().tolist())
    ran = (calls_by_name / max(n_steps, 1)).to_dict()
    short = [k for k in listed if k in ran and listed[k] != ran[k]]
    if not short:
        return ops, None
    named = ", ".join(f"{k[:60]} ({listed[k]} of {ran[k]:g})" for k in short[:3])
    more = f" and {len(short) - 3} more" if len(short) > 3 else ""
    return (ops[~ops["kernel"].isin(short)].reset_index(drop=True),
            f"{path} lists other numbers of calls than the timed steps ran per step for {len(short)} kernels "
            f"({named}{more}): rows are missing or added; those kernels are shown without flops and bytes")
