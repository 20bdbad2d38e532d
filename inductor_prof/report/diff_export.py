"""`diff --json`: the whole comparison as one JSON document."""
from __future__ import annotations

import pandas as pd

from ..analysis.diff import Diff
from ..analysis.noise import NOISE_RULE
from .export import json_text, records


def _rows(df: pd.DataFrame | None) -> list[dict]:
    return records(df, []) if df is not None else []


def to_dict(diff: Diff) -> dict:
    k = diff.kernels
    by_status = {s: k[k["status"] == s] if k is not None and len(k) else None for s in ("matched", "new", "removed")}
    bad = diff.regressions()
    return {
        "a": diff.a, "b": diff.b, "warnings": diff.warnings, "changed_settings": diff.changes,
        "missing": [{"view": v, "what": w} for v, w in diff.missing], "noise_rule": NOISE_RULE,
        "steps": _rows(diff.steps), **({"sizes": _rows(diff.sizes)} if diff.sizes is not None else {}),
        "categories": _rows(diff.categories),
        "kernels": _rows(by_status["matched"]), "new_kernels": _rows(by_status["new"]),
        "removed_kernels": _rows(by_status["removed"]), "attention": _rows(diff.attention),
        "gate": {"fail_above_pct": diff.fail_above, "min_share_pct": diff.min_share, "regressions": bad,
                 "failed": bool(bad), "gaps": diff.gaps},
    }


def to_json(diff: Diff) -> str:
    return json_text(to_dict(diff))
