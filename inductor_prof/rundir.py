"""The run folder: the contract between `profile` (writes) and `report` (reads)."""
from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import shutil
import stat
import tempfile
import time
import uuid
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .errors import UserError, one_line

MANIFEST = "manifest.json"
FILES = "files"     # manifest key: each file a stage wrote through this module -> file_record() of it
RUN_ID = "run_id"   # manifest key: this run's id
# the run files that carry their run's id (RUN_ID), by how, relative to the run folder: a CSV in a `run_id` column
# (every row: pandas and any CSV tool read it as one more column), a JSON object in a `run_id` field written first.
# The rest cannot without another format: kernels.json and attention_shapes.json are lists, the status.json files
# maps of kernel stems, the hatchets and .ncu-rep files Proton's and ncu's own formats, the kernels Python source
STAMPED_CSV = ("library_ops.csv", "attention.csv", "attention_tuning.csv", "ncu/ncu.csv")
STAMPED_JSON = ("proton/steps.launches.json", "proton/annotated_step.launches.json", "proton/recorded_launches.json",
                "ncu/source/*.counters.json")
RANKS = "ranks.json"   # the top of a multi-rank run (`profile --nproc N`): each rank's exit; rank<i>/ are runs


@dataclass(frozen=True)
class RunDir:
    """Every path of a run folder: the contract between the stages that write it and `report`/`diff`."""
    root: Path

    @property
    def manifest_path(self) -> Path: return self.root / MANIFEST
    @property
    def inductor_cache(self) -> Path: return self.root / "inductor_cache"
    @property
    def profile_log(self) -> Path: return self.root / "profile.log"     # library and compiler output
    # harvest
    @property
    def kernels_dir(self) -> Path: return self.root / "kernels"
    @property
    def kernels_json(self) -> Path: return self.kernels_dir / "kernels.json"
    def kernel_file(self, file: str) -> Path: return self.kernels_dir / file   # a file kernels.json names
    # Proton
    @property
    def proton_dir(self) -> Path: return self.root / "proton"
    @property
    def steps_hatchet(self) -> Path: return self.proton_dir / "steps.hatchet"
    @property
    def annotated_hatchet(self) -> Path: return self.proton_dir / "annotated_step.hatchet"
    @property
    def attention_hatchet(self) -> Path: return self.proton_dir / "attention.hatchet"
    # the hatchets' kernel rows as compact columns, written once by the profile (drivers/proton/launches.py)
    @property
    def steps_launches(self) -> Path: return self.proton_dir / "steps.launches.json"
    @property
    def annotated_launches(self) -> Path: return self.proton_dir / "annotated_step.launches.json"
    # a CUDA-graphs run: the work of the launches before the graphs replay (inductor/launch_record.py)
    @property
    def recorded_launches(self) -> Path: return self.proton_dir / "recorded_launches.json"
    # torch.profiler
    @property
    def torch_trace(self) -> Path: return self.root / ".torch_trace.partial.json"   # while library_ops reads it
    @property
    def torch_trace_gz(self) -> Path: return self.root / "torch_trace.json.gz"
    def torch_trace_gz_at(self, size: str) -> Path: return self.root / f"torch_trace.{size}.json.gz"  # each size
    @property
    def library_ops_csv(self) -> Path: return self.root / "library_ops.csv"
    @property
    def attention_shapes_json(self) -> Path: return self.root / "attention_shapes.json"
    # attention benchmark
    @property
    def attention_csv(self) -> Path: return self.root / "attention.csv"
    @property
    def attention_tuning_csv(self) -> Path: return self.root / "attention_tuning.csv"
    @property
    def attention_dir(self) -> Path: return self.root / "attention"
    @property
    def attention_log(self) -> Path: return self.attention_dir / "attention.log"
    @property
    def attention_build_log(self) -> Path: return self.attention_dir / "cuda_build.log"
    @property
    def attention_precompile_log(self) -> Path: return self.attention_dir / "precompile.log"
    @property
    def attention_cache(self) -> Path: return self.attention_dir / "inductor_cache"
    def attention_probe_log(self, i: int) -> Path:   # the i-th forward+backward probe process of a training run
        return self.attention_dir / f"backward_probe_{i}.log"
    @property
    def attention_kernels_dir(self) -> Path: return self.attention_dir / "kernels"
    @property
    def attention_masks_dir(self) -> Path: return self.attention_dir / "masks"   # masks the bench replays
    # ceilings: Inductor's GEMM templates, built in a process and cache of their own
    @property
    def ceilings_dir(self) -> Path: return self.root / "ceilings"
    @property
    def gemm_templates_log(self) -> Path: return self.ceilings_dir / "gemm_templates.log"
    @property
    def gemm_templates_cache(self) -> Path: return self.ceilings_dir / "inductor_cache"
    # `inductor-prof try`: each experiment's spec, log and result, and all of them with the advice they answer;
    # nothing outside this folder is written (the run as profiled stays as it was)
    @property
    def experiments_dir(self) -> Path: return self.root / "experiments"
    @property
    def experiments_json(self) -> Path: return self.experiments_dir / "experiments.json"
    @property
    def experiments_cache(self) -> Path: return self.experiments_dir / "inductor_cache"   # shared by its children
    def experiment_dir(self, name: str) -> Path: return self.experiments_dir / name

    # Nsight Compute
    @property
    def ncu_dir(self) -> Path: return self.root / "ncu"
    @property
    def ncu_csv(self) -> Path: return self.ncu_dir / "ncu.csv"
    @property
    def ncu_status_json(self) -> Path: return self.ncu_dir / "status.json"
    @property
    def ncu_specs_dir(self) -> Path: return self.ncu_dir / "specs"
    @property
    def ncu_logs_dir(self) -> Path: return self.ncu_dir / "logs"
    @property
    def ncu_home(self) -> Path: return self.ncu_dir / "home"   # HOME of ncu under sudo

    def ncu_report(self, stem: str) -> Path:
        return self.ncu_dir / (stem if stem.endswith(".ncu-rep") else f"{stem}.ncu-rep")

    def ncu_spec(self, stem: str) -> Path: return self.ncu_specs_dir / f"{stem}.json"
    def ncu_log(self, stem: str) -> Path: return self.ncu_logs_dir / f"{stem}.log"
    # the source pass: a few kernels' per-line counters, one report each (pipeline/ncu_source.py)
    @property
    def ncu_source_dir(self) -> Path: return self.ncu_dir / "source"
    @property
    def ncu_source_status_json(self) -> Path: return self.ncu_source_dir / "status.json"
    def ncu_source_report(self, stem: str) -> Path: return self.ncu_source_dir / f"{stem}.ncu-rep"
    # what `inspect` reads of that report, written beside it as it is recorded: read without ncu-report
    def ncu_source_counters(self, stem: str) -> Path: return self.ncu_source_dir / f"{stem}.counters.json"
    def ncu_source_log(self, stem: str) -> Path: return self.ncu_source_dir / f"{stem}.log"
    @property
    def ncu_source_specs_dir(self) -> Path: return self.ncu_source_dir / "specs"
    def ncu_source_spec(self, stem: str) -> Path: return self.ncu_source_specs_dir / f"{stem}.json"
    # with `profile --ncu` the pass runs in a process of its own beside the metric pass (ncu_source_beside.py)
    @property
    def ncu_source_beside_log(self) -> Path: return self.ncu_source_dir / "beside.log"


