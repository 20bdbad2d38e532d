"""`inductor-prof diff RUN_A RUN_B`: the comparison of two run folders, and the regression gate (exit 1)."""
from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from ..errors import EXIT_FAILED, UserError
from .core import command
from .messages import print_warnings
from .options import width_option

if TYPE_CHECKING:
    from ..analysis.ranks import RanksView


@command("diff")
def diff(
    run_a: Path = typer.Argument(..., help="the run before (baseline)"),
    run_b: Path = typer.Argument(..., help="the run after"),
    fail_above: Optional[float] = typer.Option(None, "--fail-above", help="exit 1 when the step, or a kernel or "
                                               "library call holding >= --min-share % of the step, got slower by "
                                               "more than this many % beyond noise, or is only in one run"),
    min_share: float = typer.Option(1.0, "--min-share", help="kernels and calls below this % of the step are not "
                                    "gated"),
    allow_different: bool = typer.Option(False, "--allow-different", help="gate runs of different targets, "
                                         "GPUs or inductor-prof versions, or lacking a table the gate needs, with a "
                                         "warning (else exit 2)"),
    top: int = typer.Option(20, help="matched kernels and library calls to show (0: all)"),
    json_out: bool = typer.Option(False, "--json", help="print one JSON document instead of tables"),
    html: Optional[Path] = typer.Option(None, "--html", help="also write a self-contained HTML page here"),
    markdown: Optional[Path] = typer.Option(None, "--markdown", help="also write the verdict, the step and the "
                                            "kernels that moved as Markdown (a pull-request comment) here (-: to "
                                            "stdout, instead of tables)"),
    width: Optional[int] = width_option(80),
    rank: Optional[int] = typer.Option(None, "--rank", help="runs of several ranks (profile --nproc): the rank "
                                       "of each to compare (default 0)"),
    fail_above_spread: Optional[float] = typer.Option(None, "--fail-above-spread", help="runs of several ranks: "
                                                      "exit 1 when the step spread (slowest rank's plain step over "
                                                      "the fastest's) grew by more than this many % points"),
    fail_above_comm: Optional[float] = typer.Option(None, "--fail-above-comm", help="runs of several ranks: exit 1 "
                                                    "when the compared rank's exposed communication (NCCL with no "
                                                    "compute beside it, waiting included) grew by more than this %"),
):
    """Compare two runs: step and GPU time, kernels paired across the runs (Inductor renumbers them) and library
    calls by op and shapes, new and removed ones, time by category, attention backends; each change judged
    against the runs' noise."""
    from ..analysis.diff import compare
    from ..analysis.diff_inputs import load_side
    from ..report import diff_export, diff_terminal
    from ..report.export import json_text, to_stdout
    from ..report.ranks import spread_diff_line
    from ..rundir import check_output, open_run, write_text

    # `not 0 <= x < inf`: a nan compares false with every change, so it passed every gate
    if fail_above is not None and not 0 <= fail_above < math.inf:
        raise UserError(f"--fail-above must be a number, 0 or more (percent), not {fail_above}")
    for flag, value in (("--fail-above-spread", fail_above_spread), ("--fail-above-comm", fail_above_comm)):
        if value is not None and not 0 <= value < math.inf:
            raise UserError(f"{flag} must be a number, 0 or more, not {value}")
    if not 0 <= min_share < math.inf:
        raise UserError(f"--min-share must be a number, 0 or more (percent of the step), not {min_share}")
    if top < 0:
        raise UserError("--top must be 0 (all) or more")
    markdown_out = to_stdout(markdown)
    if markdown_out and json_out:
        raise UserError("--markdown - and --json both print to stdout; give --markdown a file")
    if html is not None:
        check_output(html, "--html")
    if markdown is not None and not markdown_out:
        check_output(markdown, "--markdown")
    run_a, run_b, ranks = _ranks_compared(run_a, run_b, rank)
    if ranks is None and (fail_above_spread is not None or fail_above_comm is not None):
        flag = "--fail-above-spread" if fail_above_spread is not None else "--fail-above-comm"
        raise UserError(f"{flag}: neither run is of several ranks (profile --nproc)")
    open_run(run_a), open_run(run_b)   # both folders exist before either is read
    side_a, side_b = load_side(run_a, "A"), load_side(run_b, "B")
    result = compare(side_a, side_b, min_share=min_share, fail_above=fail_above,
                     allow_different=allow_different, ranks=ranks["change"] if ranks else None,
                     fail_above_spread=fail_above_spread, fail_above_comm=fail_above_comm)
    # what each run's report would warn of (a damaged or missing file), then the comparison's own warnings
    read = [f"run {s.label}: {w}" for s in (side_a, side_b) if s.tables is not None for w in s.tables.warnings]
    if fail_above is not None and result.gaps and not allow_different:
        raise UserError(f"--fail-above: {'; '.join(result.gaps)}; pass --allow-different to gate anyway")
    gated_anyway = [f"gating anyway (--allow-different): {g}" for g in result.gaps] if fail_above is not None else []
    print_warnings((ranks["warnings"] if ranks else []) + read + list(result.warnings) + gated_anyway)
    if html is not None:
        from ..report.diff_html import render_html

        write_text(html, render_html(result))   # check_output above said why it cannot be written
    if markdown is not None:
        from ..report.diff_markdown import render_markdown

        text = render_markdown(diff_export.to_dict(result), top=top)
        if markdown_out:
            sys.stdout.write(text)
        else:
            write_text(markdown, text)
    if json_out:
        doc = diff_export.to_dict(result)
        sys.stdout.write(json_text(doc) + "\n")
    elif not markdown_out:
        console = diff_terminal.make_console(width)
        if ranks:
            console.print(spread_diff_line(ranks["change"]["spread"], ranks["change"]["rank"]), soft_wrap=True)
        diff_terminal.render(result, console, top=top)
        if html is not None:
            print(f"HTML written to {html}")
        if markdown is not None:
            print(f"Markdown written to {markdown}")
    if result.regressions():
        raise typer.Exit(EXIT_FAILED)   # the gate: something got slower beyond noise


def _ranks_compared(run_a: Path, run_b: Path, rank: Optional[int]) -> tuple[Path, Path, dict | None]:
    """A run of several ranks is compared by one rank's folder (`--rank`, default 0), and two of them by their
    step spread and the rank's exposed communication too: (folder A, folder B, {"change" (rank_gate.ranks_change),
    "warnings"} or None for two ordinary runs)."""
    from ..analysis.rank_gate import ranks_change
    from ..analysis.ranks import load_ranks, pick_rank
    from ..rundir import is_ranked

    ranked = [is_ranked(run_a), is_ranked(run_b)]
    if not any(ranked):
        if rank is not None:
            raise UserError(f"--rank {rank}: neither run is of several ranks (profile --nproc)")
        return run_a, run_b, None
    folders: list[Path] = []
    views: list[RanksView | None] = []
    warnings: list[str] = []
    shown = 0   # the rank shown of the last run of several ranks (one of the two is)
    for label, run, is_multi in (("A", run_a, ranked[0]), ("B", run_b, ranked[1])):
        if not is_multi:
            folders.append(run)
            views.append(None)
            continue
        view = load_ranks(run)
        shown, note = pick_rank(view, rank)
        folders.append(view.ranked.rank(shown).root)
        views.append(view)
        warnings += [f"run {label}: {w}" for w in view.warnings + ([note] if note else [])]
    return folders[0], folders[1], {"change": ranks_change(views[0], views[1], rank if rank is not None else shown),
                                    "warnings": warnings}
