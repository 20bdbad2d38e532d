"""Lines the commands print about what happened: the report's warnings, the ncu command's summary of its call."""
from __future__ import annotations

from pathlib import Path

from rich.console import Console

from .core import err


def print_warnings(warnings: list[str], console: Console | None = None) -> None:
    """One line each on stderr, before the tables; the text is the file's path and facts, never markup."""
    for line in warnings:
        (console or err).print(f"warning: {line}", markup=False, highlight=False, soft_wrap=True)


def ncu_summary(summary: dict, table: Path) -> str:
    """What this `inductor-prof ncu` call did (not the totals of every call so far)."""
    text = f"ncu, this call: {summary['ok']} kernels profiled, {summary['failed']} failed"
    if summary["not_tried"]:
        text += f", {summary['not_tried']} not tried (stopped: {summary['stopped']})"
    if summary["skipped"]:
        text += f"; {summary['skipped']} profiled by an earlier call"
    return f"{text}; table in {table}"


def source_summary(summary: dict, folder: Path) -> str:
    """What this call's source pass did (`inductor-prof ncu RUN [--source KERNEL]`)."""
    text = f"ncu source counters, this call: {summary['ok']} kernels recorded, {summary['failed']} failed"
    if summary["skipped"]:
        text += f"; {summary['skipped']} recorded by an earlier call"
    return f"{text}; reports in {folder} (`inductor-prof inspect RUN KERNEL` reads them)"
