"""`inductor-prof doctor`: the checks (inductor_prof.doctor) as a table or JSON; exit 1 when `profile --ncu`
would fail."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.table import Table
from rich.text import Text

from ..settings import Settings
from ..errors import EXIT_FAILED
from .core import command, console, err
from .options import EPILOG, with_ncu_options

STYLES = {"ok": "green", "warn": "yellow", "fail": "bold red", "skip": "dim"}


@command(epilog=EPILOG)
@with_ncu_options
def doctor(
    out: Path = typer.Option(Path("."), "--out", "-o", help="where run folders will go (free disk is checked there)"),
    json_out: bool = typer.Option(False, "--json", help="print one JSON object instead of the table"),
    settings: Settings = None,  # type: ignore[assignment]  # with_ncu_options fills both in
    settings_origin: dict = None,  # type: ignore[assignment]
):
    """Can this machine run `profile --ncu`? GPU, CUDA, versions, Proton, Inductor, cuDNN, ncu and its counters,
    sudo, disk: each ok/warn/fail/skip with what to do. Exits 1 when `profile --ncu` would fail."""
    from ..doctor import as_json, ready, run_all

    with err.status("checking ...") as status:
        checks = run_all(settings, settings_origin, out, on_check=lambda name: status.update(f"checking {name} ..."))
    if json_out:
        sys.stdout.write(json.dumps(as_json(checks), indent=1) + "\n")
    else:
        table = Table(title="inductor-prof doctor", title_justify="left")
        for column in ("check", "status", "found", "remedy"):
            table.add_column(column, overflow="fold")
        for c in checks:
            table.add_row(Text(c.name), Text(c.status, style=STYLES[c.status]), Text(c.detail), Text(c.remedy))
        console.print(table)
        failed = [c.name for c in checks if c.status == "fail"]
        console.print(Text("profile --ncu: ready" if not failed else
                           f"profile --ncu would fail: {', '.join(failed)}"), highlight=False)
    if not ready(checks):
        raise typer.Exit(EXIT_FAILED)
