"""The files each stage leaves that no live Manifest saw written (its own process's, Proton's, ncu's): the parent
records them once the stage ends (runfiles.integrity.record), so `report` can tell them changed since. Files the
parent writes through rundir's writers are recorded as they are written."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable

from .. import rundir
from ..runfiles import integrity


def _glob(folder: Path, *patterns: str) -> list[Path]:
    return sorted(p for pattern in patterns for p in folder.glob(pattern))


WRITTEN: dict[str, Callable[[rundir.RunDir], Iterable[Path]]] = {
    "proton_steps": lambda run: [run.steps_hatchet],
    "annotated_step": lambda run: [run.annotated_hatchet],
    "ncu": lambda run: [run.ncu_csv, run.ncu_status_json, *_glob(run.ncu_dir, "*.ncu-rep")],
    "ncu_source": lambda run: [run.ncu_source_status_json, run.ncu_source_beside_json,
                               *_glob(run.ncu_source_dir, "*.ncu-rep", "*.counters.json")],
    "attention": lambda run: [run.attention_csv, run.attention_tuning_csv, run.attention_hatchet,
                              run.attention_kernels_dir / "kernels.json"],
}


def record(manifest: rundir.Manifest, stage: str) -> list[str]:
    """Records the files `stage` wrote outside the parent's writers (none for a stage WRITTEN does not name)."""
    files = WRITTEN.get(stage)
    return integrity.record(manifest, files(manifest.run)) if files else []
