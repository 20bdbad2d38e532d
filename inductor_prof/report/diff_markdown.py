"""`diff --markdown`: the comparison as GitHub-flavoured Markdown, written for a pull-request comment or a CI job
summary: the gate's verdict and what failed it, the step (plain and under Proton), the kernels and library calls
that moved most, then the rest folded away. Pure: rendered from the document `--json` prints (diff_export), the
numbers as it holds them (nothing is computed again here, only written).

Run paths, kernel names and messages are user text: kernel names and paths go in code spans, other text is
escaped, and a `|` inside a table cell is written `\\|` (GFM splits cells on it even inside code spans)."""
from __future__ import annotations

import math
import re

from ..analysis.diff_kernels import MATCH_NOTES
from .diff_export import FAILED, NOT_GATED, PASSED

MARKER = "<!-- inductor-prof diff -->"   # first line: a CI step finds (and updates) its earlier comment by it
HEADLINE = {FAILED: "❌ gate failed", PASSED: "✅ gate passed", NOT_GATED: "not gated"}
FAILS = "❌ "    # before the verdict of a row the gate failed on
EXIT_CODES = ("Exit codes of `inductor-prof diff --fail-above`: 0 passed; 1 failed (a regression above); 2 refused, "
              "nothing judged (bad input: a folder that is not a run, runs of different GPUs, targets or "
              "inductor-prof versions without `--allow-different`, a table the gate needs missing)")
_INLINE = re.compile(r"([\\`*_\[\]<>|~&])")        # what starts markup anywhere in a line
_LEADING = re.compile(r"^(\d*)([-+#>=.)])")       # what starts a block (list, heading, quote) at a line's start


def text(s, start: bool = False) -> str:
    """User text as Markdown that renders as itself, in one line: what would start markup escaped (`start`: the
    text starts a line or a list item, where `-`, `+`, `#`, `>`, `1.` start a block)."""
    s = _INLINE.sub(r"\\\1", " ".join(str(s).split()))
    return _LEADING.sub(r"\1\\\2", s) if start else s


