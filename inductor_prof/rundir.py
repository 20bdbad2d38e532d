"""The run folder: the contract between `profile` (writes) and `report` (reads)."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .errors import UserError

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class RunDir:
    root: Path

    @property
    def manifest_path(self) -> Path: return self.root / MANIFEST
    @property
    def inductor_cache(self) -> Path: return self.root / "inductor_cache"
    @property
    def kernels_dir(self) -> Path: return self.root / "kernels"
    @property
    def kernels_json(self) -> Path: return self.kernels_dir / "kernels.json"
    @property
    def proton_dir(self) -> Path: return self.root / "proton"
    @property
    def steps_hatchet(self) -> Path: return self.proton_dir / "steps.hatchet"
    @property
    def annotated_hatchet(self) -> Path: return self.proton_dir / "annotated_step.hatchet"
    @property
    def library_ops_csv(self) -> Path: return self.root / "library_ops.csv"
    @property
    def attention_shapes_json(self) -> Path: return self.root / "attention_shapes.json"
    @property
    def ncu_dir(self) -> Path: return self.root / "ncu"
    @property
    def ncu_csv(self) -> Path: return self.ncu_dir / "ncu.csv"
    @property
    def attention_csv(self) -> Path: return self.root / "attention.csv"

    def read_manifest(self) -> dict[str, Any]:
        return json.loads(self.manifest_path.read_text())


def create(path: str | os.PathLike, force: bool = False) -> RunDir:
    """A fresh run folder; refuses to touch an existing one unless `force`."""
    root = Path(path)
    if root.exists() and any(root.iterdir()):
        if not force:
            raise UserError(f"run folder {root} already exists; pass --force to replace it")
        if not (root / MANIFEST).exists():
            # --force replaces earlier runs only, never an unrelated folder.
            raise UserError(f"{root} exists and is not a run folder; refusing to delete it")
        shutil.rmtree(root)
    root.mkdir(parents=True, exist_ok=True)
    return RunDir(root)


def open_run(path: str | os.PathLike) -> RunDir:
    root = Path(path)
    if not root.is_dir():
        raise UserError(f"{root} is not a folder")
    if not (root / MANIFEST).is_file():
        raise UserError(f"{root} is not an inductor-prof run folder (no {MANIFEST})")
    return RunDir(root)


def write_json(path: Path, obj: Any) -> None:
    """Atomic write: a crash never leaves half a file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=False, default=str)
        f.write("\n")
    os.replace(tmp, path)


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


class Manifest:
    """manifest.json kept up to date after every stage, so a crash loses nothing already done."""

    def __init__(self, run: RunDir, initial: dict[str, Any]):
        self.run = run
        self.data = {**initial, "stages": {}}
        self.save()

    def save(self) -> None:
        write_json(self.run.manifest_path, self.data)

    def set(self, key: str, value: Any) -> None:
        self.data[key] = value
        self.save()

    @contextmanager
    def stage(self, name: str) -> Iterator[dict[str, Any]]:
        """Records status and duration of a stage; `info` carries what the stage wants to keep."""
        info: dict[str, Any] = {}
        entry = {"status": "running"}
        self.data["stages"][name] = entry
        self.save()
        t0 = time.perf_counter()
        try:
            yield info
        except BaseException as e:
            entry.update(status="failed", seconds=round(time.perf_counter() - t0, 3),
                         error=f"{type(e).__name__}: {e}"[:2000], **info)
            self.save()
            raise
        entry.update(status="ok", seconds=round(time.perf_counter() - t0, 3), **info)
        self.save()
