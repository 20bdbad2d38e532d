"""Every read of a run folder, validated: the one package that opens a run's files (rundir.py names them and
writes them; files.py holds a validator per kind of file, this module what reads them for a run). The report, `diff` and the stages that read an earlier stage's files all read here.

A required file that is damaged is one line naming it and what is wrong (UserError); an optional one that is
missing where the run should have it, or damaged, is one warning naming it and what the caller lacks without
it (Reader), and the caller goes on. A file parsed whole but holding the wrong things is `Damaged`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import pandas as pd

from ..drivers.ncu.locate import NCU_EXTRA, READER_MISSING, reader_found
from ..drivers.ncu.source import kernel_at, read_all as read_source_reports
from ..errors import UserError, one_line
from .cells import LEFT_OUT, left_out
from .integrity import changed
from .files import (ATTENTION_COLUMNS, LACKING, LIBRARY_OPS_COLUMNS, MANIFEST_SECTIONS, NCU_NUMBERS,  # noqa: F401
                    REPORT_NEEDS, Damaged, Stale, attention_calls_file, attention_file, csv_reader, experiments_file,
                    recorded_launches_file,
                    hatchet_rows,
                    json_object, kernel_io, kernel_list, kernels_by_name, library_ops_file, manifest_file, n_steps,
                    ncu_rows, ncu_status_file, ranks_file, source_counters_file, source_status_file,
                    torch_trace_file, what)

from ..rundir import sha256_of

if TYPE_CHECKING:
    from ..rundir import RunDir


# --- reading a file the caller needs, or may do without -------------------------------------------------------

def present(path: Path) -> bool:
    """Whether `path` is there to be read. A folder on the way that cannot be entered (no permission) counts as
    there: reading it then says why, as any damage is said, instead of the look itself ending the command."""
    try:
        return path.exists()
    except OSError:
        return True


def trouble(path: Path, e: Exception, state: str = "damaged") -> str:
    """`<path> is damaged (why)`, or `<path> cannot be read (why)` when the system refused it (a permission, a
    folder where the file should be): the one wording of every file that cannot be used."""
    if isinstance(e, OSError) and e.errno is not None:   # the system's refusal, not a format's (BadGzipFile)
        where = f" ({e.filename})" if e.filename and str(e.filename) != str(path) else ""
        return f"{path} cannot be read ({e.strerror or type(e).__name__}{where})"
    return f"{path} is {state} ({what(e)})"


T = TypeVar("T")


def required(path: Path, read: Callable[[Path], T], need: str = REPORT_NEEDS, state: str = "damaged") -> T:
    """read(path); a damaged or unreadable file is one line naming it (UserError), not a traceback."""
    try:
        return read(path)
    except Exception as e:  # any damage: one line naming the file
        raise UserError(f"{trouble(path, e, state)}; {need}") from e


def if_present(path: Path, read: Callable[[Path], T], need: str, state: str = "damaged") -> T | None:
    """read(path) when the file exists, else None; a damaged one is one line naming it (required)."""
    return required(path, read, need, state) if present(path) else None


def earlier_experiments(run: RunDir) -> dict[str, Any] | None:
    """experiments.json as an earlier `try` left it, for this one to add to; None when there is none or it is
    damaged (then written anew)."""
    try:
        return experiments_file(run.experiments_json) if present(run.experiments_json) else None
    except Exception:   # damaged: replaced by this try's
        return None


def manifest(run: RunDir, need: str = REPORT_NEEDS) -> dict[str, Any]:
    return required(run.manifest_path, manifest_file, need)


def manifest_or_empty(run: RunDir) -> dict[str, Any]:
    """The manifest as written, {} when it is missing or not a JSON object (a run recorded before it, a damaged
    one): for callers that then measure rather than reuse."""
    try:
        return json_object(run.manifest_path)
    except (OSError, ValueError, Damaged):
        return {}


def file_digest(path: Path) -> str | None:
    """The sha256 of a file's bytes (rundir.sha256_of), None when it cannot be read."""
    try:
        return sha256_of(path)
    except OSError:
        return None


