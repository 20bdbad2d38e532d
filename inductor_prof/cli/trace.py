"""`inductor-prof trace RUN`: one profiled step as a Chrome/Perfetto trace (ui.perfetto.dev opens it)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from ..errors import UserError
from .core import command
from .messages import print_warnings

NEED = "`trace` needs it (the profile's library_ops stage records it)"


@command("trace")
def trace(
    run: Path = typer.Argument(..., help="the run folder"),
    out: Optional[Path] = typer.Option(None, "--out", help="the trace file to write (default: <run>.trace.json "
                                       "here; a name ending .gz is gzipped); '-' prints it"),
    step: int = typer.Option(0, "--step", help="the Proton step (step_<N>) whose scopes name the slices"),
    size: Optional[str] = typer.Option(None, "--size", help="a run of several input sizes: which one (default: "
                                       "the first)"),
):
    """One step as a Chrome/Perfetto trace: every kernel at its start time (torch.profiler's step) with the
    report's flops, bytes, TFLOP/s and % of ceiling, inside the step's Proton scopes (size, step, blocks)."""
    from .. import runfiles
    from ..analysis import load_run_tables
    from ..analysis.sizes import size_names
    from ..analysis.timeline import build, steps_of
    from ..rundir import check_output, open_run, refuse_inside_run, write_gzip, write_text

    path = Path(f"{Path(run).resolve().name}.trace.json") if out is None else out
    if str(path) != "-":
        refuse_inside_run(path, "--out")
        check_output(path, "--out")
    run_dir = open_run(run)
    sizes = size_names(runfiles.manifest(run_dir))
    if size is not None and size not in sizes:
        raise UserError(f"--size {size}: " + (f"the run's sizes are {', '.join(sizes)}" if sizes else
                                               "the run has one input size"))
    size = size or (sizes[0] if sizes else None)
    data = runfiles.torch_trace(run_dir, size, NEED)   # before the report: a missing trace fails fast
    tables = load_run_tables(run)
    steps = steps_of(tables.launches, size)
    if f"step_{step}" not in steps:
        raise UserError(f"--step {step}: the run's Proton steps are {steps[0]}..{steps[-1]}" if steps else
                        f"--step {step}: Proton recorded no step scopes in {run_dir.steps_hatchet}")
    kernels = tables.kernels
    if size is not None:
        by_size = tables.by_size
        assert by_size is not None   # a run of several sizes (size is one of them, checked above) has the table
        kernels = by_size[by_size["size"] == size]
    timeline = build(data, kernels, tables.launches, f"step_{step}", size)
    print_warnings(tables.warnings + timeline.warnings)
    text = json.dumps(timeline.document(), separators=(",", ":"))
    if str(path) == "-":
        sys.stdout.write(text + "\n")
        return
    (write_gzip if path.suffix == ".gz" else write_text)(path, text + "\n")
    print(f"trace of step_{step}{f' at {size}' if size else ''} written to {path} "
          f"({timeline.kernels} kernel launches, {timeline.blocks_placed} blocks placed); open it in ui.perfetto.dev (Open trace file)")
