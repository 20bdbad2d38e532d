"""Measurements remembered across runs, keyed by their content: a second `profile` takes an ncu result (or a
ceiling) from an earlier run when everything that changes the number is the same (the GPU, driver, versions,
ncu's settings, the kernel's source, launch config and shapes: the caller's `facts`), and measures only the rest.

The store is a folder (the `measure_store` setting, INDUCTOR_PROF_MEASURE_STORE; default
$XDG_CACHE_HOME/inductor-prof/measurements, `off`: none): `<kind>/<key>.json` a measurement each (its facts whole,
the run id it was measured in, its value), `files/<sha256>.<suffix>` the files measurements point to (ncu
reports), named by their digest so a copy is checked on its way out. Every write is atomic (rundir); a damaged or
foreign entry, or a file whose digest is not its name, is one warning and a miss (measured again and replaced),
never a crash; a folder that cannot be written leaves the store as it was and says so (`not_written`).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from pathlib import Path
from typing import Any, Mapping

from . import rundir
from .settings import user_cache_dir

FORMAT = "inductor-prof measurement"
VERSION = 1
OFF = ("off", "none", "0", "false", "no")


def folder(setting: str | None, env: Mapping[str, str] | None = None) -> Path | None:
    """The store's folder: the `measure_store` setting (a path; `off` for none), else the user cache root's
    `measurements`."""
    if setting and setting.strip().lower() in OFF:
        return None
    return Path(setting).expanduser() if setting else user_cache_dir(env) / "measurements"


def gpu_facts(env: Mapping[str, Any]) -> dict | None:
    """What every measurement of a run depends on, from its manifest's `env`: the GPU (name, UUID where
    recorded, SMs), driver, CUDA, torch, triton. None when it names no GPU or driver: nothing tells one machine's
    numbers from another's, so they are neither reused nor stored."""
    gpu = env.get("gpu") or {}
    if not isinstance(gpu, Mapping) or not gpu.get("name") or not env.get("driver"):
        return None
    return {"gpu": gpu.get("name"), "gpu_uuid": gpu.get("uuid"), "sms": gpu.get("sms"), "driver": env.get("driver"),
            "cuda": env.get("cuda"), "torch": env.get("torch"), "triton": env.get("triton")}


def code_fingerprint(*files: Path) -> str:
    """12 hex digits of the source files that take a measurement: changed code measures again."""
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:12]


def _canon(facts: Any) -> Any:
    """`facts` as JSON gives them back (tuples as lists, keys as strings): what an entry holds is compared to it."""
    return json.loads(json.dumps(facts, sort_keys=True, default=str))


def key(facts: Mapping[str, Any]) -> str:
    """32 hex digits of the facts: an entry's file name (the facts themselves are checked on reading)."""
    return hashlib.sha256(json.dumps(_canon(facts), sort_keys=True).encode()).hexdigest()[:32]


class MeasureStore:
    def __init__(self, root: Path | None):
        self.root = Path(root) if root is not None else None
        self.warnings: list[str] = []
        self.not_written = ""    # why an entry could not be written ("": all written, or off)

    def _entry_path(self, kind: str, facts: Mapping[str, Any]) -> Path:
        assert self.root is not None
        return self.root / kind / f"{key(facts)}.json"

    def get(self, kind: str, facts: Mapping[str, Any]) -> dict | None:
        """{"run_id": the run that measured it, "value": what it measured} at `facts`, or None: none, off, or a
        damaged or foreign entry (a warning naming it)."""
        if self.root is None:
            return None
        path = self._entry_path(kind, facts)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            self.warnings.append(f"measurement store {path}: unreadable "
                                 f"({getattr(e, 'strerror', None) or type(e).__name__}): measured again")
            return None
        why = ""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            why = "not an inductor-prof measurement"
        elif data.get("version") != VERSION:
            why = f"entry version {data.get('version')!r}, this inductor-prof reads {VERSION}"
        elif data.get("facts") != _canon(facts):
            why = "an entry of other facts"
        elif not isinstance(data.get("run_id"), str) or "value" not in data:
            why = "an entry without its run id or value"
        if why:
            self.warnings.append(f"measurement store {path}: {why}: measured again")
            return None
        return {"run_id": data["run_id"], "value": data["value"]}

    def put(self, kind: str, facts: Mapping[str, Any], run_id: str, value: Any) -> None:
        """`value`, measured in run `run_id`, at `facts` (replacing what was there). A failure to write is kept in
        `not_written`, not raised."""
        if self.root is None:
            return
        try:
            rundir.write_json(self._entry_path(kind, facts), {"format": FORMAT, "version": VERSION,
                                                              "facts": _canon(facts), "run_id": run_id,
                                                              "value": value})
        except OSError as e:
            self.not_written = self.not_written or str(e.strerror or e)

    def put_file(self, path: Path) -> str | None:
        """`path` copied into the store under its digest (once); the digest, or None when it could not be."""
        if self.root is None:
            return None
        try:
            sha = rundir.sha256_of(path)
            dest = self.root / "files" / f"{sha}{Path(path).suffix}"
            if not dest.is_file():
                dest.parent.mkdir(parents=True, exist_ok=True)
                tmp = dest.with_name(f".{dest.name}.{uuid.uuid4().hex[:8]}")
                try:
                    shutil.copyfile(path, tmp)
                    os.replace(tmp, dest)
                finally:
                    tmp.unlink(missing_ok=True)
            return sha
        except OSError as e:
            self.not_written = self.not_written or str(e.strerror or e)
            return None

    def copy_file(self, sha: str, suffix: str, dest: Path) -> bool:
        """The stored file of digest `sha` copied to `dest` (atomically), checked against its digest on the way;
        False (and a warning for a damaged one) when it is absent or damaged."""
        if self.root is None:
            return False
        src = self.root / "files" / f"{sha}{suffix}"
        if not src.is_file():
            self.warnings.append(f"measurement store {src}: missing: measured again")
            return False
        tmp = dest.with_name(f".{dest.name}.{uuid.uuid4().hex[:8]}")
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, tmp)
            if rundir.sha256_of(tmp) != sha:
                self.warnings.append(f"measurement store {src}: damaged (its digest is not its name): measured "
                                     "again")
                return False
            os.replace(tmp, dest)
            return True
        except OSError as e:
            self.warnings.append(f"measurement store {src}: not copied ({e.strerror or e}): measured again")
            return False
        finally:
            tmp.unlink(missing_ok=True)

    def summary(self, reused: int, measured: int) -> str:
        """One line for a stage's record."""
        if self.root is None:
            return "off"
        text = f"{self.root}: {reused} reused, {measured} measured"
        return text + (f"; the store was not written ({self.not_written})" if self.not_written else "")
