"""Stages `compile` and `warmup`: torch.compile of the target, regional (each repeated block) or whole-model,
into the run's own Inductor cache; the first step builds every kernel, with the launch hooks installed."""
from __future__ import annotations

from dataclasses import dataclass

from ..drivers import proton
from ..errors import UserError
from ..inductor.provenance import block_classes
from ..targets.base import Target

MODES = ("default", "max-autotune", "max-autotune-no-cudagraphs")


@dataclass
class CompileOptions:
    mode: str = "default"
    regional: bool = True      # compile each repeated block (fast compile, same kernels) vs the whole model
    fullgraph: bool = True

    def validate(self) -> None:
        if self.mode not in MODES:
            raise UserError(f"unknown compile mode {self.mode!r}; use one of {', '.join(MODES)}")


def compile_target(target: Target, opts: CompileOptions) -> str:
    """Compiles in place (lazily: the first call builds the kernels); returns how it was compiled."""
    import torch

    opts.validate()
    kwargs = {"fullgraph": opts.fullgraph, "dynamic": False}
    if opts.mode != "default":
        kwargs["mode"] = opts.mode
    torch._dynamo.reset()
    if opts.regional and target.blocks:
        for _, block in target.blocks:
            block.compile(**kwargs)
        return "regional"
    if opts.regional and not target.blocks:
        raise UserError(f"{target.name} declares no repeated blocks for regional compile; use --whole-model")
    kwargs["fullgraph"] = False  # a whole model may have graph breaks outside the blocks
    target.model.compile(**kwargs)
    return "whole-model"


def run(ctx) -> dict:
    opts = ctx.opts.compile
    ctx.log(f"compiling ({opts.mode}, {'regional' if opts.regional else 'whole model'})")
    how = compile_target(ctx.target, opts)
    if how == "regional":   # one graph serves every block of a class: its module paths get the blocks' pattern
        ctx.registry.provenance.blocks = block_classes(ctx.target.model, ctx.target.blocks)
        proton.BlockScopes.wrap(ctx.target.model, ctx.target.blocks)
    return {"how": how, "first_step_ms": proton.timed_steps(ctx.target, 1)[0]}


def warmup(ctx) -> dict:
    return {"step_ms": proton.timed_steps(ctx.target, ctx.opts.warmup)}
