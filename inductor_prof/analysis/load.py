"""A run folder's tables, read through runfiles/ (which validates each file and words each warning), in;
the analysed RunTables out (the analysis itself is pure and lives beside this module).

The report renders whatever is intact: a damaged required file (manifest.json, proton/steps.hatchet) is an
error naming it; a missing or damaged optional one is one warning, and the rest renders. A stage the manifest
records as failed or interrupted is said too.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .. import runfiles
from ..runfiles import crosscheck
from ..runfiles.sections import sections
from ..cost import with_flex_masks
from ..aten import REPLAYABLE_GEMMS
from ..errors import UserError
from ..peaks import DeviceFacts, Peaks, run_peaks, with_reached
from ..rundir import RunDir, open_run
from .headroom import attention_saving, headroom
from .kernels import block_patterns, by_name, kernel_table
from .ncu_compare import merge_ncu
from . import above_spec, advice, attention_training, beside_nccl, graph_prices, library_calls, older_runs, phases, training_advice
from .binding import add_binding
from .collectives import is_nccl
from .causes import source_facts
from .reachable import add_reachable
from .in_model import items as in_model_items
from .roofline import add_derived, judge_attention, reached_l2, reached_rates
from .sizes import kernels_by_size, size_names, size_summary, with_size
from .summary import Summary, summarize


@dataclass
class RunTables:
    run: RunDir
    manifest: dict[str, Any]
    kernels: pd.DataFrame          # one row per kernel name
    summary: Summary
    attention: pd.DataFrame | None
    warnings: list[str] = field(default_factory=list)   # one line each: a missing/damaged file, a failed stage
    launches: pd.DataFrame | None = None   # the timed steps' kernel rows (name, scope path, calls, time...)
    by_size: pd.DataFrame | None = None    # a run of several input sizes: kernel table per size (sizes.py)
    library_ops: pd.DataFrame | None = None   # library_ops.csv as read (None: missing or damaged, warned)
    failed_checks: list[str] = field(default_factory=list)   # warnings of files that failed a check
    # the source pass's counters as read once (stem -> runfiles.source_counters' dict): the advice's causes,
    # inspect and the HTML sections share them (a damaged file is one warning)
    source_counters: dict[str, dict[str, Any]] = field(default_factory=dict)
    experiments: dict[str, Any] | None = None    # experiments/experiments.json (`inductor-prof try`), where it was run


def run_peaks_of(device: dict[str, Any], manifest: dict[str, Any]) -> Peaks:
    """Peaks from the device facts Proton stored with the timed steps and the ceilings measured in the run."""
    m = sections(manifest)
    return run_peaks(DeviceFacts.from_proton(device), m.ceilings, m.gpu_name)


def read_source_counters(run: RunDir, warnings: list[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """(the source pass's status entries, stem -> its counters: runfiles.source_counters, {"error": why} where
    unreadable) for every kernel the pass profiled; ({}, {}) without the pass. Optional to the report: a damaged
    or unreadable status or counters file is a warning, and the advice goes without the causes."""
    try:
        status = runfiles.source_status(run, "the advice's causes need it")
        ok = [stem for stem, e in status.items() if e.get("status") == "ok"]
        return status, (runfiles.source_counters(run, ok, status, warnings) if ok else {})
    except UserError as e:
        warnings.append(str(e))
        return {}, {}


def source_facts_of(status: dict[str, Any], counters: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Kernel name -> causes.source_facts of its source counters (the first of its stems, by name)."""
    out: dict[str, dict[str, Any]] = {}
    for stem in sorted(counters):
        name = (status.get(stem) or {}).get("name")
        if name and name not in out and "error" not in counters[stem]:
            out[name] = source_facts(counters[stem])
    return out


def replays_priced(reader: runfiles.Reader, manifest: dict[str, Any],
                   annotated: pd.DataFrame | None) -> tuple[pd.DataFrame | None, dict[str, str]]:
    """The annotated rows with the CUDA graph replays' Inductor kernels priced from the launches recorded before
    the replays (graph_prices.py), where the run recorded them; {kernel: why not} for those left unpriced."""
    recorded = reader.recorded_launches()
    if annotated is None or recorded is None:
        return annotated, {}
    return graph_prices.priced(annotated, recorded, size_names(manifest))