def steps(run: RunDir, manifest: dict[str, Any], need: str = REPORT_NEEDS) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(kernel rows, device info) of the timed steps; their absence says where the profile stopped."""
    if not present(run.steps_hatchet):
        stopped = [stage_line(name, entry) for name, entry in (manifest.get("stages") or {}).items()
                   if isinstance(entry, dict) and entry.get("status") != "ok"]
        raise UserError(f"{run.root} has no Proton steps ({run.steps_hatchet.relative_to(run.root)}); "
                        "the profile did not get that far" + (f" ({stopped[0]})" if stopped else ""))
    problem = changed(run, manifest, run.steps_hatchet)   # a required file: not the run's is an error
    if problem:
        raise UserError(f"{problem}; {need}")
    return required(run.steps_hatchet, lambda p: checked_hatchet_rows(run, manifest, p, run.steps_launches), need)


def checked_hatchet_rows(run: RunDir, manifest: dict[str, Any], hatchet: Path, table: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """hatchet_rows, passing over a launches table that changed since the run recorded it (said)."""
    problem = changed(run, manifest, table)
    if problem is None:
        return hatchet_rows(hatchet, table)
    rows, device = hatchet_rows(hatchet, None)
    rows.attrs[LEFT_OUT] = left_out(rows) + [f"{problem}; read {hatchet.name} instead"]
    return rows, device


_STEP = re.compile(r"(?:^|/)step_(\d+)(?=/|$)")


def profiled_steps(rows: pd.DataFrame) -> int | None:
    """The timed steps the Proton rows hold (step_<i> scopes; in a run of several sizes, those of the size with
    the most); None when they carry no step scopes."""
    found: dict[str, set[str]] = {}
    # each once (categorical: its distinct paths without a look at each row's text)
    for path in rows["path"].unique().tolist() if "path" in rows.columns else []:
        m = _STEP.search(str(path))
        if m:
            found.setdefault(str(path)[:m.start()], set()).add(m.group(1))
    return max(map(len, found.values())) if found else None


def checked_steps(run: RunDir, manifest: dict[str, Any], rows: pd.DataFrame) -> tuple[int, str | None]:
    """The steps every per-step number divides by, and a warning when the manifest and the profile disagree on
    them (a step cut out of the hatchet, the manifest edited): then the profile's own count, which its times
    are the sum over."""
    recorded, held = n_steps(manifest), profiled_steps(rows)
    if held is None or held == recorded:
        return recorded, None
    if "steps" not in (manifest.get("profile") or {}):   # not recorded: nothing to disagree with
        return held, None
    return held, (f"{run.manifest_path} records {recorded} timed steps but {run.steps_hatchet} holds {held}: "
                  f"one of them is not what the run wrote; per-step numbers are over the {held} steps profiled")


def torch_trace(run: RunDir, size: str | None, need: str) -> dict[str, Any]:
    """The torch.profiler trace of one step (of `size` in a run of several); missing or damaged: one line."""
    path = run.torch_trace_gz if size is None else run.torch_trace_gz_at(size)
    if not path.exists():
        raise UserError(f"{path} is missing; {need}")
    return required(path, torch_trace_file, need)


def kernel_records(run: RunDir) -> list[dict[str, Any]]:
    """kernels.json's records; none when it is missing or damaged (the report warned of it)."""
    try:
        return kernel_list(run.kernels_json) if present(run.kernels_json) else []
    except (OSError, ValueError):
        return []


def kernel_source(run: RunDir, record: dict[str, Any]) -> str | None:
    """A harvested kernel's text (a damaged byte shown as U+FFFD), or None when it cannot be read."""
    path = run.kernel_file(record["file"]) if record.get("file") else None
    try:
        return path.read_text(errors="replace") if path is not None and path.is_file() else None
    except OSError:
        return None


def kernel_texts(run: RunDir) -> tuple[list[dict[str, Any]], dict[str, str]] | None:
    """kernels.json's records and the text of each file they name that exists; None without kernels.json;
    Damaged when it or a file cannot be read."""
    if not run.kernels_json.is_file():
        return None
    try:
        records = kernel_list(run.kernels_json)
        texts = {}
        for rec in records:
            path = run.kernel_file(rec["file"]) if rec.get("file") else None
            if path is not None and path.is_file():
                texts[rec["file"]] = path.read_text()
        return records, texts
    except Damaged:
        raise
    except (OSError, ValueError) as e:   # not JSON, not text
        raise Damaged(one_line(e)) from e


def source_status(run: RunDir, need: str) -> dict[str, Any]:
    """The source pass's entries (stem -> name, status, reason, report); {} when it never ran."""
    return if_present(run.ncu_source_status_json, source_status_file, need) or {}


