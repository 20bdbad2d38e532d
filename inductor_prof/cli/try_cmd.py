"""`inductor-prof try RUN`: the run's advice tried (experiments/run.py), each experiment against the run's own
configuration, the results under RUN/experiments/ and in `report`."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Optional

import typer

from ..envinfo import require_gpu_extra
from ..errors import EXIT_FAILED
from .core import command, console, err
from .messages import print_warnings
from .options import width_option


@command("try")
def try_command(
    run: Path = typer.Argument(..., help="run folder written by `inductor-prof profile`"),
    experiment: list[str] = typer.Option([], "--experiment", "-e", help="run this experiment whatever the advice "
                                         "(repeatable): cuda_graphs, coordinate_descent, max_autotune, "
                                         "gemm_templates, attention_backend"),
    top: int = typer.Option(5, help="advice items to answer"),
    rounds: int = typer.Option(6, help="alternating rounds of the two configurations"),
    steps: int = typer.Option(10, help="synchronised steps a configuration per round"),
    warmup: int = typer.Option(3, help="steps before timing (compile, CUDA graph recording)"),
    timeout: float = typer.Option(900.0, help="seconds for one experiment's process"),
    json_out: bool = typer.Option(False, "--json", help="print experiments.json instead of lines"),
    width: Optional[int] = width_option(100),
):
    """Try the run's advice: each experiment (CUDA graphs, coordinate-descent tuning, max-autotune, GEMM
    templates, another attention backend) compiled in a process of its own beside the run's configuration, timed alternating, its outputs
    checked; results in RUN/experiments/ and in `report`."""
    require_gpu_extra("`inductor-prof try`")
    import json

    from ..analysis import load_run_tables
    from ..experiments.run import TryOptions, check, try_advice
    from ..gpu_probe import require_gpu_device
    from ..report.experiments import clean, render
    from ..report.terminal import make_console
    from ..rundir import open_run
    from .streams import stdout_to_stderr

    opts = TryOptions(experiments=list(experiment) or None, top=top, rounds=rounds, steps=steps, warmup=warmup,
                      timeout=timeout)
    check(opts)
    run_dir = open_run(run)
    with stdout_to_stderr() if json_out else contextlib.nullcontext():
        tables = load_run_tables(run_dir.root)
    print_warnings(tables.warnings)
    advice = ((tables.summary.get("headroom") or {}).get("next")) or []
    require_gpu_device("`inductor-prof try`")
    doc = try_advice(run_dir, advice, opts, log=lambda line: err.print(line, markup=False, highlight=False,
                                                                        soft_wrap=True))
    if json_out:
        sys.stdout.write(json.dumps(clean(doc), indent=1) + "\n")
    else:
        render(doc, make_console(width))
        console.print(f"written to {run_dir.experiments_json}", markup=False, highlight=False, soft_wrap=True)
    if any(e["status"] in ("failed", "out of memory") for e in doc["experiments"]):   # recorded, and said by the exit
        raise typer.Exit(EXIT_FAILED)
