"""Stage `harvest`: every Triton kernel Inductor wrote that the model launched, as a standalone file, its
annotated copy (launch_metadata attached), and kernels.json (kind, fused ATen ops, inductor_meta, the
launch config the autotuner chose, provenance: the FX nodes, modules and source lines it came from)."""
from __future__ import annotations

from pathlib import Path

from .. import rundir, runfiles
from ..inductor.kernel_files import annotate_source, file_stem
from ..inductor.kernel_provenance import kernel_provenance, with_saved
from ..inductor.metrics import KernelMetrics
from ..inductor.output_code import KernelRecord, harvest_texts, loaded_output_code, output_code_texts


def write_kernels(records: list[KernelRecord], out_dir: Path) -> list[dict]:
    """One .py per kernel (as Inductor wrote it, runnable standalone) plus its annotated copy; kernels.json rows."""
    counts: dict[str, int] = {}
    for r in records:
        counts[r.name] = counts.get(r.name, 0) + 1
    rows = []
    for r in records:
        stem = file_stem(r.name, r.source_sha, counts[r.name] > 1)
        rundir.write_text(out_dir / f"{stem}.py", r.source)
        # the same launch_metadata the instrumented compile installs (in_out_read included)
        metrics = KernelMetrics.for_source(r.name, r.source, r.heuristic)
        try:
            annotated = annotate_source(r.source, metrics)
        except ValueError:
            annotated = None
        if annotated is not None:
            rundir.write_text(out_dir / f"{stem}.annotated.py", annotated)
        rows.append({**r.to_json(), "file": f"{stem}.py", "annotated_file": annotated and f"{stem}.annotated.py",
                     "name_shared_by": counts[r.name]})
    return rows


def this_process(cache_dir: Path, wrappers: dict[str, str]) -> dict[str, str]:
    """The output-code modules of `wrappers` (relative path -> text) that this process loaded: a seeded cache
    also holds the graphs of earlier runs. All of them when the loaded ones cannot be told (another torch)."""
    loaded = loaded_output_code(cache_dir)
    mine = {rel: text for rel, text in wrappers.items() if loaded is not None and rel in loaded}
    return mine if loaded is not None and mine else wrappers


def run(ctx) -> dict:
    ctx.log("harvesting kernels")
    wrappers = output_code_texts(ctx.run.inductor_cache)   # read once: the kernels and their provenance
    cache = getattr(ctx, "compile_cache", None)   # None: a context of no compile (tests, tools)
    if cache is not None and cache.seeded:   # seeded from an earlier run: only the graphs this one loaded
        wrappers = this_process(ctx.run.inductor_cache, wrappers)
        ctx.registry.provenance.records = with_saved(ctx.registry.provenance.records, cache.provenance())
    records = harvest_texts(wrappers)
    launched = set(runfiles.steps(ctx.run, ctx.manifest.data, "the harvest stage needs it")[0]["name"])
    provenance = kernel_provenance(ctx.registry.provenance.records, wrappers, ctx.registry.provenance.blocks)
    for r in records:
        r.provenance = provenance.get((r.name, r.source_sha))
        built = ctx.registry.find(r.name, r.source)
        if built is not None:
            r.launch_config = built.launch_config()
        r.launched = r.name in launched
    rows = write_kernels([r for r in records if r.launched], ctx.run.kernels_dir)
    rundir.write_json(ctx.run.kernels_json, rows)
    return {"harvested": len(records), "launched": len(rows),
            "instrumented": sum(len(b) for b in ctx.registry.kernels.values())}