@dataclass(frozen=True)
class RankedRun:
    """A run of several ranks (`profile --nproc N`): RUN/ranks.json, RUN/rank<i>/ (each an ordinary run folder),
    the ranks' own logs and exit records under RUN/logs/, and torchrun's output."""
    root: Path

    @property
    def ranks_json(self) -> Path: return self.root / RANKS
    @property
    def spec_json(self) -> Path: return self.root / "logs" / "spec.json"      # what each rank profiles
    @property
    def torchrun_log(self) -> Path: return self.root / "logs" / "torchrun.log"
    def rank(self, i: int) -> RunDir: return RunDir(self.root / f"rank{i}")
    def rank_log(self, i: int) -> Path: return self.root / "logs" / f"rank{i}.log"
    def rank_exit(self, i: int) -> Path: return self.root / "logs" / f"rank{i}.exit.json"   # written by the rank

    def rank_folders(self) -> list[int]:
        """The ranks with a rank<i>/ folder, in order."""
        found = (p.name[4:] for p in self.root.glob("rank*") if p.is_dir())
        return sorted(int(i) for i in found if i.isdigit())


def is_ranked(path: str | os.PathLike) -> bool:
    """A multi-rank run folder: ranks.json at its top, or rank<i>/ run folders and no manifest of its own."""
    root = Path(path)
    if (root / RANKS).is_file():
        return True
    return root.is_dir() and not (root / MANIFEST).is_file() and bool(RankedRun(root).rank_folders())