def source_report(run: RunDir, stem: str, entry: dict[str, Any] | None) -> tuple[Path, int]:
    """(the source report holding kernel `stem`, its index there), from its status entry: one process of the
    source pass writes one report for all its kernels (`report`, `index`); an entry without them (runs recorded
    before) names the kernel's own report, <stem>.ncu-rep."""
    entry = entry or {}
    index = entry.get("index")
    return (run.ncu_source_dir / entry["report"] if entry.get("report") else run.ncu_source_report(stem),
            index if isinstance(index, int) else 0)


def source_counters(run: RunDir, stems: list[str], status: dict[str, Any] | None = None,
                    warnings: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """stem -> its kernel's counters (drivers/ncu/source.py), or {"error": why}: from the counters file the source
    pass wrote for the kernel, else from its result in its source report (status.json: `report`, `index`), which
    needs ncu-report (the ncu extra); a damaged or stale counters file is one line in `warnings` when the report
    is read instead. `status`: the source pass's entries (stem -> entry), read from the run when not given."""
    status = source_status(run, "the source counters need it") if status is None else status
    out, to_read = {}, {}
    for stem in stems:
        (report, index), sidecar = source_report(run, stem, status.get(stem)), run.ncu_source_counters(stem)
        why = ""
        if sidecar.exists():
            try:
                out[stem] = source_counters_file(sidecar, report, index)
                continue
            except Exception as e:  # any damage: the report itself is read instead, where it can be
                why = f"{sidecar} is {'stale' if isinstance(e, Stale) else 'damaged'} ({what(e)})"
        if not report.is_file():
            out[stem] = {"error": f"{why}, and {report} is missing" if why else f"{report} is missing"}
        elif not reader_found():
            out[stem] = {"error": (f"{why}, and reading {report.name} instead needs NVIDIA's ncu-report: "
                                   f"pip install 'inductor-prof[{NCU_EXTRA}]'") if why else
                         f"no {sidecar.name} beside it (recorded before inductor-prof wrote one); {READER_MISSING}"}
        else:
            to_read[stem] = (report, index)
            if why and warnings is not None:
                warnings.append(f"{why}; read {report.name} instead")
    read = read_source_reports(sorted({p for p, _ in to_read.values()}))   # a shared report read once
    out.update({stem: kernel_at(read[str(p)], i) if str(p) in read else {"error": f"{p} was not read"}
                for stem, (p, i) in to_read.items()})
    return {stem: out[stem] for stem in stems}


def stage_line(name: str, entry: dict[str, Any]) -> str:
    """`stage ncu failed: <its error's first sentence>`, as the manifest recorded it."""
    error = str(entry.get("error") or "").split(". ")[0]
    state = "did not finish" if entry.get("status") == "running" else entry.get("status")  # its process died
    return f"stage {name} {state}" + (f": {error[:200]}" if error else "")


class Reader:
    """Reads a run's optional files, collecting one warning per file that is missing or damaged."""

    def __init__(self, run: RunDir, manifest: dict[str, Any]):
        self.run, self.manifest = run, manifest
        self.warnings: list[str] = []
        self.failed_checks: list[str] = []   # the warnings of files that failed a check (the diff gate's refusal)
        self.stages = manifest.get("stages") or {}
        self.said: set[str] = set()      # stages a file warning already named

    def _cause(self, stage: str | None) -> str:
        entry = self.stages.get(stage) if stage else None
        if stage and entry is None:
            return f" (the profile did not get to stage {stage})"
        if stage and isinstance(entry, dict) and entry.get("status") != "ok":
            self.said.add(stage)
            return f" ({stage_line(stage, entry)})"
        return ""

    def optional(self, path: Path, read: Callable[[Path], T], lacking: str, stage: str | None = None,
                 expected: bool = True) -> T | None:
        """read(path), or None and one warning: the file is damaged, or missing where the run should have it."""
        if not present(path):
            entry = self.stages.get(stage) if stage else None
            if expected and not (isinstance(entry, dict) and entry.get("skipped")):   # a stage with nothing to do
                self.warnings.append(f"{path} is missing{self._cause(stage)}; {lacking}")
            return None
        problem = changed(self.run, self.manifest, path)
        if problem:   # not what the stage wrote: its numbers are not the run's
            self.failed(f"{problem}; {lacking}")
            return None
        try:
            got = read(path)
        except Exception as e:  # any damage: the caller goes on without the file
            self.failed(f"{trouble(path, e)}; {lacking}")
            return None
        for line in left_out(got[0] if isinstance(got, tuple) and got else got):
            self.failed(line)
        return got

    def failed(self, *lines: str | None) -> None:
        """Warnings of a file that failed a check (damaged, cut, values no run writes, at odds with another)."""
        for line in filter(None, lines):
            self.warnings.append(line)
            self.failed_checks.append(line)

    def failed_stages(self) -> None:
        for name, entry in self.stages.items():
            if isinstance(entry, dict) and entry.get("status") != "ok" and name not in self.said:
                self.warnings.append(stage_line(name, entry))

    def kernels(self) -> dict[str, dict[str, Any]] | None:
        return self.optional(self.run.kernels_json, kernels_by_name, LACKING["kernels"], "harvest")

    def io_split(self, harvested: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any] | None]:
        """Per-launch read/write bytes of each harvested Inductor kernel, from its file. A foreach kernel's file
        has no get_args() (Inductor writes none for combo kernels): no split, and no warning."""
        return {name: self.optional(self.run.kernel_file(rec["file"]), kernel_io,
                                    f"kernel {name} is shown without its read/write split")
                if rec.get("file") and rec.get("kind") != "foreach" else None for name, rec in harvested.items()}

    def annotated(self) -> pd.DataFrame | None:
        return self.optional(self.run.annotated_hatchet,
                             lambda p: checked_hatchet_rows(self.run, self.manifest, p, self.run.annotated_launches)[0],
                             LACKING["annotated"], "annotated_step")

    def library_ops(self) -> pd.DataFrame | None:
        return self.optional(self.run.library_ops_csv, library_ops_file, LACKING["library_ops"], "library_ops")

    def attention(self) -> pd.DataFrame | None:
        return self.optional(self.run.attention_csv, attention_file, LACKING["attention"], "attention",
                             expected="attention" in self.stages)

    def attention_calls(self, expected: bool = False) -> list[dict[str, Any]] | None:
        """attention_shapes.json: the model's captured attention calls (FlexAttention kernels are priced by them);
        `expected`: the manifest records calls written there."""
        return self.optional(self.run.attention_shapes_json, attention_calls_file, LACKING["calls"], "library_ops",
                             expected=expected)

    def experiments(self) -> dict[str, Any] | None:
        """experiments.json of `inductor-prof try`, where it was run (none otherwise, and no warning)."""
        return self.optional(self.run.experiments_json, experiments_file, "the experiments (inductor-prof try) are "
                             "not shown", expected=False)

    def recorded_launches(self) -> dict[str, Any] | None:
        """proton/recorded_launches.json: the launches' work before the CUDA graphs replayed (expected where the
        warm-up recorded it)."""
        expected = bool((self.stages.get("warmup") or {}).get("recorded_launches"))
        return self.optional(self.run.recorded_launches, recorded_launches_file, LACKING["recorded_launches"],
                             "warmup", expected)

    def ncu(self) -> pd.DataFrame | None:
        """ncu.csv, checked against status.json: a kernel profiled there and absent here is said."""
        run = self.run
        status = None
        if present(run.ncu_status_json):
            status = self.optional(run.ncu_status_json, json_object, "the ncu table cannot be checked against it")
        expected = "ncu" in self.stages or bool(status)
        read = self.optional(run.ncu_csv, ncu_rows, LACKING["ncu"], "ncu", expected)
        if read is None:
            return None
        ncu, cut, bad = read
        self.warnings.extend(f"{run.ncu_csv} line {i + 2} ({ncu['name'].iloc[i]}) is cut short; that kernel is "
                             "shown without Nsight Compute columns" for i in range(len(ncu)) if cut.iloc[i])
        if status and "stem" in ncu.columns:
            newer = {s for s, e in status.items() if isinstance(e, dict) and e.get("status") == "ok"} - set(ncu["stem"])
            if newer:
                self.warnings.append(f"{run.ncu_csv} lacks {len(newer)} kernels that {run.ncu_status_json.name} "
                                     "lists as profiled (a call of the ncu stage did not finish; run it again)")
        return ncu[~(cut | bad)].reset_index(drop=True)
