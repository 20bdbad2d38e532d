"""`diff --html`: one self-contained page (no scripts, no network), rendered by jinja2 with autoescaping on,
from the same document `--json` prints: Python lays out each section's cells, the template only draws
tables."""
from __future__ import annotations

import math
from dataclasses import dataclass

import jinja2

from ..analysis.diff import Diff
from ..analysis.diff_gate import scopes
from .diff_export import NOT_GATED, to_dict

_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>inductor-prof diff</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.4em 0 1.4em}
th,td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th:first-child,td:first-child,td.l{text-align:left}
td:first-child,td.l{white-space:normal;overflow-wrap:anywhere}td:first-child{min-width:12em;max-width:26em}
.slower,.fail{color:#b00}.faster,.pass{color:#070}.new,.warn{color:#a60}.removed{color:#06a}.dim{color:#777}
</style></head><body>
<h1>inductor-prof diff</h1>
<p>A: <code>{{ d.a }}</code><br>B: <code>{{ d.b }}</code></p>
{% for w in d.warnings %}<p class="warn">warning: {{ w }}</p>{% endfor %}
{% if d.changed_settings %}<p class="dim">changed: {{ d.changed_settings | join("; ") }}</p>{% endif %}
{% if d.get("applied_experiment") %}<p><b>{{ d["applied_experiment"]["line"] }}</b></p>{% endif %}
{% for s in sections %}<h2>{{ s.title }}</h2>
{% if s.rows %}<table><tr>{% for h in s.headers %}<th>{{ h }}</th>{% endfor %}</tr>
{% for row in s.rows %}<tr>{% for c in row %}<td{% if c.css %} class="{{ c.css }}"{% endif %}
{%- if c.title %} title="{{ c.title }}"{% endif %}>{{ c.text }}</td>{% endfor %}</tr>
{% endfor %}</table>{% elif not s.missing %}<p class="dim">none</p>{% endif %}
{% for m in s.missing %}<p class="warn">{{ m }}</p>{% endfor %}
{% endfor %}
<p class="dim">{{ d.noise_rule }}</p>
{% for line in gate %}<p class="{{ 'fail' if d.gate.failed else 'pass' }}">{{ line }}</p>{% endfor %}
</body></html>
"""


@dataclass
class Cell:
    text: str
    css: str = ""
    title: str = ""


@dataclass
class Section:
    title: str
    headers: list[str]
    rows: list[list[Cell]]
    missing: list[str]


def _num(v, digits: int, sign: str = "") -> Cell:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return Cell("-")
    return Cell(f"{v:{sign},.{digits}f}")


def _verdict(v: str) -> Cell:
    return Cell(v, css="l " + v.replace(" ", "-"))


def _change(r: dict, a: str, b: str, delta: str, digits: int) -> list[Cell]:
    return [_num(r[a], digits), _num(r[b], digits), _num(r[delta], digits, "+"), _num(r["change_pct"], 1, "+")]


def _kernel_row(r: dict) -> list[Cell]:
    name_a = Cell(r["display"] if r["name_a"] else "", title=r["name_a"] or "")
    same = r["name_b"] == r["name_a"]
    name_b = Cell("=" if same else (r["name_b"] if r["name_a"] else r["display"]) or "", "l", r["name_b"] or "")
    return [name_a, name_b, Cell(r["call"], "l", f"{r['op']} {r['dims_a']} -> {r['dims_b']}" if r["call"] else ""),
            Cell(r["matched_by"], "l"), Cell(str(r["kind"])),
            *_change(r, "ms_a", "ms_b", "delta_ms", 3), _num(r["noise_pct"], 1), _num(r["share_pct"], 1),
            _verdict(r["verdict"])]


def sections(d: dict) -> list[Section]:
    missing = {v: [f"{v}: {m['what']}" for m in d["missing"] if m["view"] == v]
               for v in ("steps", "categories", "kernels", "attention")}
    gated = d["gate"]["fail_above_pct"] is not None
    kernel_headers = ["kernel (A)", "kernel (B)", "library call (op, shapes)", "matched by", "kind", "A ms", "B ms",
                      "Δ ms", "Δ %", "noise %", "share %", "verdict"]
    return [
        Section("Step and GPU time (ms per step)", ["", "A", "B", "Δ ms", "Δ %", "noise %", "verdict"],
                [[Cell(r["what"] + (" (gated)" if r["gated"] and gated else "")), *_change(r, "a", "b", "delta", 2),
                  _num(r["noise_pct"], 1), _verdict(r["verdict"])] for r in d["steps"]], missing["steps"]),
        Section("Time by category (ms per step)", ["category", "A", "B", "Δ ms", "Δ %", "noise %", "verdict",
                                                   "kernels"],
                [[Cell(r["what"]), *_change(r, "a", "b", "delta", 2), _num(r["noise_pct"], 1),
                  _verdict(r["verdict"]), Cell(f"{r['kernels_a']}→{r['kernels_b']}")] for r in d["categories"]],
                missing["categories"]),
        Section("Matched kernels and library calls (ms per step, largest |Δ| first)", kernel_headers,
                [_kernel_row(r) for r in d["kernels"]], []),
        Section("New (only in B) and removed (only in A) kernels and library calls", kernel_headers,
                [_kernel_row(r) for r in d["new_kernels"] + d["removed_kernels"]], missing["kernels"]),
        Section("Attention backends (median ms at each shape; no spread recorded, so no verdict)",
                ["backend", "shape", "A ms", "B ms", "Δ %", "TFLOP/s A", "TFLOP/s B"],
                [[Cell(str(r["backend"])),
                  Cell(str(r["shape"]) + (" fwd+bwd" if r.get("pass") == "forward+backward" else ""), "l"),
                  _num(r["ms_a"], 3), _num(r["ms_b"], 3),
                  _num(r["change_pct"], 1, "+"), _num(r["tflops_a"], 0), _num(r["tflops_b"], 0)]
                 for r in d["attention"]], missing["attention"]),
    ]


def _gate(d: dict) -> list[str]:
    g = d["gate"]
    if g["verdict"] == NOT_GATED:
        return []
    said = scopes(g["fail_above_pct"], g["min_share_pct"], g.get("fail_above_spread_points"),
                  g.get("fail_above_comm_pct"))
    head = f"gate ({'; '.join(said)}): {'FAILED' if g['failed'] else 'passed'}"
    return [head, *g["regressions"]]


def render_html(diff: Diff) -> str:
    d = to_dict(diff)
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(_TEMPLATE).render(d=d, sections=sections(d), gate=_gate(d))
