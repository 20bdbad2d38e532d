"""`diff --json`: the whole comparison as one JSON document, and the document `--html` and `--markdown` render.

SCHEMA_VERSION is the document's version: it goes up when a field is removed, renamed or changes meaning (a
reader checks it); new fields may appear without it changing. docs/ci-gate.md ("Regression gate in CI") lists the
fields."""
from __future__ import annotations

import pandas as pd

from ..analysis.diff import Diff
from ..analysis.diff_gate import Failure
from ..analysis.noise import NOISE_RULE
from .experiments import clean, experiment_line
from .export import json_text, records

SCHEMA_VERSION = 1
PASSED, FAILED, NOT_GATED = "passed", "failed", "not gated"


def _rows(df: pd.DataFrame | None) -> list[dict]:
    return records(df, []) if df is not None else []


def _flagged(df: pd.DataFrame | None, failing: set[int | None]) -> pd.DataFrame | None:
    """df with `fails_gate`: whether the row is one the gate failed on."""
    if df is None:
        return None
    return df.assign(fails_gate=[i in failing for i in df.index])


def verdict(diff: Diff, fails: list[Failure]) -> str:
    if not diff.gated:
        return NOT_GATED
    return FAILED if fails else PASSED


def gate(diff: Diff, fails: list[Failure]) -> dict:
    """The gate's part of the document; `fails` is diff.failures()."""
    return {
        "verdict": verdict(diff, fails), "fail_above_pct": diff.fail_above, "min_share_pct": diff.min_share,
        "failed": bool(fails), "exit_code": 1 if fails else 0,
        "failing": [{"table": f.table, "what": f.what, "reason": f.reason, "detail": f.detail, "line": f.line}
                    for f in fails],
        "regressions": [f.line for f in fails], "gaps": diff.gaps,
        "allow_different": diff.allow_different,
        **({"fail_above_spread_points": diff.fail_above_spread, "fail_above_comm_pct": diff.fail_above_comm}
           if diff.ranks is not None else {}),
    }


def to_dict(diff: Diff) -> dict:
    fails = diff.failures()
    steps = _flagged(diff.steps, {f.row for f in fails if f.table == "steps"})
    k = _flagged(diff.kernels, {f.row for f in fails if f.table == "kernels"})
    by_status = {s: k[k["status"] == s] if k is not None and len(k) else None for s in ("matched", "new", "removed")}
    return {
        "schema_version": SCHEMA_VERSION,
        "a": diff.a, "b": diff.b, "runs": diff.runs, "warnings": diff.warnings, "changed_settings": diff.changes,
        "missing": [{"view": v, "what": w} for v, w in diff.missing], "noise_rule": NOISE_RULE,
        "steps": _rows(steps), **({"sizes": _rows(diff.sizes)} if diff.sizes is not None else {}),
        "categories": _rows(diff.categories),
        "kernels": _rows(by_status["matched"]), "new_kernels": _rows(by_status["new"]),
        "removed_kernels": _rows(by_status["removed"]), "attention": _rows(diff.attention),
        "gate": gate(diff, fails), **({"ranks": diff.ranks} if diff.ranks is not None else {}),
        **({"applied_experiment": applied_experiment(diff.experiment)} if diff.experiment else {}),
    }


def applied_experiment(found: dict) -> dict:
    """The experiment one run applies (analysis/diff_experiment.py): which run, its change, how it was told, and
    the line that says it with what `try` measured."""
    e = found["experiment"]
    line = (f"{found['run']} is {found['of']} with experiment {e['name']} applied: {e.get('what', '')} "
            f"(apply: {e.get('apply', '')}); try measured {experiment_line(e)}")
    return clean({"run": found["run"], "of": found["of"], "name": e["name"], "what": e.get("what", ""),
                  "apply": e.get("apply", ""), "profile_flag": e.get("profile_flag", ""),
                  "matched_by": found["matched_by"], "status": e.get("status"), "timing": e.get("timing"),
                  "line": line})


def to_json(diff: Diff) -> str:
    return json_text(to_dict(diff))
