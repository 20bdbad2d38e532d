"""Stage `build`: the target (FLUX or a `module:factory`) on the GPU with its example inputs."""
from __future__ import annotations

from ..targets import resolve
from ..targets.data_parallel import wrap


def run(ctx) -> dict:
    ctx.log(f"building {ctx.opts.target}")
    ctx.target = resolve(ctx.opts.target, ctx.opts.flux, getattr(ctx.opts, "train", False))
    parallel = wrap(ctx.target.training)   # --train --nproc N: DDP unless the factory spread the model itself
    if parallel is not None:
        ctx.target.info["data_parallel"] = parallel
    ctx.manifest.set("target", ctx.target.info)
    if len(ctx.target.sizes) > 1:    # the run's input sizes, in order (the first the default): steps fill them
        ctx.profile["sizes"] = {name: {} for name in ctx.target.sizes}
        ctx.manifest.set("profile", ctx.profile)
    return {"parameters": ctx.target.info.get("parameters")}
