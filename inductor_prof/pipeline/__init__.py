"""`profile`: the stages of `stages.STAGES`, in order, over one new run folder."""
from __future__ import annotations

import os
import sys
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING

from .. import rundir
from ..envinfo import collect, require_cuda, require_gpu_extra
from ..errors import UserError, one_line
from ..inductor.cache import isolated_cache
from ..inductor.instrument import instrumented_inductor
from ..targets import check_target
from .compile import CompileOptions   # noqa: F401  (the Python API's options, importable from here)
from .options import ProfileOptions

if TYPE_CHECKING:
    from .stages import Context, Log, Start


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
    from .stages import STAGES, Context, starts_before

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
    if opts.ncu:   # found once (the manifest keeps the settings as given): the stages and workers get the path
        from ..drivers.ncu.locate import find_ncu

        try:
            opts = replace(opts, settings=replace(opts.settings, ncu=find_ncu(opts.settings.ncu)))
        except UserError:   # none: the ncu stage fails saying so, as before, and the run goes on
            pass
    ctx = Context(run, opts, manifest, log, step_progress, ncu_progress,
                  profile={"steps": opts.steps, "warmup": opts.warmup})
    failed: dict[str, str] = {}
    hooks, hooked = ExitStack(), False
    with isolated_cache(run.inductor_cache), hooks, ExitStack() as children:
        def runs(stage) -> bool:
            return all(getattr(opts, flag) for flag in stage.when)
        for stage in STAGES:
            if not runs(stage):
                continue
            if stage.hooks and not hooked:      # Inductor's launch hooks while it builds kernels, only then
                hooks.enter_context(instrumented_inductor(ctx.registry))
            elif hooked and not stage.hooks:
                hooks.close()
            hooked = stage.hooks
            if not stage.model:
                _free_model(ctx)
            for start in starts_before(stage.name, runs):   # later stages' children, working beside this one
                _start(ctx, start, failed, children)
            _recorded(ctx, stage.name, stage.run, stage.required, failed)
    manifest.set("failed_stages", failed)
    return ProfileResult(run=run, failed=failed)


def _recorded(ctx: Context, name: str, run, required: bool, failed: dict[str, str]) -> None:
    """`run(ctx)` as the manifest's entry `name`: a failure of a required one ends the profile (the folder marked
    stopped there), any other is recorded in `failed` and the profile goes on; Ctrl-C and SIGTERM end it."""
    from . import written

    try:
        with ctx.manifest.stage(name) as info:
            try:
                info.update(run(ctx) or {})
            except Exception as e:   # a stage that failed with counts (NothingProfiled) keeps them
                info.update(getattr(e, "stage_info", None) or {})
                raise
            finally:   # what its own process, Proton or ncu wrote, a failed stage's too
                written.record(ctx.manifest, name)
    except BaseException as e:
        if required:   # no result `report` can read: a retry may replace this folder
            ctx.manifest.set(rundir.STOPPED_AT, name)
            raise
        if not isinstance(e, Exception):   # Ctrl-C, SIGTERM: the profile ends here
            raise
        failed[name] = one_line(e, None)   # recorded in the manifest; the run goes on
        import traceback   # where it failed, for the run's log (stderr is profile.log's)

        traceback.print_exception(e, file=sys.stderr)
        ctx.log(f"stage {name} failed: {failed[name]}")


def _start(ctx: Context, start: Start, failed: dict[str, str], children: ExitStack) -> None:
    """A stage's early part run (stages.Start): its child kept in ctx.started for its stage to finish, and
    ended with the profile if it never was (registered at once: a Ctrl-C right after must still end it).
    Recorded in the manifest as a stage that is not required, unless `record` is off (then it fails as the
    profile would)."""
    def run(c: Context) -> dict:
        info, child = start.run(c)
        if child is not None:
            ctx.started[start.key] = child
            children.callback(child.end)
        return info
    if start.record:
        _recorded(ctx, start.key, run, False, failed)
    else:
        run(ctx)


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