def _with_beside_nccl(shapes: pd.DataFrame, library_ops: pd.DataFrame | None, reader: runfiles.Reader, run: RunDir,
                      sizes: list[str] | None) -> pd.DataFrame:
    """shapes with each call's share of its traced time beside an NCCL kernel (beside_nccl), where the run's
    torch.profiler step ran NCCL kernels (one input size: its trace is the one library_ops.csv was read from)."""
    # each distinct kernel once (a large run's library_ops.csv repeats 1,400 names over 23,000 rows)
    if library_ops is None or sizes or not any(map(is_nccl, library_ops["kernel"].unique().tolist())):
        return shapes
    trace = reader.optional(run.torch_trace_gz, runfiles.torch_trace_file,
                            "GEMMs beside NCCL kernels are judged as if alone", "library_ops")
    if trace is None:
        return shapes
    shares = beside_nccl.share_by_call(beside_nccl.beside_ns(trace["traceEvents"], library_ops))
    return shapes.merge(shares, on=beside_nccl.KEYS, how="left")


def load_run_tables(path: str | os.PathLike[str]) -> RunTables:
    run = open_run(path)
    manifest = runfiles.manifest(run)
    steps, device = runfiles.steps(run, manifest)
    if not len(steps):   # a tree with no timed kernel: nothing to report (was an AttributeError of pandas)
        raise UserError(f"{run.steps_hatchet} holds no kernel launches (Proton recorded none); the report needs "
                        "them")
    reader = runfiles.Reader(run, manifest)
    reader.failed(*runfiles.left_out(steps))
    n_steps, disagree = runfiles.checked_steps(run, manifest, steps)
    reader.failed(disagree)
    harvested = reader.kernels()
    # over the distinct names, not every launch row (250,000 in a large run; categorical: found by position)
    inductor_names = sum(1 for n in steps["name"].unique().tolist() if isinstance(n, str) and n.startswith("triton_"))
    if harvested == {} and inductor_names:
        reader.warnings.append(f"{run.kernels_json} lists no kernels, yet the steps ran {inductor_names} Inductor "
                               f"kernels; {runfiles.LACKING['kernels']}")
    harvested = harvested or {}
    io_split = reader.io_split(harvested)
    annotated = reader.annotated()
    annotated, graph_unpriced = replays_priced(reader, manifest, annotated)
    recorded = crosscheck.recorded_rows(manifest)
    library_ops = reader.library_ops()
    if library_ops is not None:
        reader.failed(crosscheck.row_count(run.library_ops_csv, len(library_ops), recorded.get("library_ops"),
                                           "rows", "stages.library_ops.library_launches"))
    timed = by_name(steps)   # once: a group-by of every launch row (250,000 in a large run)
    library_ops, short = crosscheck.library_calls_short(library_ops, timed["calls"], n_steps, run.library_ops_csv)
    reader.failed(short)
    has_gemms = library_ops is not None and bool(library_ops["op"].isin(REPLAYABLE_GEMMS).any())
    old = older_runs.warning(str(run.manifest_path), older_runs.lacking(manifest, has_gemms))
    if old:
        reader.warnings.append(old)
    calls = reader.attention_calls(expected=bool(recorded.get("calls")))
    off = None if calls is None else crosscheck.row_count(run.attention_shapes_json, len(calls), recorded.get("calls"),
                                                          "calls", "stages.library_ops.attention_calls")
    if off:   # FlexAttention prices and the attention savings come from these calls: none rather than some
        reader.failed(f"{off}; {runfiles.LACKING['calls']}")
        calls = None
    measured = run_peaks_of(device, manifest)
    # a call priced above what the GPU moves counted bytes it never moves: left out before any rate uses them
    library_ops, moved = above_spec.library_ops(library_ops, measured.get("spec") or {}, run.library_ops_csv)
    reader.failed(*moved)
    df = with_flex_masks(kernel_table(steps, annotated, harvested, library_ops, io_split, n_steps, graph_unpriced,
                                      timed), calls)
    attention = reader.attention()
    off = None if attention is None else crosscheck.row_count(run.attention_csv, len(attention),
                                                              recorded.get("attention"), "rows",
                                                              "stages.attention.last_line")
    if off:   # the headroom's attention savings come from these rows: none rather than some
        reader.failed(f"{off}; {runfiles.LACKING['attention']}")
        attention = None
    counters: dict[str, dict[str, Any]] = {}
    # a rate above the spec peak was timed or counted wrong: left out before it raises a roof (above_spec.py)
    timing = run.steps_launches if runfiles.present(run.steps_launches) else run.steps_hatchet
    df, over = above_spec.kernels(df, measured.get("spec") or {}, timing)
    attention, over_att = above_spec.attention(attention, measured.get("spec") or {}, run.attention_csv)
    reader.failed(*over, *over_att)
    # compute roofs never below what a kernel (or an attention backend) of the same width reached in this run;
    # what is compute-bound is decided at the spec roofs' ridge (reached_rates reads peaks["spec"])
    by_shape = library_calls.calls_by_shape(library_ops)
    peaks = with_reached(measured, reached_rates(df, attention, measured, by_shape),
                         reached_l2(df, by_shape, measured))
    sizes = size_names(manifest)
    by_size = None
    if sizes:   # the launches tables carry the size of each row
        steps = with_size(steps, sizes)
        annotated = with_size(annotated, sizes) if annotated is not None else None
        by_size = kernels_by_size(steps, annotated, harvested, library_ops, io_split, n_steps, peaks, sizes, calls)
    ncu = reader.ncu()
    attention = judge_attention(attention, peaks)
    flex = df.loc[df["kind"] == "flex_attention", "name"].tolist() if len(df) else []
    savings = attention_saving(attention, advice.kernels_by_shape(calls, flex),
                               attention_training.backward_kernels_by_shape(library_ops, calls),
                               attention_training.backward_calls_by_shape(library_ops, calls))
    if len(df):
        ceilings = manifest.get("ceilings")
        shapes = library_calls.with_best(by_shape,
                                         library_calls.replay_times(ceilings), library_calls.template_times(ceilings))
        shapes = _with_beside_nccl(shapes, library_ops, reader, run, sizes)
        df = merge_ncu(advice.per_shape(add_derived(df, peaks, n_steps), shapes, savings), ncu)
        # what ncu found busy, and the advice that follows it where it contradicts the roofline
        status, counters = read_source_counters(run, reader.warnings)
        df = advice.with_counters(add_binding(df, peaks), source_facts_of(status, counters))
        # the headroom to the unit that binds each kernel, beside the roofline's
        df = add_reachable(df)
        # each library kernel's calls by shape, nested in its row (the JSON's `calls_by_shape`; [] for the others)
        nested = library_calls.by_kernel(library_calls.shape_rows(shapes, df, peaks, block_patterns(harvested)))
        df["calls_by_shape"] = pd.Series([nested.get(n, []) for n in df["name"].tolist()], index=df.index, dtype=object)
    experiments = reader.experiments()
    graphs = ((manifest.get("stages") or {}).get("annotated_step") or {}).get("cuda_graphs")
    if graphs and not runfiles.present(run.recorded_launches):   # recorded before the replays were priced
        reader.warnings.append(f"{run.annotated_hatchet}: {graphs}")
    if graph_unpriced:
        first = next(iter(graph_unpriced.items()))
        reader.warnings.append(f"{run.recorded_launches}: {len(graph_unpriced)} Inductor kernel(s) of the CUDA graph "
                               f"replays left without flops or bytes ({first[0]}: {first[1]})")
    reader.failed_stages()
    training = phases.is_training(steps)
    if training and len(df):   # each kernel's phases (forward, backward, optimizer)
        df["phase"] = df["name"].map(phases.kernel_phases(steps)).fillna("")
    summary = summarize(df, manifest, peaks, n_steps)
    if training:
        summary["phases"] = phases.phase_summary(steps, annotated, library_ops, n_steps,
                                                 (manifest.get("profile") or {}).get("phase_memory"))
    if len(df):
        summary["headroom"] = headroom(df, summary["plain_step_ms"], savings,
                                       in_model=in_model_items(df, savings, ncu))
    if training and len(df):
        compiled = ((manifest.get("stages") or {}).get("compile") or {}).get("optimizer_compiled")
        summary["training"] = training_advice.items(df, summary["phases"], peaks, compiled)
    if sizes:
        summary["sizes"] = size_summary(by_size, manifest, sizes, n_steps)
        summary["ncu_at_size"] = ((manifest.get("stages") or {}).get("ncu") or {}).get("at_size")
    return RunTables(run=run, manifest=manifest, kernels=df, summary=summary, attention=attention,
                     warnings=reader.warnings, launches=steps, by_size=by_size, library_ops=library_ops,
                     failed_checks=reader.failed_checks, source_counters=counters, experiments=experiments)
