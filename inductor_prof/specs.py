"""The typed spec a worker process (`python -m inductor_prof.worker SPEC.json`, worker.py) is started with: one
dataclass per kind of work, each with the profile's settings whole and the path of the events file the worker
writes (events.py; procs.py fills it in and reads it). Written as JSON by the parent, read back into the same
class by the worker, so a setting never travels as a hand-picked flag."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .errors import UserError
from .settings import Settings


@dataclass
class Spec:
    KIND: ClassVar[str] = ""
    QUICK_EXIT: ClassVar[bool] = False   # the worker ends at once (quick_exit.exit_now): it compiled with a pool
    settings: Settings = field(default_factory=Settings)
    events: str = ""                     # the events file (JSON lines) it writes; set by procs.Worker


@dataclass
class AttentionSpec(Spec):
    """The attention stage's process (pipeline/attention.py `work`): the backends at the run's captured shapes.
    `precompile`: first compile the own kernels' tile configs (nothing on the GPU); `wait_for_go`: then wait
    until the parent says go (its stdin) before it times anything."""
    KIND: ClassVar[str] = "attention"
    QUICK_EXIT: ClassVar[bool] = True    # its flex compiles started a worker pool: not waited for at exit
    run: str = ""
    precompile: bool = False
    wait_for_go: bool = False


@dataclass
class AttentionProbeSpec(Spec):
    """One forward+backward call of each of `backends` at the run's captured shape labelled `shape`, in a process
    apart (pipeline/attention_backward.py `work`): which ones fail, a sticky CUDA error included."""
    KIND: ClassVar[str] = "attention_probe"
    QUICK_EXIT: ClassVar[bool] = True    # after an illegal memory access CUDA's teardown may hang
    run: str = ""
    shape: str = ""
    backends: list = field(default_factory=list)


@dataclass
class NcuSourceBesideSpec(Spec):
    """The source pass beside the metric pass (pipeline/ncu_source_beside.py `work`)."""
    KIND: ClassVar[str] = "ncu_source_beside"
    run: str = ""


@dataclass
class GemmTemplatesSpec(Spec):
    """Inductor's matmul template timed at the model's GEMM shapes (pipeline/gemm_templates.py `work`): entries
    of ceilings.model_gemms."""
    KIND: ClassVar[str] = "gemm_templates"
    shapes: list = field(default_factory=list)


@dataclass
class ReportReadSpec(Spec):
    """ncu reports read apart from any process holding torch (drivers/ncu/report_process.py `work`): `reader`
    `metrics` (report.py) or `source` (source.py)."""
    KIND: ClassVar[str] = "ncu_report"
    reader: str = "metrics"
    paths: list = field(default_factory=list)


@dataclass
class DoctorProbeSpec(Spec):
    """One GPU check of `doctor` (doctor/gpu.py `work`): the probe's name, and its folder of caches."""
    KIND: ClassVar[str] = "doctor_probe"
    probe: str = ""
    work: str = ""


@dataclass
class ReplaySpec(Spec):
    """The program ncu profiles (drivers/ncu/replay.py `work`): the replay spec files of its kernels (a
    harvested kernel or a recorded library call each), replayed in this order."""
    KIND: ClassVar[str] = "ncu_replay"
    specs: list = field(default_factory=list)


@dataclass(frozen=True)
class InductorCall:
    """One kernel for ncu's replay (drivers/ncu/replay.py): a harvested Inductor kernel, its file, its name in
    it and the launch config it ran with in the model."""
    name: str
    file: str
    config: dict[str, Any] = field(default_factory=dict)

    def as_json(self, **extra: Any) -> dict[str, Any]:
        return {"type": "inductor", **dataclasses.asdict(self), **extra}


@dataclass(frozen=True)
class AtenCall:
    """One library call for a replay (ncu's, the ceilings' GEMMs, the GEMM templates'): the ATen op and its
    arguments as torch.profiler recorded them (library_ops.csv's cells, decoded)."""
    op: str
    dims: list[Any]
    strides: list[Any] = field(default_factory=list)
    types: list[Any] = field(default_factory=list)
    scalars: list[Any] = field(default_factory=list)

    def as_json(self, **extra: Any) -> dict[str, Any]:
        """The spec file's object: these fields, `type`, and what the caller keeps beside them (extra)."""
        return {"type": "aten", **dataclasses.asdict(self), **extra}

    @classmethod
    def of(cls, spec: "AtenCall | dict[str, Any]") -> "AtenCall":
        """The call a spec object names (extra keys beside the fields are the caller's, ignored here)."""
        if isinstance(spec, AtenCall):
            return spec
        return cls(spec["op"], spec["dims"], spec.get("strides") or [], spec.get("types") or [],
                   spec.get("scalars") or [])


def replay_call(spec: dict[str, Any]) -> InductorCall | AtenCall:
    """A replay spec file's object as its call; a spec of neither type: one error line."""
    if spec.get("type") == "inductor":
        return InductorCall(spec["name"], spec["file"], spec.get("config") or {})
    if spec.get("type") == "aten":
        return AtenCall.of(spec)
    raise UserError(f"a replay spec of unknown type {spec.get('type')!r}")


@dataclass
class CudaBuildSpec(Spec):
    """The own CUDA attention kernel's build (attention/kernels/cuda_fa.py `build`), started with the profile."""
    KIND: ClassVar[str] = "cuda_build"


KINDS: dict[str, type[Spec]] = {c.KIND: c for c in (AttentionSpec, AttentionProbeSpec, NcuSourceBesideSpec, GemmTemplatesSpec,
                                                    ReportReadSpec, DoctorProbeSpec, ReplaySpec, CudaBuildSpec)}


def dumps(spec: Spec) -> str:
    return json.dumps({"kind": spec.KIND, **dataclasses.asdict(spec)})


def read(path: str | Path, kinds: dict[str, type[Spec]] = KINDS) -> Spec:
    """The spec in `path`, as the class of its kind; a missing, damaged or foreign file is a UserError naming it."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise UserError(f"worker spec {path}: cannot read it ({e})") from e
    if not isinstance(data, dict) or data.get("kind") not in kinds:
        raise UserError(f"worker spec {path}: kind {data.get('kind') if isinstance(data, dict) else None!r} is "
                        f"not one of {', '.join(sorted(kinds))}")
    cls = kinds[data.pop("kind")]
    try:
        settings = Settings(**data.pop("settings", {}))
        return cls(settings=settings, **data)
    except TypeError as e:
        raise UserError(f"worker spec {path}: {e}") from e
