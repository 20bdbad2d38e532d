"""Stages `compile` and `warmup`: torch.compile of the target, regional (each repeated block) or whole-model,
into the run's own Inductor cache; the first step builds every kernel, with the launch hooks installed."""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass

from ..drivers import proton
from ..errors import UserError
from ..targets.base import Target
from ..targets.blocks import candidates_text, named_blocks

MODES = ("default", "max-autotune", "max-autotune-no-cudagraphs")


@dataclass
class CompileOptions:
    mode: str = "default"
    regional: bool = True      # compile each repeated block (fast compile, same kernels) vs the whole model
    fullgraph: bool = True
    blocks: tuple[str, ...] = ()   # --blocks: class names of the repeated blocks, for a model declaring none

    def validate(self) -> None:
        if self.mode not in MODES:
            raise UserError(f"unknown compile mode {self.mode!r}; use one of {', '.join(MODES)}")
        if self.blocks and not self.regional:
            raise UserError("--blocks names the blocks of regional compile; it cannot go with --whole-model")


def compile_target(target: Target, opts: CompileOptions) -> str:
    """Compiles in place (lazily: the first call builds the kernels); returns how it was compiled."""
    import torch

    opts.validate()
    kwargs = {"fullgraph": opts.fullgraph, "dynamic": False}
    if opts.mode != "default":
        kwargs["mode"] = opts.mode
    torch._dynamo.reset()
    if opts.regional and opts.blocks:
        target.blocks = named_blocks(target.model, list(opts.blocks))
    if opts.regional and target.blocks:
        for _, block in target.blocks:
            block.compile(**kwargs)
        return "regional"
    if opts.regional and not target.blocks:
        raise UserError(f"{target.name} declares no repeated blocks (_repeated_blocks) for regional compile; pass "
                        f"--blocks CLASS (layer classes it stacks: {candidates_text(target.model)}) or --whole-model")
    kwargs["fullgraph"] = False  # a whole model may have graph breaks outside the blocks
    target.model.compile(**kwargs)
    return "whole-model"


def run(ctx) -> dict:
    opts = ctx.opts.compile
    ctx.log(f"compiling ({opts.mode}, {'regional' if opts.regional else 'whole model'})")
    how = compile_target(ctx.target, opts)
    if how == "regional":
        proton.BlockScopes.wrap(ctx.target.model, ctx.target.blocks)
    with graph_breaks_explained(ctx.target, how):
        first_ms = proton.timed_steps(ctx.target, 1)[0]
    return {"how": how, "first_step_ms": first_ms}


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
                        f"fullgraph=True): {text.strip().splitlines()[0]}{where}; use --whole-model (graph breaks "
                        f"allowed) or remove the break") from e


def warmup(ctx) -> dict:
    return {"step_ms": proton.timed_steps(ctx.target, ctx.opts.warmup)}
