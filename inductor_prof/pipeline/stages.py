"""The stages of `profile`, in run order: one list that the run and its manifest follow.

Each stage is a function of the run's context (the run folder, the options, and what earlier stages left in
memory: the built model, the kernel registry) returning what the manifest keeps about it. A required stage
that fails ends the run; any other failure is recorded and the run goes on, so nothing measured is lost.

A stage may start early (`Start`): its child process is started just before another stage runs, works beside
the stages in between, and the stage itself finishes it at its own turn (`ctx.started[key]`). The overlap is
declared here, in the stage's row, not as a second stage.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .. import procs, rundir
from ..inductor.instrument import KernelRegistry
from . import attention, build, ceilings, compile, compile_cache, harvest, library_ops, ncu, ncu_source_beside, steps, \
    training
from .options import ProfileOptions

Log = Callable[[str], None]
Child = procs.Worker   # a started child, ended with the run if never waited for


@dataclass
class Context:
    run: rundir.RunDir
    opts: ProfileOptions
    manifest: rundir.Manifest
    log: Log
    step_progress: Callable[[int], None] | None = None
    ncu_progress: Callable[[int, int, str], None] | None = None
    target: Any = None                      # the built model (targets.Target), set by `build`
    registry: KernelRegistry = field(default_factory=KernelRegistry)
    profile: dict = field(default_factory=dict)   # manifest["profile"]: step times
    compile_cache: Any = None               # inductor.compile_cache.CompileCache, set by `compile`
    launch_recorder: Any = None             # inductor.launch_record.LaunchRecorder of a CUDA-graphs run's first steps
    started: dict[str, Child] = field(default_factory=dict)   # Start.key -> its child, for the stage to finish


@dataclass(frozen=True)
class Start:
    """The early part of a stage: `run` starts its child just before stage `before` runs, and returns (what the
    manifest keeps of it, the child or None when none was needed); the stage finishes it. Recorded in the
    manifest under `key`, as a stage is, unless `record` is off."""
    key: str
    before: str
    run: Callable[[Context], tuple[dict, Child | None]]
    record: bool = True


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable[[Context], dict]
    required: bool = False       # later stages need what it makes
    when: tuple[str, ...] = ()   # the ProfileOptions flags that turn it on (all of them)
    hooks: bool = False          # runs with the launch_metadata hooks installed in Inductor
    model: bool = True           # needs the model in memory (freed before the first stage that does not)
    starts: tuple[Start, ...] = ()   # its parts started early, beside the stages before it


STAGES = (
    Stage("build", build.run, required=True),
    Stage("compile", compile.run, required=True, hooks=True),
    Stage("warmup", compile.warmup, required=True, hooks=True),
    # a training target: peak GPU memory per phase (forward, backward, optimizer), one step
    Stage("phase_memory", training.phase_memory, when=("train",)),
    Stage("plain_steps", steps.plain, required=True),
    Stage("proton_steps", steps.under_proton, required=True),
    Stage("annotated_step", steps.annotated),
    Stage("library_ops", library_ops.run),
    Stage("ceilings", ceilings.run, when=("ceilings",)),
    Stage("harvest", harvest.run),
    Stage("compile_cache", compile_cache.run),   # the compiled artifacts kept for the next run of the same target
    Stage("ncu", ncu.run, when=("ncu",), model=False),
    # per-line counters: ncu's source pass in a process beside the metric pass (their kernels serialised by ncu),
    # waited for before the attention stage times anything on the GPU
    Stage("ncu_source", ncu_source_beside.run, when=("ncu",), model=False,
          starts=(Start("ncu_source_start", "ncu", ncu_source_beside.start),)),
    # the own CUDA kernel built from the run's start (overlapping the compile and the timed steps); with --ncu the
    # own kernels' configs compiled while ncu measures (nothing of theirs runs on the GPU), then timed after it
    Stage("attention", attention.run, when=("attention",), model=False,
          starts=(Start("cuda_build", "build", attention.build_early, record=False),
                  Start("attention_precompile", "ncu", attention.start_precompile))),
)


def starts_before(stage: str, on: Callable[[Stage], bool]) -> list[Start]:
    """The starts due just before `stage`, of the stages `on` says will run, in the table's order."""
    return [start for s in STAGES if on(s) for start in s.starts if start.before == stage]
