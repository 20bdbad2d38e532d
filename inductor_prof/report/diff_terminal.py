"""`diff` in the terminal (rich): steps, categories, kernels, new/removed kernels, attention, the gate.
Fits the terminal, COLUMNS, or 100 columns: long kernel names are cut in the middle, keeping their numbered
end (shorter where the numbers would not fit otherwise). Run paths, kernel names and messages are user text:
passed as rich Text, never parsed as markup."""
from __future__ import annotations

import math
from typing import cast

import pandas as pd
from rich import box
from rich.console import Console, Group, JustifyMethod
from rich.table import Table
from rich.text import Text

from ..analysis.diff import Diff
from ..analysis.diff_gate import scopes
from ..analysis.diff_kernels import MATCH_NOTES
from ..analysis.noise import NOISE_RULE
from ..names import distinct
from .diff_export import applied_experiment
from .terminal import make_console as report_console

MIN_NAME = 12   # a kernel name is not cut shorter than this, whatever the width
_STYLE = {"slower": "red", "faster": "green", "new": "yellow", "removed": "cyan"}


def _num(v, fmt: str = "{:.3f}") -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else fmt.format(v)


def middle(text: str, width: int, tail: int = 18) -> str:
    """`text` cut to `width` in the middle: the end of a kernel name (its number) stays visible."""
    if len(text) <= width:
        return text
    tail = min(tail, width // 2)
    return text[: width - tail - 1] + "…" + text[-tail:]


def _table(title: str, columns: list[tuple[str, str]]) -> Table:
    t = Table(title=Text(title), title_justify="left", box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False,
              collapse_padding=True)
    for name, justify in columns:
        t.add_column(name, justify=cast("JustifyMethod", justify), no_wrap=True)
    return t


def _verdict(v: str) -> Text:
    return Text(v, style=_STYLE.get(v, ""))


def _missing(diff: Diff, view: str) -> list[Text]:
    return [Text(f"{view}: {what}", style="yellow") for v, what in diff.missing if v == view]


def steps_table(diff: Diff) -> Table:
    t = _table("Step and GPU time (ms per step; wall step: median of the timed steps)",
               [("", "left"), ("A", "right"), ("B", "right"), ("Δ ms", "right"), ("Δ %", "right"),
                ("noise %", "right"), ("verdict", "left")])
    for r in diff.steps.itertuples():
        t.add_row(r.what + (" (gated)" if r.gated and diff.fail_above is not None else ""), _num(r.a, "{:.2f}"),
                  _num(r.b, "{:.2f}"), _num(r.delta, "{:+.2f}"), _num(r.change_pct, "{:+.1f}"),
                  _num(r.noise_pct, "{:.1f}"), _verdict(r.verdict))
    return t


def sizes_table(df: pd.DataFrame) -> Table:
    t = _table("Per input size (ms per step at that size; wall: median of its timed steps)",
               [("size", "left"), ("", "left"), ("A", "right"), ("B", "right"), ("Δ ms", "right"), ("Δ %", "right"),
                ("noise %", "right"), ("verdict", "left")])
    for r in df.itertuples():
        t.add_row(Text(r.size), r.what, _num(r.a, "{:.2f}"), _num(r.b, "{:.2f}"), _num(r.delta, "{:+.2f}"),
                  _num(r.change_pct, "{:+.1f}"), _num(r.noise_pct, "{:.1f}"), _verdict(r.verdict))
    return t


def categories_table(df: pd.DataFrame) -> Table:
    t = _table("Time by category (ms per step)", [("category", "left"), ("A", "right"), ("B", "right"),
               ("Δ ms", "right"), ("Δ %", "right"), ("noise %", "right"), ("verdict", "left"), ("kernels", "right")])
    for r in df.itertuples():
        t.add_row(r.what, _num(r.a, "{:.2f}"), _num(r.b, "{:.2f}"), _num(r.delta, "{:+.2f}"),
                  _num(r.change_pct, "{:+.1f}"), _num(r.noise_pct, "{:.1f}"), _verdict(r.verdict),
                  f"{r.kernels_a}->{r.kernels_b}")
    return t


def match_counts(df: pd.DataFrame) -> str:
    matched = df[df["status"] == "matched"]["matched_by"].value_counts()
    how = ", ".join(f"{n} by {k}" for k, n in matched.items())
    return (f"{int(matched.sum())} matched ({how}), {int((df['status'] == 'new').sum())} new, "
            f"{int((df['status'] == 'removed').sum())} removed")


def middles(texts: list[str], width: int) -> list[str]:
    """Each text cut by `middle`; texts that cutting made equal (kernels whose names differ only in the middle)
    are numbered ` #2`, ` #3`, ... within `width`, so that no two rows read alike."""
    short = [middle(t, width) for t in texts]
    numbered = distinct(short)
    return [s if n == s else middle(t, width - len(n) + len(s)) + n[len(s):] for t, s, n in zip(texts, short, numbered)]


def _kernel_cell(r, name: str, width: int) -> Text:
    """The row's first line (a library call's op and shapes, else the kernel), then its kernel(s) and how it
    was paired, dim."""
    cell = Text(name)
    if r.call:
        kernels = [f"A: {r.display}", f"B: {r.display_b}"] if r.display_b else [str(r.display)]
        for k in kernels:   # a library kernel's name says most in its head (nvjet_sm90_tst_256x128_...)
            cell.append("\n  " + middle(k, width - 2, tail=(width - 2) // 4), style="dim")
    elif r.status == "matched" and r.name_b != r.name_a:
        cell.append("\n  B: " + middle(str(r.name_b), width - 5), style="dim")
    if r.matched_by in MATCH_NOTES:
        note = f"  {MATCH_NOTES[r.matched_by]}"
        cell.append("\n" + (note if len(note) <= width else note[: width - 1] + "…"), style="dim")
    return cell


def fitted_kernels_table(df: pd.DataFrame, title: str, width: int, console: Console) -> Table:
    """kernels_table with kernel names cut to `width`, or shorter where the table would not fit the console:
    the numbers are never the ones cut."""
    t = kernels_table(df, title, width)
    over = console.measure(t, options=console.options.update_width(10_000)).maximum - console.width  # unclamped
    return kernels_table(df, title, max(MIN_NAME, width - over)) if over > 0 else t


def kernels_table(df: pd.DataFrame, title: str, width: int) -> Table:
    t = _table(title, [("kernel / call", "left"), ("A", "right"), ("B", "right"), ("Δ ms", "right"), ("Δ %", "right"),
                       ("noise", "right"), ("share", "right"), ("verdict", "left")])
    firsts = [str(c or d) for c, d in zip(df["call"], df["display"])]
    for r, name in zip(df.itertuples(), middles(firsts, width)):
        t.add_row(_kernel_cell(r, name, width), _num(r.ms_a), _num(r.ms_b), _num(r.delta_ms, "{:+.3f}"),
                  _num(r.change_pct, "{:+.1f}"), _num(r.noise_pct, "{:.1f}"), _num(r.share_pct, "{:.1f}"),
                  _verdict(r.verdict))
    return t


def attention_table(df: pd.DataFrame) -> Table:
    t = _table("Attention backends (attention.csv: median ms at each shape; no spread recorded, so no verdict)",
               [("backend", "left"), ("shape", "left"), ("A ms", "right"), ("B ms", "right"), ("Δ %", "right"),
                ("TFLOP/s A->B", "right")])
    # a training run's forward+backward rows (the `pass` key of analysis/diff.attention_rows) said beside the shape
    both = (df["pass"] == "forward+backward").tolist() if "pass" in df.columns else [False] * len(df)
    rows = [(str(r.backend), str(r.shape) + (" fwd+bwd" if b else ""), _num(r.ms_a), _num(r.ms_b),
             _num(r.change_pct, "{:+.1f}"), f"{_num(r.tflops_a, '{:.0f}')}->{_num(r.tflops_b, '{:.0f}')}")
            for r, b in zip(df.itertuples(), both)]
    for row in rows:
        t.add_row(*row)
    # a narrow terminal cuts no number: the numbers keep their width, the shape wraps, the backend is cut last
    for i, col in enumerate(t.columns):
        if i >= 2:
            col.min_width = max([len(str(col.header)), *(len(row[i]) for row in rows)])
    t.columns[1].no_wrap, t.columns[1].overflow = False, "fold"
    return t


def gate_lines(diff: Diff) -> list[Text]:
    if not diff.gated:
        return []
    scope = "; ".join(scopes(diff.fail_above, diff.min_share, diff.fail_above_spread, diff.fail_above_comm))
    bad = diff.regressions()
    if not bad:
        return [Text(f"gate ({scope}): passed", style="green")]
    return [Text(f"gate ({scope}): FAILED, {len(bad)} regression(s)", style="bold red")] + \
        [Text(f"  {line}", style="red") for line in bad]


def render(diff: Diff, console: Console, top: int = 20) -> None:
    width = max(24, console.width - 62)
    parts: list = [Text(f"A: {diff.a}\nB: {diff.b}", style="bold")]
    parts += [Text(f"changed: {c}", style="dim") for c in diff.changes]
    if diff.experiment:
        parts.append(Text(applied_experiment(diff.experiment)["line"], style="bold"))
    parts += [steps_table(diff), *_missing(diff, "steps")]
    if diff.sizes is not None:
        parts.append(sizes_table(diff.sizes))
    if diff.categories is not None:
        parts.append(categories_table(diff.categories))
    parts += _missing(diff, "categories")
    if diff.kernels is not None and len(diff.kernels):
        k = diff.kernels
        matched, other = k[k["status"] == "matched"], k[k["status"] != "matched"]
        shown = matched.head(top) if top else matched
        parts.append(Text(f"Kernels and library calls: {match_counts(k)}", style="bold"))
        parts.append(fitted_kernels_table(shown, f"Matched (ms per step, largest |Δ| first, {len(shown)} of "
                                          f"{len(matched)}; share: % of the step)", width, console))
        if len(other):
            parts.append(fitted_kernels_table(other.head(top) if top else other, "New (only in B) and removed "
                                              "(only in A)", width, console))
    parts += _missing(diff, "kernels")
    if diff.attention is not None and len(diff.attention):
        parts.append(attention_table(diff.attention))
    parts += _missing(diff, "attention")
    parts.append(Text(NOISE_RULE, style="dim"))
    parts += gate_lines(diff)
    console.print(Group(*parts))


PIPE_WIDTH = 100   # a diff to a file or a pipe with no COLUMNS: its widest tables fit


def make_console(width: int | None = None) -> Console:
    """The report's console rule (`width`, else the terminal's, else COLUMNS, else the pipe width), at 100
    columns."""
    return report_console(width, pipe_width=PIPE_WIDTH)
