"""`inductor-prof inspect RUN KERNEL`: one kernel's source lines ranked by where its warps spent their time,
beside its roofline position, launch, occupancy and provenance. Reads the recorded reports: any machine."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import UserError
from .core import command
from .messages import print_warnings
from .options import WIDTH_OPTION
from .streams import stdout_to_stderr


@command("inspect")
def inspect_command(
    run: Path = typer.Argument(..., help="run folder written by `inductor-prof profile`"),
    kernel: str = typer.Argument(..., help="kernel name, or a unique part of it"),
    top: int = typer.Option(10, help="source lines (or SASS regions) to show (0: all)"),
    json_out: bool = typer.Option(False, "--json", help="print one JSON object instead"),
    width: Optional[int] = WIDTH_OPTION,
):
    """One kernel's Triton source lines ranked by warp samples, with each line's share of instructions, top
    stall reasons and L2 traffic (ncu's source counters), beside its roofline position, launch, occupancy
    and the FX nodes and model lines it came from."""
    from ..analysis import load_run_tables
    from ..analysis.inspect import inspect
    from ..report import inspect as inspect_report, terminal
    from ..report.export import json_text

    if top < 0:
        raise UserError("--top must be 0 (all) or more")
    with stdout_to_stderr() if json_out else contextlib.nullcontext():
        tables = load_run_tables(run)
    view = inspect(tables, kernel)
    print_warnings(view["warnings"])
    if json_out:
        sys.stdout.write(json_text(view) + "\n")
        return
    inspect_report.render(view, terminal.make_console(width), top)

