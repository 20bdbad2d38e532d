"""typer app: each command parses options, calls the library, renders. Errors become one line + exit code."""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from .errors import UserError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Profile the Triton kernels torch.compile (Inductor) writes for a model.")
console = Console()
err = Console(stderr=True)

SETTINGS_HELP = ("Settings precedence: command-line flag > environment variable (INDUCTOR_PROF_NCU, "
                 "INDUCTOR_PROF_SUDO, INDUCTOR_PROF_SUDO_PATH, INDUCTOR_PROF_NCU_ARGS, INDUCTOR_PROF_NCU_SET, "
                 "INDUCTOR_PROF_CLOCK_CONTROL, INDUCTOR_PROF_NCU_TIMEOUT, INDUCTOR_PROF_NCU_LIBRARY_KERNELS, "
                 "INDUCTOR_PROF_NCU_BATCH) > "
                 "\\[tool.inductor-prof] in ./pyproject.toml or ./inductor-prof.toml > default.")
EXIT_USER = 2     # bad input
EXIT_FAILED = 1   # a step failed


def cli_errors(fn):
    """Library errors become one red line and a non-zero exit (INDUCTOR_PROF_DEBUG=1 keeps tracebacks)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except UserError as e:
            err.print(f"[red]error:[/red] {e}", soft_wrap=True, highlight=False)
            raise typer.Exit(EXIT_USER)
        except KeyboardInterrupt:
            err.print("[red]interrupted[/red]")
            raise typer.Exit(130)
        except typer.Exit:
            raise
        except Exception as e:
            if os.environ.get("INDUCTOR_PROF_DEBUG"):
                raise
            err.print(f"[red]error:[/red] {type(e).__name__}: {e}", soft_wrap=True, highlight=False)
            raise typer.Exit(EXIT_FAILED)
    return wrapper


def _ncu_settings(ncu_path, sudo, sudo_path, ncu_set, ncu_args, clock_control, ncu_timeout, library_kernels,
                  ncu_batch=None):
    from .settings import resolve

    settings, _ = resolve({"ncu": ncu_path, "sudo": sudo, "sudo_path": sudo_path, "ncu_set": ncu_set,
                           "ncu_args": ncu_args, "clock_control": clock_control, "ncu_timeout": ncu_timeout,
                           "ncu_library_kernels": library_kernels, "ncu_batch": ncu_batch})
    return settings


NCU_PATH = typer.Option(None, "--ncu-path", help="ncu executable \\[env INDUCTOR_PROF_NCU; default: PATH, "
                        "/usr/local/cuda*/bin, /opt/nvidia/nsight-compute/*]")
SUDO = typer.Option(None, "--sudo/--no-sudo", help="run ncu through `sudo -n` \\[env INDUCTOR_PROF_SUDO]")
SUDO_PATH = typer.Option(None, "--sudo-path", help="sudo executable \\[env INDUCTOR_PROF_SUDO_PATH]")
NCU_SET = typer.Option(None, "--ncu-set", help="ncu --set instead of the default metrics, e.g. full "
                       "\\[env INDUCTOR_PROF_NCU_SET]")
NCU_ARGS = typer.Option(None, "--ncu-args", help="extra ncu arguments, one string \\[env INDUCTOR_PROF_NCU_ARGS]")
CLOCK = typer.Option(None, "--clock-control", help="ncu --clock-control (default none) "
                     "\\[env INDUCTOR_PROF_CLOCK_CONTROL]")
NCU_TIMEOUT = typer.Option(None, "--ncu-timeout", help="seconds per kernel (default 300) "
                           "\\[env INDUCTOR_PROF_NCU_TIMEOUT]")
NCU_BATCH = typer.Option(None, "--ncu-batch", help="kernels per ncu process (default 12; 1: one process each) "
                         "\\[env INDUCTOR_PROF_NCU_BATCH]")
LIB_KERNELS = typer.Option(None, "--library-kernels", help="library kernels to profile, by time (default 8) "
                           "\\[env INDUCTOR_PROF_NCU_LIBRARY_KERNELS]")


@app.command(epilog=SETTINGS_HELP)
@cli_errors
def profile(
    target: str = typer.Argument("flux", help="flux, flux-schnell, or package.module:factory"),
    out: Path = typer.Option(Path("runs/flux"), "--out", "-o", help="run folder to create"),
    force: bool = typer.Option(False, "--force", help="replace an existing run folder"),
    steps: int = typer.Option(5, help="profiled steps"),
    warmup: int = typer.Option(2, help="warm-up steps after the compiling one"),
    mode: str = typer.Option("default", help="compile mode: default, max-autotune, max-autotune-no-cudagraphs"),
    whole_model: bool = typer.Option(False, "--whole-model", help="compile the whole model, not each repeated block"),
    height: int = typer.Option(1024, help="flux: image height in pixels"),
    width: int = typer.Option(1024, help="flux: image width in pixels"),
    text_len: int = typer.Option(512, help="flux: text tokens"),
    batch: int = typer.Option(1, help="flux: batch size"),
    dtype: str = typer.Option("bfloat16", help="flux: bfloat16, float16 or float32"),
    double_blocks: Optional[int] = typer.Option(None, help="flux: double-stream blocks (default 19)"),
    single_blocks: Optional[int] = typer.Option(None, help="flux: single-stream blocks (default 38)"),
    checkpoint: Optional[Path] = typer.Option(None, help="flux: local diffusers folder or .safetensors file"),
    no_ceilings: bool = typer.Option(False, "--no-ceilings", help="skip measuring matmul/copy ceilings"),
    ncu: bool = typer.Option(False, "--ncu", help="also profile each unique kernel with Nsight Compute"),
    no_attention: bool = typer.Option(False, "--no-attention", help="skip benchmarking attention backends"),
    ncu_path: Optional[str] = NCU_PATH, sudo: Optional[bool] = SUDO, sudo_path: Optional[str] = SUDO_PATH,
    ncu_set: Optional[str] = NCU_SET, ncu_args: Optional[str] = NCU_ARGS, clock_control: Optional[str] = CLOCK,
    ncu_timeout: Optional[float] = NCU_TIMEOUT, library_kernels: Optional[int] = LIB_KERNELS,
    ncu_batch: Optional[int] = NCU_BATCH,
):
    """Compile TARGET, harvest and annotate its Inductor kernels, and profile it into a run folder."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .compile import CompileOptions
    from .pipeline import ProfileOptions, profile as run_profile
    from .targets import FluxOptions

    from .targets import check_target_name

    check_target_name(target)
    settings = _ncu_settings(ncu_path, sudo, sudo_path, ncu_set, ncu_args, clock_control, ncu_timeout,
                             library_kernels, ncu_batch)
    if ncu:
        from .settings import find_ncu

        find_ncu(settings.ncu)  # fail before the long run, not after it
    opts = ProfileOptions(
        target=target, out=str(out), steps=steps, warmup=warmup, force=force, ceilings=not no_ceilings,
        ncu=ncu, attention=not no_attention, settings=settings,
        flux=FluxOptions(height=height, width=width, text_len=text_len, batch=batch, dtype=dtype,
                         double_blocks=double_blocks, single_blocks=single_blocks,
                         checkpoint=str(checkpoint) if checkpoint else None),
        compile=CompileOptions(mode=mode, regional=not whole_model))
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task("steps", total=steps, visible=False)

        def log(msg: str) -> None:
            progress.reset(task, total=steps, visible=False)
            progress.console.print(f"[bold]·[/bold] {msg}")
            progress.update(task, description=msg, visible=True)

        def on_kernel(i: int, n: int, name: str) -> None:
            progress.update(task, description=f"ncu {name[:60]}", total=n, completed=i, visible=True)

        result = run_profile(opts, log=log, step_progress=lambda i: progress.update(task, completed=i + 1),
                             ncu_progress=on_kernel)
    console.print(f"run folder: {result.run.root}  (inductor-prof report {result.run.root})")
    if result.failed:
        names = ", ".join(result.failed)
        err.print(f"[red]error:[/red] stages failed: {names} (details in {result.run.manifest_path}); "
                  "everything else was kept", soft_wrap=True, highlight=False)
        raise typer.Exit(EXIT_FAILED)


