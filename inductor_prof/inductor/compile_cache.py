"""Compiled artifacts remembered across runs: a run still compiles into its own Inductor cache (cache.py), but
that cache starts as a copy of the last run's of the same target, options and versions (FX graph cache, Triton
cubins, autotuning results), so a second `profile` hits Inductor's caches instead of compiling again. Inductor's
own keys decide every hit; the folder key (facts) only keeps unrelated runs' artifacts apart.

An entry is a folder `<compile cache>/<key>/` holding the copied cache, MARK (format, version, facts) and
PROVENANCE (the kernels' FX nodes, captured while Inductor compiled: a cache hit captures none). It is seeded by
one rename into the run's empty cache folder and replaced as a whole after the compile (copy to a temporary
folder, then renames): no run ever writes in a folder another run reads from. A damaged or foreign entry is
ignored with one warning naming the folder (and replaced); a folder that cannot be written leaves the entry as
it was and says so (`not_written`), the run going on.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from pathlib import Path

from .. import rundir
from ..settings import user_cache_dir

FORMAT = "inductor-prof compile cache"
VERSION = 1
MARK = "inductor-prof-entry.json"
PROVENANCE = "inductor-prof-provenance.json"
OFF = ("off", "none", "0", "false", "no")
# in a seeded folder: the entry it came from and the files copied, for a later process of the same run that
# finds the folder already in use (the attention stage after its precompile)
SEEDED = ".inductor-prof-seeded.json"
_SKIP = ("locks", "*.lock", MARK, PROVENANCE, SEEDED)   # Inductor's lock files are per process, never copied


def folder(setting: str | None, env: dict | None = None) -> Path | None:
    """The compile cache folder: the `compile_cache` setting (a path; `off` for none), else
    $XDG_CACHE_HOME/inductor-prof/compile (~/.cache/inductor-prof/compile)."""
    if setting and setting.strip().lower() in OFF:
        return None
    return Path(setting).expanduser() if setting else user_cache_dir(env) / "compile"


def entry_key(facts: dict) -> str:
    """16 hex digits of the facts (target, its options, compile options, versions, GPU): the entry's folder."""
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _mark_problem(path: Path, facts: dict) -> str:
    """Why an entry's MARK is not this run's ("" when it is)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return "no entry mark (not written by inductor-prof, or cut short)"
    except (OSError, ValueError) as e:
        return f"unreadable entry mark ({getattr(e, 'strerror', None) or type(e).__name__})"
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return "not an inductor-prof compile cache entry"
    if data.get("version") != VERSION:
        return f"entry version {data.get('version')!r}, this inductor-prof reads {VERSION}"
    if data.get("facts") != json.loads(json.dumps(facts, default=str)):
        return "an entry of other facts (target, options or versions)"
    return ""


class CompileCache:
    def __init__(self, root: Path | None, facts: dict):
        self.root = Path(root) if root is not None else None
        self.facts = facts
        self.warnings: list[str] = []
        self.not_written = ""     # why the entry could not be written ("": written, or off)
        self.seeded = 0           # files copied into the run's cache
        self._provenance: list[dict] = []

    @property
    def entry(self) -> Path | None:
        return self.root / entry_key(self.facts) if self.root is not None else None

    def seed(self, into: Path) -> int:
        """The entry's artifacts into `into` (the run's cache folder, empty or absent): copied beside it, then
        renamed into place, so a failed copy leaves it empty. Returns the files copied (0: none, or off)."""
        entry = self.entry
        if entry is None or not entry.is_dir():
            return 0
        why = _mark_problem(entry / MARK, self.facts)
        if why:
            self.warnings.append(f"compile cache {entry}: {why}: ignored, and replaced after this run's compile")
            return 0
        into = Path(into)
        if into.exists() and any(into.iterdir()):
            return self._seeded_before(into, entry)   # a cache in use is never written under Inductor's feet
        tmp = into.with_name(f".{into.name}.seed-{uuid.uuid4().hex[:8]}")
        try:
            shutil.copytree(entry, tmp, ignore=shutil.ignore_patterns(*_SKIP))
            self._provenance = _read_provenance(entry / PROVENANCE)
            if into.exists():
                into.rmdir()
            os.replace(tmp, into)
        except OSError as e:
            self.warnings.append(f"compile cache {entry}: not read ({e.strerror or e}): compiling from scratch")
            self._provenance = []
            return 0
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self.seeded = sum(1 for p in into.rglob("*") if p.is_file())
        rundir.write_json(into / SEEDED, {"entry": str(entry), "files": self.seeded})
        return self.seeded

    def _seeded_before(self, into: Path, entry: Path) -> int:
        """The files an earlier process of this run seeded `into` with from this entry (0: none, or another)."""
        try:
            record = json.loads((into / SEEDED).read_text(encoding="utf-8"))
            if record.get("entry") != str(entry):
                return 0
            self.seeded = int(record["files"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return 0
        self._provenance = _read_provenance(entry / PROVENANCE)
        return self.seeded

    def provenance(self) -> list[dict]:
        """The provenance records the seeded entry kept (its compile's), [] when none was seeded."""
        return list(self._provenance)

    def store(self, cache_dir: Path, provenance: list[dict]) -> None:
        """The run's cache (and the provenance of its kernels) as the entry, replacing the old one whole."""
        entry = self.entry
        if entry is None or self.root is None:   # the entry is None whenever the root is
            return
        token = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        tmp, old = self.root / f".tmp-{entry.name}-{token}", self.root / f".old-{entry.name}-{token}"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            shutil.copytree(cache_dir, tmp, ignore=shutil.ignore_patterns(*_SKIP))
            rundir.write_json(tmp / PROVENANCE, provenance)
            rundir.write_json(tmp / MARK, {"format": FORMAT, "version": VERSION, "facts": self.facts})
            if entry.exists():
                os.rename(entry, old)
            os.rename(tmp, entry)
        except OSError as e:
            self.not_written = str(e.strerror or e)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
            shutil.rmtree(old, ignore_errors=True)

    def summary(self) -> str:
        """One line for the manifest and the log."""
        if self.root is None:
            return "off"
        text = f"{self.entry}: " + (f"seeded {self.seeded} files" if self.seeded else "cold")
        return text + (f"; the cache was not written ({self.not_written})" if self.not_written else "")


def _read_provenance(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return data if isinstance(data, list) and all(isinstance(r, dict) for r in data) else []