def code(s, cell: bool = False) -> str:
    """`s` in a code span (a fence longer than any run of backticks in it); `cell`: inside a table cell."""
    s = " ".join(str(s).split())
    fence = "`" * (max((len(m) for m in re.findall(r"`+", s)), default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    span = f"{fence}{pad}{s}{pad}{fence}"
    return span.replace("|", "\\|") if cell else span


def num(v, fmt: str) -> str:
    """A number as the terminal writes it; "-" where the document holds none (null, NaN)."""
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else fmt.format(v)


def table(headers: list[str], align: str, rows: list[list[str]]) -> list[str]:
    """A GFM table; `align` one letter a column: l(eft) or r(ight)."""
    rule = {"l": ":--", "r": "--:"}
    return ["| " + " | ".join(headers) + " |", "|" + "|".join(rule[a] for a in align) + "|",
            *("| " + " | ".join(r) + " |" for r in rows)]


def _verdict(r: dict) -> str:
    return (FAILS if r.get("fails_gate") else "") + text(r["verdict"])


def _change(r: dict, a: str, b: str, delta: str, digits: int) -> list[str]:
    f = f"{{:.{digits}f}}"
    return [num(r[a], f), num(r[b], f), num(r[delta], f"{{:+.{digits}f}}"), num(r["change_pct"], "{:+.1f}")]


def gate_lines(d: dict) -> list[str]:
    """The verdict line (what `diff` exits with and why), the failing rows, the gate's gaps."""
    g = d["gate"]
    if g["verdict"] == NOT_GATED:
        return ["**Not gated** (exit 0): `--fail-above` was not given, so nothing fails; the changes below are "
                "judged against noise only."]
    said = [f"`--fail-above {g['fail_above_pct']:g}`: the gated step, and each kernel or library call holding "
            f"≥ {g['min_share_pct']:g}% of the step, fails when slower by more than its noise + "
            f"{g['fail_above_pct']:g}%, or when only in one run"] if g["fail_above_pct"] is not None else []
    if g.get("fail_above_spread_points") is not None:
        said.append(f"`--fail-above-spread {g['fail_above_spread_points']:g}`: the ranks' step spread fails when it "
                    f"grew by more than {g['fail_above_spread_points']:g} points")
    if g.get("fail_above_comm_pct") is not None:
        said.append(f"`--fail-above-comm {g['fail_above_comm_pct']:g}`: the compared rank's exposed communication "
                    f"fails when it grew by more than {g['fail_above_comm_pct']:g}%")
    scope = "; ".join(said)
    if g["verdict"] == PASSED:
        out = [f"**Gate passed** (exit 0): no regression ({scope})."]
    else:
        n = len(g["failing"])
        out = [f"**Gate failed** (exit 1): {n} regression{'s' if n != 1 else ''} ({scope}).", ""]
        out += [f"- {code(f['what'])}: {text(f['detail'])}" if f["what"] else f"- {text(f['detail'], start=True)}"
                for f in g["failing"]]
    if g["gaps"] and g["allow_different"]:
        out += ["", "Gated anyway (`--allow-different`), though: " + "; ".join(text(x) for x in g["gaps"]) + "."]
    return out


def _runs(d: dict) -> list[str]:
    runs = d.get("runs") or {}
    out = [f"A (baseline): {code(d['a'])}", f"B: {code(d['b'])}"]
    facts = [("target", "target"), ("GPU", "gpu"), ("inductor-prof", "tool_version")]
    a, b = runs.get("a") or {}, runs.get("b") or {}
    said = [f"{name} {code(a.get(key) or 'unknown')}" if a.get(key) == b.get(key) else
            f"{name} A {code(a.get(key) or 'unknown')}, B {code(b.get(key) or 'unknown')}"
            for name, key in facts if key in a or key in b]
    return [line + "  " for line in out] + [", ".join(said)] if said else out   # "  ": a line break


def steps_section(d: dict) -> list[str]:
    gated = d["gate"]["verdict"] != NOT_GATED
    rows = [[text(r["what"] + (" (gated)" if r["gated"] and gated else "")), *_change(r, "a", "b", "delta", 2),
             num(r["noise_pct"], "{:.1f}"), _verdict(r)] for r in d["steps"]]
    out = ["### Step (ms per step; wall step: median of the timed steps)", ""]
    out += table(["", "A", "B", "Δ ms", "Δ %", "noise %", "verdict"], "lrrrrrl", rows) if rows else ["none"]
    out += [f"- {text(m['what'], start=True)}" for m in d["missing"] if m["view"] == "steps"]
    if d.get("sizes"):
        out += ["", "Per input size (ms per step at that size):", ""]
        out += table(["size", "", "A", "B", "Δ ms", "Δ %", "noise %", "verdict"], "llrrrrrl",
                     [[code(r["size"], cell=True), text(r["what"]), *_change(r, "a", "b", "delta", 2),
                       num(r["noise_pct"], "{:.1f}"), _verdict(r)] for r in d["sizes"]])
    return out


def _kernel_cell(r: dict) -> str:
    """The call (op and shapes) or kernel, then the kernel(s) it ran on and how the pair was made."""
    lines = [code(r["call"] or r["display"], cell=True)]
    if r["call"]:
        lines += ([f"A: {code(r['display'], cell=True)}", f"B: {code(r['display_b'], cell=True)}"]
                  if r["display_b"] else [code(r["display"], cell=True)])
    elif r["status"] == "matched" and r["name_b"] != r["name_a"]:
        lines.append(f"B: {code(r['name_b'], cell=True)}")
    if r["matched_by"] in MATCH_NOTES:
        lines.append(f"<sub>{text(MATCH_NOTES[r['matched_by']])}</sub>")
    return "<br>".join(lines)


def _kernel_rows(rows: list[dict]) -> list[list[str]]:
    return [[_kernel_cell(r), *_change(r, "ms_a", "ms_b", "delta_ms", 3), num(r["noise_pct"], "{:.1f}"),
             num(r["share_pct"], "{:.1f}"), _verdict(r)] for r in rows]


def shown(rows: list[dict], top: int) -> list[dict]:
    """The first `top` rows (0: all) as the document orders them (largest |Δ| first), and every row past them
    that failed the gate."""
    return [r for i, r in enumerate(rows) if not top or i < top or r.get("fails_gate")]


def kernels_section(d: dict, top: int) -> list[str]:
    matched, other = d["kernels"], d["new_kernels"] + d["removed_kernels"]
    missing = [f"- {text(m['what'], start=True)}" for m in d["missing"] if m["view"] == "kernels"]
    if not matched and not other:
        return ["### Kernels and library calls", "", "none", *missing] if missing else []
    headers = ["kernel / call", "A ms", "B ms", "Δ ms", "Δ %", "noise %", "share %", "verdict"]
    rows = shown(matched, top)
    out = ["### Kernels and library calls that moved most", "",
           f"ms per step, largest \\|Δ\\| first: {len(rows)} of {len(matched)} matched, "
           f"{len(d['new_kernels'])} new (only in B), {len(d['removed_kernels'])} removed (only in A); "
           "share: % of the step (the larger of the two runs').", ""]
    out += table(headers, "lrrrrrrl", _kernel_rows(rows)) if rows else ["none matched"]
    if other:
        rest = shown(other, top)
        out += ["", f"New (only in B) and removed (only in A): {len(rest)} of {len(other)}", ""]
        out += table(headers, "lrrrrrrl", _kernel_rows(rest))
    return out + ([""] + missing if missing else [])


def ranks_section(d: dict) -> list[str]:
    """Runs of several ranks: the step spread and the compared rank's exposed communication, A against B."""
    r = d.get("ranks")
    if not r:
        return []
    s, e = r.get("spread") or {}, r["exposed_comm"]
    side = lambda v: num((v or {}).get("spread_pct"), "{:.1f}")   # noqa: E731
    slow = lambda v: f" (rank {v['slowest_rank']} slowest)" if v else ""   # noqa: E731
    rows = [["step spread, % (slowest plain step over the fastest)", side(s.get("a")) + slow(s.get("a")),
             side(s.get("b")) + slow(s.get("b")), num(s.get("delta_points"), "{:+.1f} points"), ""],
            [f"rank {r['rank']} exposed communication, ms (NCCL with no compute beside it, waiting included)",
             num(e["a"], "{:.3f}"), num(e["b"], "{:.3f}"), num(e["delta_ms"], "{:+.3f}"),
             num(e["change_pct"], "{:+.1f}")]]
    rows = [[(text(c) if i == 0 else c) for i, c in enumerate(row)] for row in rows]
    return ["### Ranks", "", *table(["", "A", "B", "Δ", "Δ %"], "lrrrr", rows)]


def _folded(summary: str, body: list[str]) -> list[str]:
    return ["<details>", f"<summary>{summary}</summary>", "", *body, "", "</details>", ""]


def details_section(d: dict) -> list[str]:
    out = []
    if d["categories"]:
        out += _folded("Time by category (ms per step)", table(
            ["category", "A", "B", "Δ ms", "Δ %", "noise %", "verdict", "kernels"], "lrrrrrlr",
            [[text(r["what"]), *_change(r, "a", "b", "delta", 2), num(r["noise_pct"], "{:.1f}"), _verdict(r),
              f"{r['kernels_a']}→{r['kernels_b']}"] for r in d["categories"]]))
    if d["changed_settings"]:
        out += _folded(f"Settings and versions that differ ({len(d['changed_settings'])})",
                       [f"- {code(c)}" for c in d["changed_settings"]])
    other = [m for m in d["missing"] if m["view"] not in ("steps", "kernels")]
    if other:
        out += _folded(f"Views a run lacks ({len(other)})", [f"- {text(m['view'], start=True)}: {text(m['what'])}"
                                                              for m in other])
    return out


def render_markdown(d: dict, top: int = 10) -> str:
    """The document `diff --json` prints (diff_export.to_dict, or that JSON read back) as Markdown; `top`:
    matched kernels and calls to list (0: all), beside every one the gate failed on."""
    parts = [[MARKER, f"## inductor-prof diff: {HEADLINE[d['gate']['verdict']]}"], gate_lines(d), _runs(d),
             [f"- **warning:** {text(w)}" for w in d["warnings"]],
             [f"**{text(d['applied_experiment']['line'])}**"] if d.get("applied_experiment") else [],
             steps_section(d), ranks_section(d),
             kernels_section(d, top),
             details_section(d), [f"<sub>{EXIT_CODES}. {text(d['noise_rule'])}</sub>"]]
    return "\n\n".join("\n".join(p).strip("\n") for p in parts if p) + "\n"