@app.command("ncu", epilog=SETTINGS_HELP)
@cli_errors
def ncu_command(
    run: Path = typer.Argument(..., help="run folder written by `inductor-prof profile`"),
    ncu_path: Optional[str] = NCU_PATH, sudo: Optional[bool] = SUDO, sudo_path: Optional[str] = SUDO_PATH,
    ncu_set: Optional[str] = NCU_SET, ncu_args: Optional[str] = NCU_ARGS, clock_control: Optional[str] = CLOCK,
    ncu_timeout: Optional[float] = NCU_TIMEOUT, library_kernels: Optional[int] = LIB_KERNELS,
    ncu_batch: Optional[int] = NCU_BATCH,
):
    """Profile each unique kernel of an existing run folder with Nsight Compute (resumes where it stopped)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .ncu_stage import run_ncu
    from .rundir import open_run

    settings = _ncu_settings(ncu_path, sudo, sudo_path, ncu_set, ncu_args, clock_control, ncu_timeout,
                             library_kernels, ncu_batch)
    run_dir = open_run(run)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task("ncu", total=None)

        def on_kernel(i: int, n: int, name: str) -> None:
            progress.update(task, description=f"ncu {name[:60]}", total=n, completed=i)

        summary = run_ncu(run_dir, settings, log=progress.console.print, on_kernel=on_kernel)
    console.print(f"ncu: {summary['ok']} kernels profiled, {summary['failed']} failed, "
                  f"{summary['skipped']} already done; table in {run_dir.ncu_csv}")
    if summary["failed"]:
        raise typer.Exit(EXIT_FAILED)


@app.command()
@cli_errors
def report(
    run: Path = typer.Argument(..., help="run folder written by `inductor-prof profile`"),
    top: int = typer.Option(30, help="kernels to show (0: all)"),
    sort: str = typer.Option("time", help="time, calls, tflops, gbps, pct_of_peak, name"),
    csv: Optional[Path] = typer.Option(None, "--csv", help="also write the full kernel table to this CSV"),
    json_out: bool = typer.Option(False, "--json", help="print one JSON object instead of tables"),
):
    """Per-kernel report of a run folder: time share, TFLOP/s, GB/s, roofline position."""
    from .analysis import load_run_tables
    from .report import export, terminal

    sort_columns = {"time": ("total_ns", False), "calls": ("calls", False), "tflops": ("tflops", False),
                    "gbps": ("gbps", False), "pct_of_peak": ("pct_of_peak", False), "name": ("name", True)}
    if sort not in sort_columns:
        raise UserError(f"unknown --sort {sort!r}; use one of {', '.join(sort_columns)}")
    if top < 0:
        raise UserError("--top must be 0 (all) or more")
    tables = load_run_tables(run)
    df = tables.kernels
    if len(df):
        col, ascending = sort_columns[sort]
        df = df.sort_values(col, ascending=ascending, na_position="last")
    if csv:
        export.to_csv(df, csv)
    shown = df.head(top) if top else df
    if json_out:
        sys.stdout.write(export.to_json(tables, shown) + "\n")
        return
    terminal.render(tables, shown, terminal.make_console())
    if csv:
        console.print(f"kernel table written to {csv}")


@app.command()
@cli_errors
def attention(
    run: Optional[Path] = typer.Argument(None, help="run folder: benchmark at its captured attention shapes and "
                                         "save attention.csv there"),
    shape: list[str] = typer.Option([], "--shape", help="B,H,S,D or B,H,Sq,Sk,D (repeatable)"),
    sweep: bool = typer.Option(False, "--sweep", help="each --shape at sequence lengths 512 ... 16384 too"),
    dtype: str = typer.Option("bfloat16", help="bfloat16 or float16 (for --shape)"),
    backends: Optional[str] = typer.Option(None, help="comma-separated backend names (default: all)"),
    no_tune: bool = typer.Option(False, "--no-tune", help="own kernels at their default tiles, no autotuning"),
    rep_ms: float = typer.Option(100.0, "--rep-ms", help="timing budget per backend and shape, ms"),
    csv: Optional[Path] = typer.Option(None, "--csv", help="also write the results to this CSV"),
    json_out: bool = typer.Option(False, "--json", help="print the results as JSON"),
    list_only: bool = typer.Option(False, "--list", help="list the backends and whether each is available"),
):
    """Benchmark attention backends (own Triton / CUDA C++ / numba / torch, SDPA, FlexAttention, ...)."""
    import json

    import pandas as pd
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .attention import registry
    from .attention.bench import BenchOptions, run as run_bench
    from .attention.shapes import parse_shape, sweep as sweep_shapes
    from .report import terminal

    names = [b.strip() for b in backends.split(",") if b.strip()] if backends else None
    try:
        chosen = registry.backends(names)
        shapes = [parse_shape(s, dtype) for s in shape]
    except ValueError as e:
        raise UserError(str(e)) from e
    if list_only:
        t = terminal.Table(title="Attention backends", title_justify="left", header_style="bold")
        for col in ("backend", "origin", "available", "what / why not"):
            t.add_column(col)
        for b in chosen:
            t.add_row(b.name, b.origin, "yes" if b.available else "no", b.description if b.available else b.reason)
        terminal.make_console().print(t)
        return
    if sweep:
        shapes = [s for base in shapes for s in sweep_shapes(base)]
    if run is None and not shapes:
        raise UserError("give a run folder (its captured shapes) or at least one --shape B,H,S,D")
    from .pipeline import require_cuda

    require_cuda()
    opts = BenchOptions(backends=names, tune=not no_tune, rep_ms=rep_ms)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        task = progress.add_task("attention", total=None)

        def on_backend(i: int, n: int, label: str) -> None:
            progress.update(task, description=f"attention {label[:70]}", total=n, completed=i)

        if run is not None:
            from .attention.stage import run_attention
            from .rundir import open_run

            run_dir = open_run(run)
            summary = run_attention(run_dir, opts, shapes, on_backend)
            df = pd.read_csv(run_dir.attention_csv)
            where = f"saved to {run_dir.attention_csv} ({summary['ok']} of {summary['rows']} ok)"
        else:
            from .attention.stage import peak_tflops

            opts.peak_tflops = peak_tflops({})
            df = pd.DataFrame(run_bench([(s, 0, "") for s in shapes], opts, on_backend).rows)
            where = ""
    if csv:
        df.to_csv(csv, index=False)
    if json_out:
        from .report.export import records

        sys.stdout.write(json.dumps({"attention": records(df, [])}, indent=1) + "\n")
        return
    terminal.make_console().print(terminal.attention_table(df))
    if where:
        console.print(where)


def main():  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
