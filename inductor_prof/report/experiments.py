"""The experiments of `inductor-prof try` in the report, under the advice items they answer: terminal lines, the
rows of the CSV and HTML tables, the JSON document (experiments.json with NaN as null)."""
from __future__ import annotations

import math
import textwrap

from rich.console import Console

ROW_COLUMNS = ["experiment", "answers", "status", "before_ms", "after_ms", "ratio", "noise_ms", "verdict",
               "predicted_ms", "advice_verdict", "device", "output_error", "output_tolerance", "output_dtype", "kernels_before",
               "kernels_after", "apply", "profile_flag", "reason"]


def clean(obj):
    """NaN and inf as None: JSON has no NaN."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: clean(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [clean(v) for v in obj]
    return obj


def rows(doc: dict) -> list[dict]:
    """One flat row per experiment (ROW_COLUMNS); numbers it did not get are None."""
    out = []
    for e in doc.get("experiments", []):
        t, o, k = e.get("timing") or {}, e.get("outputs") or {}, e.get("kernels") or {}
        out.append({"experiment": e["name"], "answers": "; ".join(e.get("answers") or []), "status": e["status"],
                    "before_ms": (t.get("before") or {}).get("median_ms"),
                    "after_ms": (t.get("after") or {}).get("median_ms"), "ratio": t.get("ratio"),
                    "noise_ms": t.get("noise_ms"), "verdict": t.get("verdict"), "predicted_ms": e.get("predicted_ms"),
                    "advice_verdict": e.get("advice_verdict"), "device": e.get("device"), "output_error": o.get("error"),
                    "output_tolerance": o.get("tolerance"), "output_dtype": o.get("dtype"),
                    "kernels_before": k.get("before"), "kernels_after": k.get("after"), "apply": e.get("apply", ""),
                    "profile_flag": e.get("profile_flag", ""), "reason": e.get("reason", "")})
    return clean(out)


def _num(v, fmt: str) -> str:
    return "n/a" if v is None or (isinstance(v, float) and not math.isfinite(v)) else fmt.format(v)


def experiment_line(e: dict) -> str:
    """'cuda_graphs: 1.501 -> 0.864 ms/step (0.576x; noise ±0.010 ms), faster: confirmed; outputs within
    bfloat16's 0.031 (0)'; a failed one: 'name: failed (why)'."""
    t = e.get("timing")
    if not t:
        return f"{e['name']}: {e['status']} ({e.get('reason') or 'no reason recorded'})"
    o = e.get("outputs") or {}
    said = (f"{e['name']}: {_num(t['before']['median_ms'], '{:.3f}')} -> {_num(t['after']['median_ms'], '{:.3f}')} "
            f"ms/step ({_num(t['ratio'], '{:.3f}')}x; noise ±{_num(t['noise_ms'], '{:.3f}')} ms), {t['verdict']}")
    said += f": {e['advice_verdict']}" if e.get("advice_verdict") else ""
    if e["status"] == "ok":
        said += f"; outputs within {o.get('dtype')}'s {_num(o.get('tolerance'), '{:.3g}')} ({_num(o.get('error'), '{:.3g}')})"
    else:
        said += f"; {e['status']}: {e.get('reason', '')}"
    return said


def moved_line(e: dict, top: int = 3) -> str | None:
    moved = (e.get("kernels_moved") or [])[:top]
    if not moved:
        return None
    k = e.get("kernels") or {}
    parts = [f"{m['name'][:60]} {m['delta_us']:+.1f}" for m in moved]
    return (f"kernels {k.get('before')} -> {k.get('after')}, {_num(k.get('before_us'), '{:.0f}')} -> "
            f"{_num(k.get('after_us'), '{:.0f}')} µs GPU a step; moved most (µs/step): " + "; ".join(parts))


def lines(doc: dict) -> list[str]:
    """The section: each advice item tried, with the experiments whose first answered item it is below it (an
    experiment answering several is shown once, naming the others), then those answering none of them."""
    exps = doc.get("experiments", [])
    devices = sorted({e["device"] for e in exps if e.get("device")})
    on = f" on {', '.join(devices)}" if devices else ""
    out = [f"Experiments{on} (inductor-prof try: the run's configuration and the change, alternating in one process, "
           f"{doc.get('rounds')} rounds x {doc.get('steps')} synchronised steps each)"]
    placed = set()
    for item in doc.get("advice", []):
        mine = [e for e in exps if e["name"] not in placed and item["what"] in (e.get("answers") or [])]
        if not mine:
            continue
        out.append(f"  {item['what'][:90]} ({item['headroom_ms_per_step']:.2f} ms/step; advice: {item.get('do', '')})")
        for e in mine:
            placed.add(e["name"])
            out += _experiment_lines(e, [w for w in e["answers"] if w != item["what"]])
    rest = [e for e in exps if e["name"] not in placed]
    if rest:
        out.append("  (answering none of the advice items shown)")
        for e in rest:
            out += _experiment_lines(e, [])
    return out


def _experiment_lines(e: dict, also: list[str]) -> list[str]:
    out = [f"    {experiment_line(e)}"]
    if also:
        out.append(f"      also answers: {'; '.join(w[:60] for w in also)}")
    moved = moved_line(e)
    if moved:
        out.append(f"      {moved}")
    if e.get("apply"):
        out.append(f"      apply: {e['apply']}")
    for line in e.get("then") or []:   # the run with the change applied, and its diff against this one
        out.append(f"      then: {line}")
    return out


def render(doc: dict, console: Console) -> None:
    """Each line wrapped to the console's width, continued two spaces deeper than it starts."""
    for line in lines(doc):
        lead = " " * (len(line) - len(line.lstrip(" ")))
        for part in textwrap.wrap(line, max(console.width, 20), initial_indent="", subsequent_indent=lead + "  ",
                                  break_on_hyphens=False) or [""]:
            console.print(part, markup=False, highlight=False, soft_wrap=True)