def create(path: str | os.PathLike, force: bool = False) -> RunDir:
    """A fresh run folder; refuses to touch an existing one unless `force`."""
    root = Path(path)
    if root.exists() and not root.is_dir():
        raise UserError(f"run folder {root} is a file; give --out a folder to create")
    if root.exists() and any(root.iterdir()):
        if not force:
            raise UserError(f"run folder {root} already exists; pass --force to replace it")
        if not (root / MANIFEST).exists() and not (root / RANKS).exists():
            # --force replaces earlier runs only, never an unrelated folder.
            raise UserError(f"{root} exists and is not a run folder; refusing to delete it")
        here = Path.cwd().resolve()
        if root.resolve() in (here, *here.parents):   # `--out .` (or "") from inside an earlier run
            raise UserError(f"refusing to replace run folder {root}: the current folder is inside it; "
                            "run from elsewhere or name another --out")
        shutil.rmtree(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:   # a file on the way, no permission, a read-only disk
        raise UserError(f"cannot create run folder {root}: {e.strerror or e}") from e
    return RunDir(root)


STOPPED_AT = "stopped_at"   # manifest key: the required stage whose failure ended the profile before any result


def stopped_early(path: str | os.PathLike) -> str | None:
    """The required stage a run folder's profile failed at, when it failed before the results `report` needs
    (no timed steps): a retry replaces such a folder without --force. None for any other folder."""
    try:
        data = json.loads((Path(path) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    stage = data.get(STOPPED_AT) if isinstance(data, dict) else None
    return stage if isinstance(stage, str) else None


def open_run(path: str | os.PathLike) -> RunDir:
    root = Path(path)
    if not root.exists():
        raise UserError(f"{root} does not exist")
    if not root.is_dir():
        raise UserError(f"{root} is not a folder")
    if not (root / MANIFEST).is_file():
        inner = sorted(str(m.parent) for m in root.glob(f"*/{MANIFEST}") if m.is_file())
        # a CI artifact unpacked a level up, say: the run folder it holds is the one to pass
        named = ", ".join(inner[:3]) + (f" and {len(inner) - 3} more" if len(inner) > 3 else "")
        held = f"; the run folder{'s' if len(inner) > 1 else ''} in it: {named}" if inner else ""
        raise UserError(f"{root} is not an inductor-prof run folder (no {MANIFEST}{held})")
    return RunDir(root)


def refuse_inside_run(path: str | os.PathLike, option: str) -> None:
    """An output the user names (`--csv`) never goes into a run folder: its files are the run's record."""
    target = Path(path).resolve()
    for folder in (target, *target.parents):
        if (folder / MANIFEST).is_file() or (folder / RANKS).is_file():
            raise UserError(f"{option} {path} is inside the run folder {folder}; write it elsewhere "
                            "(a run folder holds only what inductor-prof wrote)")


def check_output(path: str | os.PathLike, option: str) -> None:
    """An output file the user names (`--csv`) that cannot be written (a folder, a place no file can
    be made) is one line naming the option, before any work. Creates nothing: a temporary file is made and
    removed in the nearest folder that exists (writing makes the folders missing below it)."""
    path = Path(path)
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "it is a folder")
        folder = path.parent
        while not folder.exists():
            folder = folder.parent
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise UserError(f"cannot write {option} {path}: {e.strerror or e}") from e


def _umask() -> int:
    """The process's umask (read from /proc where it can be: setting it to read it races with other threads)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode(path: Path) -> int:
    """The mode a plain write gives `path`: its own when it exists, else 0o666 less the umask (mkstemp's files
    are 0o600, which left every output and run file unreadable to the user's group and others)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~_umask()


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside `path`, renamed onto it only when the block completes: a crash or Ctrl-C never
    leaves half a file behind. The file gets the mode a plain write would give it (file_mode)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        try:
            os.fchmod(fd, file_mode(path))
        finally:
            os.close(fd)
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    _record(path)


def sha256_of(path: Path) -> str:
    """A file's SHA-256, read a MiB at a time (a 2,000-kernel run's steps.hatchet is 164 MB)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as f:   # hashlib.file_digest does this from Python 3.11
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def file_record(path: Path) -> dict[str, Any]:
    """What a reader checks a run file against (runfiles/integrity.py): its size, lines and SHA-256."""
    data = Path(path).read_bytes()
    return {"bytes": len(data), "lines": data.count(b"\n"), "sha256": hashlib.sha256(data).hexdigest()}


# the manifests this process keeps up to date, by run folder: a file written into one is recorded in it. A process
# without its run's Manifest (a stage's own process) records nothing, so nothing it rewrites reads as changed.
_LIVE: "weakref.WeakValueDictionary[Path, Manifest]" = weakref.WeakValueDictionary()


def _record(path: Path) -> None:
    if not _LIVE:
        return
    path = Path(os.path.abspath(path))
    for folder in path.parents:
        manifest = _LIVE.get(folder)
        if manifest is not None:
            if path != manifest.run.manifest_path.absolute():
                manifest.record(path)
            return


def stamp_id(path: Path) -> str | None:
    """The run id a file written at `path` carries: its run's (the live Manifest's, else the run folder's
    manifest.json: a stage's own process), when `path` is one of the STAMPED files of a run; else None."""
    path = Path(os.path.abspath(path))
    for folder in path.parents:
        rel = path.relative_to(folder).as_posix()
        if not any(fnmatch.fnmatchcase(rel, p) for p in STAMPED_CSV + STAMPED_JSON):
            continue
        live = _LIVE.get(folder)
        if live is not None:
            return live.data.get(RUN_ID)
        try:
            data = json.loads((folder / MANIFEST).read_text())
        except (OSError, ValueError):
            continue
        found = data.get(RUN_ID) if isinstance(data, dict) else None
        return found if isinstance(found, str) else None
    return None


def stamped(path: Path, obj: Any) -> Any:
    """`obj` as the file at `path` is written: with its run's id (stamp_id) as a `run_id` column of a DataFrame,
    the first field of a dict; as it is when the file carries none."""
    run_id = stamp_id(path)
    if run_id is None:
        return obj
    if isinstance(obj, dict):
        return {RUN_ID: run_id, **{k: v for k, v in obj.items() if k != RUN_ID}}
    if hasattr(obj, "assign"):   # a DataFrame
        return obj.assign(**{RUN_ID: run_id})
    return obj


def write_text(path: Path, text: str) -> None:
    """UTF-8 whatever the locale; a path that is not UTF-8 (Python holds its bytes as lone surrogates) is
    written back as its own bytes instead of failing with UnicodeEncodeError (`report --html` of such a run)."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", errors="surrogateescape")


def write_gzip(path: Path, text: str) -> None:
    """`text` gzip-compressed (UTF-8), atomically."""
    import gzip

    with atomic_path(path) as tmp:
        tmp.write_bytes(gzip.compress(text.encode("utf-8", errors="surrogateescape")))


def write_json(path: Path, obj: Any) -> None:
    """`obj` as JSON, atomically; a run file that carries its run's id gets it (stamped)."""
    write_text(path, json.dumps(stamped(path, obj), indent=1, sort_keys=False, default=str) + "\n")


def write_csv(path: Path, df) -> None:
    """A pandas DataFrame as CSV, atomically; a run file that carries its run's id gets it (stamped)."""
    df = stamped(path, df)
    with atomic_path(path) as tmp:
        df.to_csv(tmp, index=False)


class Manifest:
    """manifest.json kept up to date after every stage, so a crash loses nothing already done."""

    def __init__(self, run: RunDir, initial: dict[str, Any]):
        self.run = run
        self.data = {**initial, RUN_ID: uuid.uuid4().hex, "stages": {}}
        _LIVE[Path(os.path.abspath(run.root))] = self
        self.save()

    @classmethod
    def of(cls, run: RunDir, data: dict[str, Any]) -> "Manifest":
        """The manifest of an existing run (`data`, as runfiles.manifest read it), to record a stage run on it
        later (`inductor-prof ncu RUN`)."""
        self = cls.__new__(cls)
        self.run, self.data = run, data
        self.data.setdefault("stages", {})
        _LIVE[Path(os.path.abspath(run.root))] = self
        return self

    def record(self, path: Path) -> None:
        """Records a file just written into the run (file_record), so that `report` can tell it changed since."""
        rel = Path(path).relative_to(os.path.abspath(self.run.root)).as_posix()
        self.data.setdefault(FILES, {})[rel] = file_record(path)
        self.save()

    def save(self) -> None:
        write_json(self.run.manifest_path, self.data)

    def set(self, key: str, value: Any) -> None:
        self.data[key] = value
        self.save()

    @contextmanager
    def stage(self, name: str) -> Iterator[dict[str, Any]]:
        """Records status, start (epoch seconds: where the run's time went between stages, start-up included)
        and duration of a stage; `info` carries what the stage wants to keep."""
        info: dict[str, Any] = {}
        entry = {"status": "running", "started": round(time.time(), 3)}
        self.data["stages"][name] = entry
        self.save()
        t0 = time.perf_counter()
        try:
            yield info
        except BaseException as e:   # Ctrl-C and SIGTERM (KeyboardInterrupts) are recorded as interruptions
            entry.update(status="interrupted" if isinstance(e, KeyboardInterrupt) else "failed",
                         seconds=round(time.perf_counter() - t0, 3), error=one_line(e, 2000).rstrip(":"), **info)
            self.save()
            raise
        entry.update(status="ok", seconds=round(time.perf_counter() - t0, 3), **info)
        self.save()
