"""The commands that run the pipeline and read its runs: `profile`, `ncu`, `report`, `attention`. Each parses
its options, calls one library function, renders; its errors go to the app's one exit path (core.py)."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Optional, cast

import typer
from rich.console import Console

from ..envinfo import require_gpu_extra
from ..gpu_probe import require_gpu_device
from ..errors import EXIT_FAILED, StepFailed, UserError
from ..settings import Settings
from . import collector
from .core import command, console, err
from .messages import ncu_summary, print_warnings, source_summary
from .options import EPILOG, WIDTH_OPTION, with_ncu_options
from .progress import reporter
from .streams import library_output, stdout_to_stderr



def early_gpu_check(target: str, dtype: Optional[str]) -> bool:
    """Whether `profile` may refuse for want of a GPU before the checks that import torch or the user's module:
    not when one of those would say something else first (a dtype no FLUX run takes, a module not found)."""
    from importlib.machinery import PathFinder

    from ..targets.flux import DTYPE_NAMES, FLUX_PRESETS

    if target in FLUX_PRESETS:
        return dtype is None or dtype in DTYPE_NAMES
    top = target.partition(":")[0].split(".")[0]
    return bool(top) and (PathFinder.find_spec(top, [str(Path.cwd()), *sys.path]) is not None
                          or top in sys.builtin_module_names)


@command(epilog=EPILOG)
@with_ncu_options
def profile(
    target: str = typer.Argument("flux", help="flux, flux-schnell, or package.module:factory"),
    out: Path = typer.Option(Path("runs/flux"), "--out", "-o", help="run folder to create"),
    force: bool = typer.Option(False, "--force", help="replace an existing run folder"),
    steps: int = typer.Option(5, help="profiled steps"),
    warmup: int = typer.Option(2, help="warm-up steps after the compiling one"),
    mode: str = typer.Option("default", help="compile mode: default, reduce-overhead (CUDA graphs), max-autotune, "
                              "max-autotune-no-cudagraphs"),
    whole_model: bool = typer.Option(False, "--whole-model", help="compile the whole model, not each repeated block"),
    train: bool = typer.Option(False, "--train", help="profile a training step: forward, backward, optimizer "
                               "(flux: its last blocks fine-tuned; a factory returns a TrainingStep)"),
    blocks: Optional[str] = typer.Option(None, "--blocks", help="class names of the repeated blocks to compile one "
                                         "by one, comma-separated (a model without _repeated_blocks)"),
    dynamic: bool = typer.Option(False, "--dynamic", help="compile with symbolic shapes, so input sizes share a "
                                 "graph (without it each size compiles its own; the report counts the graphs)"),
    resolutions: Optional[str] = typer.Option(None, "--resolutions", help="flux: several input sizes in one run, "
                                              "WIDTHxHEIGHT,... (e.g. 1024x1024,512x512; the first is the default)"),
    height: Optional[int] = typer.Option(None, help="flux: image height in pixels (default 1024)"),
    width: Optional[int] = typer.Option(None, help="flux: image width in pixels (default 1024)"),
    text_len: Optional[int] = typer.Option(None, help="flux: text tokens (default 512)"),
    batch: Optional[int] = typer.Option(None, help="flux: batch size (default 1)"),
    dtype: Optional[str] = typer.Option(None, help="flux: bfloat16, float16 or float32 (default bfloat16)"),
    double_blocks: Optional[int] = typer.Option(None, help="flux: double-stream blocks (default 19)"),
    single_blocks: Optional[int] = typer.Option(None, help="flux: single-stream blocks (default 38)"),
    checkpoint: Optional[Path] = typer.Option(None, help="flux: local diffusers folder or .safetensors file"),
    no_ceilings: bool = typer.Option(False, "--no-ceilings", help="skip measuring matmul/copy ceilings"),
    ncu: bool = typer.Option(False, "--ncu", help="also profile each unique kernel with Nsight Compute"),
    no_attention: bool = typer.Option(False, "--no-attention", help="skip benchmarking attention backends"),
    nproc: Optional[int] = typer.Option(None, "--nproc", help="run under torchrun as N ranks, one GPU each, "
                                        "into RUN/rank<i>/ (ncu on rank 0)"),
    verbose: bool = typer.Option(False, "--verbose", help="show library warnings and compiler output here, "
                                 "not in RUN/profile.log"),
    settings: Settings = None,  # type: ignore[assignment]  # with_ncu_options fills it in
):
    """Compile TARGET, harvest and annotate its Inductor kernels, and profile it into a run folder."""
    require_gpu_extra("`inductor-prof profile`")   # the light install: one line, before anything imports torch
    from ..targets import FluxOptions, check_target_name, refuse_flux_options, resolution_options

    check_target_name(target)
    refuse_flux_options(target, {"--height": height, "--width": width, "--text-len": text_len, "--batch": batch,
                                 "--dtype": dtype, "--double-blocks": double_blocks,
                                 "--single-blocks": single_blocks, "--checkpoint": checkpoint})
    for option, value, least in (("--steps", steps, 1), ("--warmup", warmup, 0), ("--text-len", text_len, 1),
                                 ("--batch", batch, 1), ("--double-blocks", double_blocks, 0),
                                 ("--single-blocks", single_blocks, 0)):   # not typer's min=: help fits 80 columns
        if value is not None and value < least:
            raise UserError(f"{option} must be at least {least}, not {value}")
    sizes: dict[str, Any] = resolution_options(target, resolutions, height, width)   # a bad size: one line, before any GPU work
    if train and resolutions is not None:
        raise UserError("--train profiles one input size; leave out --resolutions")
    if train and nproc is not None and nproc < 2:
        raise UserError(f"--train --nproc {nproc}: a training step over ranks needs 2 or more (data parallel); "
                        "leave out --nproc to train on one GPU")
    if early_gpu_check(target, dtype):
        require_gpu_device("`inductor-prof profile`")   # before torch is imported: at once on a CPU machine
    from ..drivers.ncu.locate import find_ncu
    from ..pipeline import CompileOptions, ProfileOptions, profile as run_profile
    if ncu:
        find_ncu(settings.ncu)  # fail before the long run, not after it
    opts = ProfileOptions(
        target=target, out=str(out), steps=steps, warmup=warmup, force=force, ceilings=not no_ceilings, train=train,
        ncu=ncu, attention=not no_attention, settings=settings,
        flux=FluxOptions(**sizes, **{k: cast(Any, v) for k, v in (("text_len", text_len), ("batch", batch), ("dtype", dtype))
                                     if v is not None},   # not given: FluxOptions' defaults
                         double_blocks=double_blocks, single_blocks=single_blocks,
                         checkpoint=str(checkpoint) if checkpoint else None),
        compile=CompileOptions(mode=mode, regional=not whole_model, dynamic=dynamic,
                               blocks=tuple(c.strip() for c in (blocks or "").split(",") if c.strip())))
    opts.compile.validate()   # bad options fail before any GPU work
    if nproc is not None:
        opts.nproc = nproc
        ranked = run_profile(opts, log=lambda line: err.print(line, markup=False, highlight=False, soft_wrap=True))
        root = ranked.run.root
        console.print(f"run folder: {root}  (inductor-prof report {root})", markup=False)
        if ranked.why:
            raise StepFailed(f"{ranked.why} (each rank's exit in {ranked.run.ranks_json})")
        return
    with library_output(verbose) as lib, reporter(Console(file=lib.terminal, emoji=False), total=steps) as bar:
        result = run_profile(opts, log=bar.log, step_progress=bar.step, ncu_progress=bar.items)
        lib.keep_in(result.run.profile_log)
    console.print(f"run folder: {result.run.root}  (inductor-prof report {result.run.root})", markup=False)
    if result.failed:
        raise StepFailed(f"stages failed: {', '.join(result.failed)} (details in {result.run.manifest_path}); "
                         "everything else was kept")


@command("ncu", epilog=EPILOG)
@with_ncu_options
def ncu_command(
    run: Path = typer.Argument(..., help="run folder written by `inductor-prof profile`"),
    source: list[str] = typer.Option([], "--source", metavar="KERNEL", help="collect only this kernel's per-line counters (for "
                                     "`inspect`; a name or a unique part of one; repeatable)"),
    settings: Settings = None,  # type: ignore[assignment]  # with_ncu_options fills it in
):
    """Profile each unique kernel of an existing run folder with Nsight Compute (resumes where it stopped), then
    the per-line counters of the kernels with the most headroom."""
    require_gpu_extra("`inductor-prof ncu`")   # the kernels ncu profiles are replayed with torch and triton
    from ..rundir import open_run

    run_dir = open_run(run)
    require_gpu_device("`inductor-prof ncu`")   # before torch or pandas is imported: at once on a CPU machine
    from ..pipeline import ncu_source
    from ..pipeline.ncu import on_existing_run
    failed = False
    if not source:
        with reporter(console) as bar:
            summary = on_existing_run(run_dir, settings, log=bar.note, on_kernel=bar.items)
        console.print(ncu_summary(summary, run_dir.ncu_csv), soft_wrap=True, markup=False, highlight=False)
        failed = bool(summary["failed"] or summary["not_tried"])
    with reporter(console) as bar:
        lines = ncu_source.on_existing_run(run_dir, settings, source, log=bar.note, on_kernel=bar.items)
    if lines is not None:
        console.print(source_summary(lines, run_dir.ncu_source_dir), soft_wrap=True, markup=False,
                      highlight=False)
        failed = failed or bool(lines["failed"])
    if failed:
        raise typer.Exit(EXIT_FAILED)


SORT_COLUMNS = {"time": ("total_ns", False), "calls": ("calls", False), "tflops": ("tflops", False),
                "gbps": ("gbps", False), "pct_of_peak": ("pct_of_peak", False), "name": ("name", True)}


@command()
@collector.paused
def report(
    run: Path = typer.Argument(..., help="run folder written by `inductor-prof profile`"),
    top: int = typer.Option(30, help="kernels to show (0: all)"),
    sort: str = typer.Option("time", help=", ".join(SORT_COLUMNS)),
    csv: Optional[Path] = typer.Option(None, "--csv", help="also write the full kernel table to this CSV (-: "
                                       "to stdout, instead of tables)"),
    json_out: bool = typer.Option(False, "--json", help="print one JSON object instead of tables"),
    width: Optional[int] = WIDTH_OPTION,
    html_out: Optional[Path] = typer.Option(None, "--html", help="write a self-contained HTML report (all kernels, "
                                            "charts, kernel sources) to this file instead of printing tables"),
    rank: Optional[int] = typer.Option(None, "--rank", help="a run of several ranks (profile --nproc): whose "
                                       "kernels to show (default 0)"),
):
    """Per-kernel report of a run folder: time share, TFLOP/s, GB/s, roofline position."""
    from ..analysis import load_run_tables
    from ..report import export, ranks as rank_report, terminal
    from ..rundir import check_output, is_ranked, refuse_inside_run

    if sort not in SORT_COLUMNS:
        raise UserError(f"unknown --sort {sort!r}; use one of {', '.join(SORT_COLUMNS)}")
    if top < 0:
        raise UserError("--top must be 0 (all) or more")
    csv_out = export.to_stdout(csv)
    if csv_out and json_out:
        raise UserError("--csv - and --json both print to stdout; give --csv a file")
    if csv and not csv_out:
        refuse_inside_run(csv, "--csv")
        check_output(csv, "--csv")
    if html_out:
        check_output(html_out, "--html")
    ranks, shown_rank = None, 0   # shown_rank: read only with ranks (a run of several ranks)
    if is_ranked(run):   # RUN/rank<i>/: the ranks' table, then one rank's report as for any run
        from ..analysis.ranks import load_ranks, pick_rank, rank_advice

        ranks = load_ranks(run)
        shown_rank, note = pick_rank(ranks, rank)
        run = ranks.ranked.rank(shown_rank).root
        ranks.warnings += [note] if note else []
    elif rank is not None:
        raise UserError(f"--rank {rank}: {run} is a run of one process, not of several ranks (profile --nproc)")
    with stdout_to_stderr() if json_out or csv_out else contextlib.nullcontext():
        tables = load_run_tables(run)
    if ranks is not None:
        tables.warnings[:0] = ranks.warnings
        rank_advice(tables, ranks, shown_rank)
    df = tables.kernels
    if len(df):
        col, ascending = SORT_COLUMNS[sort]
        df = df.sort_values(col, ascending=ascending, na_position="last")
    if csv:
        export.to_csv(df, csv, tables.by_size)
        if tables.experiments and not csv_out:   # `inductor-prof try`'s experiments: a table of their own
            export.experiments_to_csv(tables.experiments, export.experiments_csv_path(csv))
            err.print(f"experiments written to {export.experiments_csv_path(csv)}", markup=False, highlight=False,
                      soft_wrap=True)
    if html_out:
        from ..report import html

        html.write(tables, df, html_out, html.ranks_view(ranks, shown_rank) if ranks is not None else None)
        err.print(f"HTML report written to {html_out}", markup=False, highlight=False, soft_wrap=True)
    if csv_out:   # stdout holds the table alone; the warnings go to stderr
        print_warnings(tables.warnings)
        return
    shown = df.head(top) if top else df
    if json_out:   # the warnings are in the JSON; stderr gets them too, stdout stays one document
        print_warnings(tables.warnings)
        sys.stdout.write(export.to_json(tables, shown, total=len(df),
                                        ranks=rank_report.to_json(ranks, shown_rank) if ranks else None) + "\n")
        return
    print_warnings(tables.warnings)
    out = terminal.make_console(width)
    if not html_out:
        if ranks is not None:
            rank_report.render(ranks, shown_rank, out)
        terminal.render(tables, shown, out, total=len(df))
    if csv:
        out.print(f"kernel table written to {csv}", soft_wrap=True)


@command()
def attention(
    run: Optional[Path] = typer.Argument(None, help="run folder: benchmark at its captured attention shapes and "
                                         "save attention.csv there"),
    shape: list[str] = typer.Option([], "--shape", help="B,H,S,D or B,H,Sq,Sk,D; H as Hq/Hkv for GQA; ,causal at the end (repeatable)"),
    sweep: bool = typer.Option(False, "--sweep", help="each --shape at sequence lengths 512 ... 16384 too"),
    dtype: str = typer.Option("bfloat16", help="bfloat16 or float16 (for --shape)"),
    backends: Optional[str] = typer.Option(None, help="comma-separated backend names (default: all)"),
    no_tune: bool = typer.Option(False, "--no-tune", help="own kernels at their default tiles, no autotuning"),
    retune: bool = typer.Option(False, "--retune", help="tune the own kernels again, over their cached tiles "
                                "(INDUCTOR_PROF_TUNING_CACHE: the cache folder)"),
    rep_ms: float = typer.Option(100.0, "--rep-ms", min=0.0, help="timing budget per backend and shape, ms"),
    csv: Optional[Path] = typer.Option(None, "--csv", help="also write the results to this CSV (-: to stdout, "
                                       "instead of tables)"),
    json_out: bool = typer.Option(False, "--json", help="print the results as JSON"),
    list_only: bool = typer.Option(False, "--list", help="list the backends and whether each is available"),
    width: Optional[int] = WIDTH_OPTION,
):
    """Benchmark attention backends (own Triton / CUDA C++ / numba / torch, SDPA, FlexAttention, ...)."""
    require_gpu_extra("`inductor-prof attention`")   # --list too: the backends are found by importing them
    import json

    from ..analysis.attention_layout import qkv_lines
    from ..analysis.attention_training import dout_lines
    from ..attention.benchmark import registry
    from ..attention.semantics.shapes import parse_shape, sweep as sweep_shapes
    from ..envinfo import require_cuda
    from ..pipeline.attention import benchmark, note_lines, options
    from ..report import terminal
    from ..report.export import to_stdout, write_table
    from ..rundir import check_output, open_run, refuse_inside_run
    from ..settings import resolve

    names = [b.strip() for b in backends.split(",") if b.strip()] if backends else None
    try:
        chosen = registry.backends(names)
        shapes = [parse_shape(s, dtype) for s in shape]
    except ValueError as e:
        raise UserError(str(e)) from e
    if list_only:
        out = terminal.make_console(width)
        out.print(terminal.backends_table(chosen, out.width))
        return
    if sweep:
        shapes = [s for base in shapes for s in sweep_shapes(base)]
    run_dir = open_run(run) if run is not None else None
    if to_stdout(csv) and json_out:
        raise UserError("--csv - and --json both print to stdout; give --csv a file")
    if csv and not to_stdout(csv):
        refuse_inside_run(csv, "--csv")
        check_output(csv, "--csv")
    if run_dir is None and not shapes:
        raise UserError("give a run folder (its captured shapes) or at least one --shape B,H,S,D")
    device = "cuda"
    try:
        require_cuda("attention")
    except UserError:
        if run_dir is not None:   # a run's attention.csv holds GPU timings only
            raise
        device = "cpu"
        err.print("no CUDA GPU: the backends that run on the CPU are checked and timed there (host wall time, "
                  "own kernels untuned); the GPU ones are listed with the reason", markup=False, soft_wrap=True)
    settings = resolve({"retune": retune or None})[0]
    opts = options(settings, names, tune=not no_tune, rep_ms=rep_ms, device=device)
    with reporter(err) as bar, stdout_to_stderr() if json_out or to_stdout(csv) else contextlib.nullcontext():
        df, summary = benchmark(run_dir, shapes, opts, bar.items, settings=settings)   # with --json, compilers' output to stderr
    for line in note_lines(summary):   # the tuning cache's warnings and outcome, the reduced checks
        err.print(line, markup=False, highlight=False, soft_wrap=True)
    if csv:
        write_table(csv, df)
        if to_stdout(csv):
            return
    if json_out:
        from ..report.export import records

        sys.stdout.write(json.dumps({"attention": records(df, [])}, indent=1) + "\n")
        return
    out = terminal.make_console(width)
    tables = terminal.attention_tables(df)   # a training run's: the forward table, then the forward+backward one
    for title, rows in tables if len(tables) > 1 else [("Attention backends", df)]:
        out.print(terminal.attention_table(rows, title, width=out.width))
    for line in qkv_lines(df) + dout_lines(df):   # the model's q, k, v layout; a training run's dout layout
        out.print(line, markup=False, highlight=False, soft_wrap=True)
    if run_dir is not None:
        out.print(f"saved to {run_dir.attention_csv} ({summary['ok']} of {summary['rows']} ok)", soft_wrap=True)
