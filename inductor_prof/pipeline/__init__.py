"""`profile`: the stages of `stages.STAGES`, in order, over one new run folder."""
from __future__ import annotations

import os
import sys
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from .. import rundir
from ..envinfo import collect, require_cuda, require_gpu_extra
from ..errors import UserError, one_line
from ..inductor.cache import isolated_cache
from ..inductor.instrument import instrumented_inductor
from ..settings import Settings
from ..targets import FluxOptions, check_target
from .compile import CompileOptions

if TYPE_CHECKING:
    from .stages import Context, Log


@dataclass
class ProfileOptions:
    target: str = "flux"
    out: str = "runs/flux"
    steps: int = 5
    warmup: int = 2
    force: bool = False
    ceilings: bool = True
    ncu: bool = False
    attention: bool = True
    nproc: int | None = None      # ranks under torchrun, one GPU each (ranks.py); None: this process, one GPU
    settings: Settings = field(default_factory=Settings)
    flux: FluxOptions = field(default_factory=FluxOptions)
    compile: CompileOptions = field(default_factory=CompileOptions)


@dataclass
class ProfileResult:
    run: rundir.RunDir
    failed: dict[str, str]      # stage -> why, for the stages that failed but let the run go on


def profile(opts: ProfileOptions, log: Log = print, step_progress=None, ncu_progress=None):
    """One profile into opts.out (a ProfileResult); with opts.nproc, one per rank under torchrun (a
    ranks.RankedResult)."""
    # the stages are imported here, not above: `python -m inductor_prof.pipeline.attention` (a stage's own
    # process) imports this package first, and must not find its module imported already
    require_gpu_extra("inductor_prof.profile()")   # before the stages import torch
    opts.compile.validate()
    if opts.nproc is not None:
        from .ranks import profile_ranks

        return profile_ranks(opts, log)
    from . import written
    from .stages import STAGES, Context

    if opts.steps < 1:
        raise UserError("{steps} must be at least 1", ("steps",))
    check_target(opts.target, opts.flux)   # a bad target leaves no run folder (nor replaces one under --force)
    require_cuda("profile")   # after the input: on a CPU machine a typo is said as one, not as "needs a GPU"
    stopped = rundir.stopped_early(opts.out)
    if stopped and not opts.force:   # kept for its log until now; nothing in it was measured
        log(f"replacing {opts.out}: its profile failed at stage {stopped}, before any timed step")
    run = rundir.create(opts.out, opts.force or stopped is not None)
    created = round(time.time(), 3)   # with the stages' start times: where a run's time goes before its stages
    manifest = rundir.Manifest(run, {"tool": "inductor-prof", "command": sys.argv, "created": created,
                                     "settings": asdict(opts), "env": collect(),
                                     **distributed()})
    ctx = Context(run, opts, manifest, log, step_progress, ncu_progress,
                  profile={"steps": opts.steps, "warmup": opts.warmup})
    failed: dict[str, str] = {}
    hooks, hooked = ExitStack(), False
    with isolated_cache(run.inductor_cache), hooks, ExitStack() as builds:
        ctx.on_exit = builds.callback
        if opts.attention:
            from .attention import start_build

            ctx.attention_build = start_build(run, opts.settings)
            if ctx.attention_build is not None:
                builds.callback(ctx.attention_build.end)
        for stage in STAGES:
            if not all(getattr(opts, flag) for flag in stage.when):
                continue
            if stage.hooks and not hooked:      # Inductor's launch hooks while it builds kernels, only then
                hooks.enter_context(instrumented_inductor(ctx.registry))
            elif hooked and not stage.hooks:
                hooks.close()
            hooked = stage.hooks
            if not stage.model:
                _free_model(ctx)
            try:
                with manifest.stage(stage.name) as info:
                    try:
                        info.update(stage.run(ctx) or {})
                    except Exception as e:   # a stage that failed with counts (NothingProfiled) keeps them
                        info.update(getattr(e, "stage_info", None) or {})
                        raise
                    finally:   # what its own process, Proton or ncu wrote, a failed stage's too
                        written.record(manifest, stage.name)
            except BaseException as e:
                if stage.required:   # no result `report` can read: a retry may replace this folder
                    manifest.set(rundir.STOPPED_AT, stage.name)
                    raise
                if not isinstance(e, Exception):   # Ctrl-C, SIGTERM: the profile ends here
                    raise
                failed[stage.name] = one_line(e, None)   # recorded in the manifest; the run goes on
                log(f"stage {stage.name} failed: {failed[stage.name]}")
    manifest.set("failed_stages", failed)
    return ProfileResult(run=run, failed=failed)


def distributed() -> dict:
    """{"distributed": rank, local rank, world size} in a rank of `profile --nproc` (torchrun's variables)."""
    keys = {"rank": "RANK", "local_rank": "LOCAL_RANK", "world_size": "WORLD_SIZE"}
    if "RANK" not in os.environ:
        return {}
    try:
        return {"distributed": {k: int(os.environ[v]) for k, v in keys.items() if v in os.environ}}
    except ValueError:
        return {}


def _free_model(ctx: Context) -> None:
    """The model's weights are not needed by the stages that run in their own processes."""
    if ctx.target is None:
        return
    ctx.target = None
    import torch

    torch.cuda.empty_cache()
