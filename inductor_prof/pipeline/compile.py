"""Stages `compile` and `warmup`: torch.compile of the target, regional (each repeated block) or whole-model,
static or with symbolic shapes (`dynamic`), into the run's own Inductor cache; the first step at each input
size builds its kernels, with the launch hooks installed. The manifest keeps how many graphs Dynamo compiled
over all sizes: with `dynamic` a new size reuses the graph, without it each size compiles its own."""
from __future__ import annotations

import gc
import re
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from .. import rundir
from ..analysis.experiment_plan import uses_cuda_graphs
from ..drivers import proton
from ..errors import UserError
from ..inductor import launch_record
from ..inductor.provenance import block_classes
from ..targets.base import Target
from ..targets.blocks import candidates_text, named_blocks
from . import compile_cache, training

MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")


@dataclass
class CompileOptions:
    mode: str = "default"
    regional: bool = True      # compile each repeated block (fast compile, same kernels) vs the whole model
    fullgraph: bool = True
    blocks: tuple[str, ...] = ()   # class names of the repeated blocks, for a model declaring none
    dynamic: bool = False      # symbolic shapes: one graph serves every input size

    def validate(self) -> None:
        if self.mode not in MODES:
            raise UserError(f"unknown compile mode {self.mode!r}; use one of {', '.join(MODES)}")
        if self.blocks and not self.regional:
            raise UserError("{blocks} names the blocks of regional compile; it cannot go with {regional=False}",
                            ("blocks", "regional=False"))


def compile_target(target: Target, opts: CompileOptions) -> str:
    """Compiles in place (lazily: the first call builds the kernels); returns how it was compiled."""
    import torch

    opts.validate()
    kwargs: dict[str, Any] = {"fullgraph": opts.fullgraph, "dynamic": opts.dynamic}
    if opts.mode != "default":
        kwargs["mode"] = opts.mode
    # reset walks dynamo's backend cache, which finalizers of compiled functions collected mid-walk shrink
    # ("dictionary changed size during iteration", seen in a test process that compiled before): collect first
    gc.collect()
    torch._dynamo.reset()
    if opts.regional and opts.blocks:
        target.blocks = named_blocks(target.model, list(opts.blocks))
    if opts.regional and target.blocks:
        for _, block in target.blocks:
            block.compile(**kwargs)
        if uses_cuda_graphs(opts.mode):
            mark_steps(target.model)
        return "regional"
    if opts.regional and not target.blocks:
        raise UserError(f"{target.name} declares no repeated blocks (_repeated_blocks) for regional compile; pass "
                        f"{{blocks}} CLASS (layer classes it stacks: {candidates_text(target.model)}) or "
                        "{regional=False}", ("blocks", "regional=False"))
    kwargs["fullgraph"] = False  # a whole model may have graph breaks outside the blocks
    target.model.compile(**kwargs)
    return "whole-model"


def mark_steps(model) -> None:
    """Each block's graphs are CUDA graphs of one tree: a step starts a new generation of it (its outputs may then
    be overwritten), said before the model's own forward, outside every compiled block."""
    import torch

    model.register_forward_pre_hook(lambda module, args: torch.compiler.cudagraph_mark_step_begin())


def graphs_compiled() -> int:
    """Graphs Dynamo compiled in this process (a recompile counts: a new size without `dynamic`)."""
    from torch._dynamo.utils import counters

    return int(counters["stats"]["unique_graphs"])


def _room_for_sizes(n_sizes: int) -> None:
    """Without `dynamic` each size is a recompile of every compiled frame: past Dynamo's recompile limit (8)
    it would run the rest eagerly, unprofiled, so the limit grows with the sizes."""
    import torch._dynamo.config as dynamo_config

    name = "recompile_limit" if hasattr(dynamo_config, "recompile_limit") else "cache_size_limit"  # older torch
    setattr(dynamo_config, name, max(getattr(dynamo_config, name), 2 * n_sizes + 8))


def run(ctx) -> dict:
    opts = ctx.opts.compile
    seeded = compile_cache.seed(ctx)   # before Inductor first looks at its cache
    shapes = "dynamic shapes" if opts.dynamic else "static shapes"
    ctx.log(f"compiling ({opts.mode}, {'regional' if opts.regional else 'whole model'}, {shapes})")
    how = compile_target(ctx.target, opts)
    trained = training.install(ctx.target)   # a training target: phases marked, its optimizer step compiled
    _room_for_sizes(len(ctx.target.sizes))
    if how == "regional":   # one graph serves every block of a class: its module paths get the blocks' pattern
        ctx.registry.provenance.blocks = block_classes(ctx.target.model, ctx.target.blocks)
        proton.BlockScopes.wrap(ctx.target.model, ctx.target.blocks)
    before = graphs_compiled()
    if uses_cuda_graphs(opts.mode):   # the replays will not be priced by Proton's hook: the launches before them are
        ctx.launch_recorder = launch_record.LaunchRecorder()
    with graph_breaks_explained(ctx.target, how), recorded(ctx):
        first = {size: proton.timed_steps(_step(ctx, "compile", size, step), 1)[0]
                 for size, step in ctx.target.each_size()}
    info = {"how": how, "dynamic": opts.dynamic, "first_step_ms": next(iter(first.values())), **trained, **seeded}
    if len(first) > 1:   # the first step at each size: its compile, or its recompile without `dynamic`
        info["first_step_ms_by_size"] = first
    info["graphs_compiled"] = graphs_compiled() - before
    ctx.profile["graphs_compiled"] = info["graphs_compiled"]
    return info


_USER_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


@contextmanager
def graph_breaks_explained(target: Target, how: str):
    """Under regional compile each block is compiled with fullgraph=True, so a graph break in a block fails
    the first call with dynamo's long `Unsupported` message: one line instead, where and what to do."""
    import torch._dynamo.exc

    try:
        yield
    except torch._dynamo.exc.Unsupported as e:
        if how != "regional":
            raise
        text = str(e)
        frames = _USER_FRAME.findall(text.partition("from user code:")[2])
        where = f" at {frames[-1][0]}:{frames[-1][1]} in {frames[-1][2]}" if frames else ""
        classes = ", ".join(sorted({type(b).__name__ for _, b in target.blocks}))
        raise UserError(f"a block ({classes}) does not compile as one graph (regional compile uses "
                        f"fullgraph=True): {text.strip().splitlines()[0]}{where}; use {{regional=False}} (graph "
                        f"breaks allowed) or remove the break", ("regional=False",)) from e


def warmup(ctx) -> dict:
    with recorded(ctx):
        ms = {size: proton.timed_steps(_step(ctx, "warmup", size, step), ctx.opts.warmup)
              for size, step in ctx.target.each_size()}
    info: dict[str, Any] = {"step_ms": ms[None]} if None in ms else {"step_ms_by_size": ms}
    if ctx.launch_recorder is not None:
        doc = ctx.launch_recorder.document()
        rundir.write_json(ctx.run.recorded_launches, doc)
        info["recorded_launches"] = {"steps": len(doc["steps"]),
                                     "launches": [sum(k["launches"] for k in s["kernels"].values())
                                                  for s in doc["steps"]]}
    return info


def recorded(ctx):
    """The launches' work recorded (a CUDA-graphs run), else nothing."""
    return launch_record.recording(ctx.launch_recorder) if ctx.launch_recorder is not None else nullcontext()


def _step(ctx, stage: str, size: str | None, step):
    return ctx.launch_recorder.stepped(stage, size, step) if ctx.launch_recorder is not None else step
