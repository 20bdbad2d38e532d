"""The own kernels' tuning, remembered across runs: per (kernel, GPU, driver, torch, triton, the kernels' source,
shape, dtype, semantics) the fastest tile config and the configs that failed to compile or spilled, in one JSON
file of a user cache folder. A warm entry skips tuning altogether (its best config is only timed); failed
configs are never tried again at that key. `retune` ignores what is there and rewrites the keys it tunes.

A corrupt or foreign file is ignored with one warning naming it, and rewritten at the next store; a folder that
cannot be written leaves the cache as it was and says so (`not_written`), the benchmark going on without it.
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from .. import rundir
from ..settings import user_cache_dir

FILE = "attention-tuning.json"
FORMAT = "inductor-prof attention tuning cache"
VERSION = 1
KERNELS_DIR = Path(__file__).parent / "kernels"


def folder(setting: str | None, env: dict | None = None) -> Path:
    """The cache folder: the `tuning_cache` setting where given, else the user cache root (settings)."""
    return Path(setting).expanduser() if setting else user_cache_dir(env)


def kernels_fingerprint() -> str:
    """12 hex digits of the own kernels' sources (tiles, candidate configs, CUDA C++): an edited kernel is tuned
    again, not served a config chosen for its old code."""
    h = hashlib.sha256()
    for p in sorted(KERNELS_DIR.rglob("*")):
        if p.is_file() and p.suffix in (".py", ".cu", ".cuh", ".cpp", ".h"):
            h.update(p.relative_to(KERNELS_DIR).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:12]


def machine_facts() -> dict:
    """What a tuning depends on besides the shape: this GPU's name, the driver, torch, triton, the kernels."""
    import torch

    from ..envinfo import driver_version, package_version

    return {"gpu": torch.cuda.get_device_name(), "driver": driver_version() or "unknown", "torch": torch.__version__,
            "triton": package_version("triton") or "none", "kernels": kernels_fingerprint()}


def _valid_entry(e) -> bool:
    return (isinstance(e, dict) and (e.get("best") is None or isinstance(e.get("best"), str))
            and (e.get("ms") is None or (isinstance(e.get("ms"), (int, float)) and not isinstance(e.get("ms"), bool)))
            and isinstance(e.get("failed"), dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in e["failed"].items()))


def read(path: Path) -> tuple[dict, str]:
    """(the entries of the cache file, "" or why the file was not taken); a missing file is an empty cache."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, ""
    except OSError as e:
        return {}, f"unreadable ({e.strerror or e})"
    except ValueError:   # JSONDecodeError, UnicodeDecodeError
        return {}, "not JSON"
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}, "not an inductor-prof tuning cache"
    if data.get("version") != VERSION:
        return {}, f"cache version {data.get('version')!r}, this inductor-prof reads {VERSION}"
    entries = data.get("entries")
    if not isinstance(entries, dict) or not all(_valid_entry(e) for e in entries.values()):
        return {}, "malformed entries"
    return entries, ""


def entry(best: str | None, ms: float, failed: dict[str, str]) -> dict:
    """What is remembered of one tuning: the fastest config's label and time, the failed configs' one-line
    errors (compile failures, spills)."""
    return {"best": best or None, "ms": ms if best and math.isfinite(ms) else None, "failed": dict(failed)}


class TuningCache:
    def __init__(self, folder: Path, retune: bool = False, facts: dict | None = None):
        self.path = Path(folder) / FILE
        self.retune = retune
        self._facts = facts            # None: machine_facts() at the first key
        self._entries: dict | None = None
        self._stored: dict = {}
        self.warnings: list[str] = []
        self.not_written = ""          # why the file could not be written ("": written, or nothing to write)
        self.hits: list[str] = []      # keys served from the file
        self.misses: list[str] = []    # keys tuned (absent, or retune)

    def key(self, backend: str, shape) -> str:
        """One line: the kernel, the machine's facts, the shape (B, Hq/Hkv, Sq x Sk, D), dtype, the semantics."""
        if self._facts is None:
            self._facts = machine_facts()
        f = self._facts
        return " | ".join([backend, f["gpu"], f"driver {f['driver']}", f"torch {f['torch']}",
                           f"triton {f['triton']}", f"kernels {f['kernels']}",
                           f"{shape.B},{shape.H}/{shape.kv_heads},{shape.Sq}x{shape.Sk},{shape.D}", shape.dtype,
                           shape.mask.kind])

    def _load(self) -> dict:
        if self._entries is None:
            self._entries, why = read(self.path)
            if why:
                self.warnings.append(f"tuning cache {self.path}: {why}: ignored, and rewritten with this run's "
                                     "tuning")
        return self._entries

    def lookup(self, key: str) -> dict | None:
        """The remembered tuning at `key`, or None (absent, or retune)."""
        found = None if self.retune else self._load().get(key)
        (self.hits if found else self.misses).append(key)
        return found

    def store(self, key: str, value: dict) -> None:
        """`value` at `key`, written at once (atomically) over what the file holds now, so another run's
        entries written meanwhile are kept. A failure to write is remembered in `not_written`, not raised."""
        self._load()
        self._stored[key] = value
        on_disk, _ = read(self.path)
        try:
            rundir.write_json(self.path, {"format": FORMAT, "version": VERSION,
                                          "entries": {**on_disk, **self._stored}})
        except OSError as e:
            self.not_written = self.not_written or str(e.strerror or e)

    def summary(self) -> str:
        """One line for the stage's record and the command's output."""
        text = f"{self.path}: {len(self.hits)} from the cache, {len(self.misses)} tuned"
        if self.retune:
            text += " (retune)"
        return text + (f"; the cache was not written ({self.not_written})" if self.not_written else "")
