"""The manifest's sections the report reads, as typed records: `sections(manifest)` of the dict
files.manifest_file validated (each section an object when present, profile.steps a whole number). A section or
value the run did not record is None (or empty), as an older run's manifest lacks some: the readers say what
follows from that, this module only names what is there."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def _number(value: object) -> float | None:
    """A recorded time as it was written (int or float), None for anything else (null, absent)."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _text(value: object) -> str | None:
    return value if value is None or isinstance(value, str) else str(value)


def _object(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


@dataclass(frozen=True)
class StepTimes:
    """One input size's step medians (profile.sizes.<size>), ms."""
    plain_step_ms: float | None = None     # no profiler attached
    proton_step_ms: float | None = None    # under Proton


@dataclass(frozen=True)
class Profile:
    """manifest["profile"]: the timed steps."""
    steps: int = 1                                 # timed steps (files.n_steps: at least 1)
    proton_step_ms: float | None = None
    plain_step_ms: float | None = None
    proton_back_to_back_ms: float | None = None
    plain_back_to_back_ms: float | None = None
    gpu_telemetry: dict[str, Any] | None = None    # telemetry.summarize of the plain steps' NVML samples
    has_telemetry: bool = False                    # the run measured it (runs before it did lack the key)
    sizes: dict[str, StepTimes] = field(default_factory=dict)   # several input sizes: each one's step times


@dataclass(frozen=True)
class Sections:
    profile: Profile
    target: str | None           # the preset profiled, else the target given (module:factory)
    gpu_name: str | None         # env.gpu.name ("" when not recorded)
    ceilings: dict[str, Any] | None   # measured ceilings (peaks.run_peaks); None: the stage did not run
    stages: dict[str, dict[str, Any]]   # stage name -> its entry (status, step_ms, ...)
    stopped_at: str | None       # the stage a failed profile stopped at


def _profile(prof: dict[str, Any]) -> Profile:
    sizes = {str(name): StepTimes(_number(t.get("plain_step_ms")), _number(t.get("proton_step_ms")))
             for name, t in _object(prof.get("sizes")).items() if isinstance(t, dict)}
    telemetry = prof.get("gpu_telemetry")
    return Profile(steps=max(int(prof.get("steps", 1) or 1), 1), proton_step_ms=_number(prof.get("proton_step_ms")),
                   plain_step_ms=_number(prof.get("plain_step_ms")),
                   proton_back_to_back_ms=_number(prof.get("proton_back_to_back_ms")),
                   plain_back_to_back_ms=_number(prof.get("plain_back_to_back_ms")),
                   gpu_telemetry=telemetry if isinstance(telemetry, dict) else None,
                   has_telemetry="gpu_telemetry" in prof, sizes=sizes)


def sections(manifest: dict[str, Any]) -> Sections:
    ceilings = manifest.get("ceilings")
    stopped = manifest.get("stopped_at")
    return Sections(
        profile=_profile(_object(manifest.get("profile"))),
        target=_object(manifest.get("target")).get("preset") or _object(manifest.get("settings")).get("target"),
        gpu_name=_text(_object(_object(manifest.get("env")).get("gpu")).get("name", "")),
        ceilings=ceilings if isinstance(ceilings, dict) else None,
        stages={name: entry for name, entry in _object(manifest.get("stages")).items() if isinstance(entry, dict)},
        stopped_at=stopped if isinstance(stopped, str) else None)
