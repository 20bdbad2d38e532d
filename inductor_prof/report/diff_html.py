"""`diff --html`: one self-contained page (no scripts, no network), rendered by jinja2 with autoescaping on,
from the same document `--json` prints."""
from __future__ import annotations

import math

import jinja2

from ..analysis.diff import Diff
from .diff_export import to_dict

_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>inductor-prof diff</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.4em 0 1.4em}
th,td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th:first-child,td:first-child,td.l{text-align:left}
.slower{color:#b00}.faster{color:#070}.new{color:#a60}.removed{color:#06a}.warn{color:#a60}.dim{color:#777}
.fail{color:#b00;font-weight:bold}.pass{color:#070}
</style></head><body>
<h1>inductor-prof diff</h1>
<p>A: <code>{{ d.a }}</code><br>B: <code>{{ d.b }}</code></p>
{% for w in d.warnings %}<p class="warn">warning: {{ w }}</p>{% endfor %}
{% if d.changed_settings %}<p class="dim">changed: {{ d.changed_settings | join("; ") }}</p>{% endif %}
{% macro missing(view) %}{% for m in d.missing if m.view == view %}<p class="warn">{{ view }}: {{ m.what }}</p>{% endfor %}{% endmacro %}

<h2>Step and GPU time (ms per step)</h2>
<table><tr><th></th><th>A</th><th>B</th><th>Δ ms</th><th>Δ %</th><th>noise %</th><th>verdict</th></tr>
{% for r in d.steps %}<tr><td>{{ r.what }}{% if r.gated %} (gated){% endif %}</td><td>{{ r.a|num(2) }}</td><td>{{ r.b|num(2) }}</td>
<td>{{ r.delta|num(2, "+") }}</td><td>{{ r.change_pct|num(1, "+") }}</td><td>{{ r.noise_pct|num(1) }}</td><td class="l {{ r.verdict|replace(' ', '-') }}">{{ r.verdict }}</td></tr>
{% endfor %}</table>{{ missing("steps") }}

<h2>Time by category (ms per step)</h2>
{% if d.categories %}<table><tr><th>category</th><th>A</th><th>B</th><th>Δ ms</th><th>Δ %</th><th>noise %</th><th>verdict</th><th>kernels</th></tr>
{% for r in d.categories %}<tr><td>{{ r.what }}</td><td>{{ r.a|num(2) }}</td><td>{{ r.b|num(2) }}</td><td>{{ r.delta|num(2, "+") }}</td>
<td>{{ r.change_pct|num(1, "+") }}</td><td>{{ r.noise_pct|num(1) }}</td><td class="l {{ r.verdict|replace(' ', '-') }}">{{ r.verdict }}</td><td>{{ r.kernels_a }}&rarr;{{ r.kernels_b }}</td></tr>
{% endfor %}</table>{% endif %}{{ missing("categories") }}

{% macro kernel_table(rows) %}<table><tr><th>kernel (A)</th><th>kernel (B)</th><th>matched by</th><th>kind</th><th>A ms</th><th>B ms</th>
<th>Δ ms</th><th>Δ %</th><th>noise %</th><th>share %</th><th>verdict</th></tr>
{% for r in rows %}<tr><td title="{{ r.name_a or '' }}">{{ r.display if r.name_a else "" }}</td>
<td class="l" title="{{ r.name_b or '' }}">{% if r.name_b == r.name_a %}={% elif r.name_a %}{{ r.name_b or "" }}{% else %}{{ r.display }}{% endif %}</td>
<td class="l">{{ r.matched_by }}</td><td class="l">{{ r.kind }}</td><td>{{ r.ms_a|num(3) }}</td><td>{{ r.ms_b|num(3) }}</td>
<td>{{ r.delta_ms|num(3, "+") }}</td><td>{{ r.change_pct|num(1, "+") }}</td><td>{{ r.noise_pct|num(1) }}</td><td>{{ r.share_pct|num(1) }}</td>
<td class="l {{ r.verdict|replace(' ', '-') }}">{{ r.verdict }}</td></tr>
{% endfor %}</table>{% endmacro %}
<h2>Matched kernels (ms per step, largest |Δ| first)</h2>
{% if d.kernels %}{{ kernel_table(d.kernels) }}{% endif %}
{% if d.new_kernels or d.removed_kernels %}<h2>New (only in B) and removed (only in A) kernels</h2>
{{ kernel_table(d.new_kernels + d.removed_kernels) }}{% endif %}{{ missing("kernels") }}

<h2>Attention backends (median ms at each shape; no spread recorded, so no verdict)</h2>
{% if d.attention %}<table><tr><th>backend</th><th>shape</th><th>A ms</th><th>B ms</th><th>Δ %</th><th>TFLOP/s A</th><th>TFLOP/s B</th></tr>
{% for r in d.attention %}<tr><td>{{ r.backend }}</td><td>{{ r.shape }}</td><td>{{ r.ms_a|num(3) }}</td><td>{{ r.ms_b|num(3) }}</td>
<td>{{ r.change_pct|num(1, "+") }}</td><td>{{ r.tflops_a|num(0) }}</td><td>{{ r.tflops_b|num(0) }}</td></tr>
{% endfor %}</table>{% endif %}{{ missing("attention") }}

<p class="dim">{{ d.noise_rule }}</p>
{% if d.gate.fail_above_pct is not none %}
<p class="{{ 'fail' if d.gate.failed else 'pass' }}">gate (--fail-above {{ d.gate.fail_above_pct }}% beyond noise, step and kernels
&ge; {{ d.gate.min_share_pct }}% of the step): {{ "FAILED" if d.gate.failed else "passed" }}</p>
{% if d.gate.regressions %}<ul class="fail">{% for r in d.gate.regressions %}<li>{{ r }}</li>{% endfor %}</ul>{% endif %}
{% endif %}
</body></html>
"""


def _num(v, digits: int, sign: str = "") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return f"{v:{sign},.{digits}f}"


def render_html(diff: Diff) -> str:
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters["num"] = _num
    return env.from_string(_TEMPLATE).render(d=to_dict(diff))
