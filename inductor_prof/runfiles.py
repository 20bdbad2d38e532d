"""Every read of a run folder, validated: the one module that opens a run's files (rundir.py names them and
writes them). The report, `diff` and the stages that read an earlier stage's files all read here.

A required file that is damaged is one line naming it and what is wrong (UserError); an optional one that is
missing where the run should have it, or damaged, is one warning naming it and what the caller lacks without
it (Reader), and the caller goes on. A file parsed whole but holding the wrong things is `Damaged`.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pandas as pd

from .drivers.ncu.locate import NCU_EXTRA, READER_MISSING, reader_found
from .drivers.ncu.metrics import METRICS
from .drivers.ncu.source import kernel_at, read_all as read_source_reports
from .drivers.proton.hatchet import frame_of, kernel_columns, load_hatchet
from .drivers.proton.launches import from_table
from .errors import UserError, one_line
from .inductor.kernel_files import io_bytes
from .inductor.kernel_provenance import merge as merge_provenance

if TYPE_CHECKING:
    from .rundir import RunDir

MANIFEST_SECTIONS = ("profile", "env", "target", "settings", "ceilings", "stages")   # each an object
LIBRARY_OPS_COLUMNS = ("kernel", "op", "flops", "flops_key", "bytes")
ATTENTION_COLUMNS = ("backend", "origin", "shape", "dtype", "available", "ms", "tflops", "pct_of_peak",
                     "speedup_vs_model", "rel_err", "ok")
# the numbers of a kernel ncu profiled (status ok): what it measured and what derive() made of it
NCU_NUMBERS = (*METRICS, "dram_bytes", "flops", "local_bytes")
# what the report lacks without each optional file
LACKING = {
    "annotated": "Inductor kernels are shown without flops and bytes (no TFLOP/s, GB/s, roofline)",
    "kernels": "Inductor kernels are shown without kind, fused ATen ops and read/write split",
    "library_ops": "library kernels (cuBLAS, cuDNN...) are shown without flops and bytes",
    "ncu": "the report has no Nsight Compute columns",
    "attention": "the report has no attention table",
    "calls": "FlexAttention kernels are priced at every query-key pair (their masks unknown)",
}
REPORT_NEEDS = "the report needs it"


class Damaged(ValueError):
    """A file that parses but does not hold what the run folder promises; the message says what."""


def what(e: Exception) -> str:
    """What is wrong with a file, in a few words: a Damaged's own message, else the error's first line."""
    return str(e) if isinstance(e, Damaged) else one_line(e)


def _kind(x) -> str:
    return {dict: "an object", list: "a list", str: "a string"}.get(type(x), type(x).__name__)


# --- one validator per kind of file: path in, its contents out, or Damaged saying what is wrong -------------

def json_object(path: Path) -> dict:
    data = json.loads(path.read_text())
    if not isinstance(data, dict):
        raise Damaged(f"a JSON object expected, found {_kind(data)}")
    return data


def manifest_file(path: Path) -> dict:
    m = json_object(path)
    for key in MANIFEST_SECTIONS:
        if key in m and not isinstance(m[key], dict):
            raise Damaged(f"{key!r} should be an object, found {_kind(m[key])}")
    gpu = (m.get("env") or {}).get("gpu")
    if gpu is not None and not isinstance(gpu, dict):
        raise Damaged(f"'env.gpu' should be an object, found {_kind(gpu)}")
    steps = (m.get("profile") or {}).get("steps", 1)
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise Damaged(f"'profile.steps' should be a whole number, found {steps!r}")
    return m


def n_steps(manifest: dict) -> int:
    """The timed steps of a run (manifest profile.steps; at least 1): what every per-step number divides by."""
    return max(int((manifest.get("profile") or {}).get("steps", 1) or 1), 1)


def hatchet_rows(path: Path, table: Path) -> tuple[pd.DataFrame, dict]:
    """(kernel rows, device info) of a .hatchet file: from its launches table when that was written from this
    hatchet (same size; a 2,000-kernel run's hatchet takes seconds to decode), else from the hatchet. The table
    is only a copy, so a damaged or stale one is passed over."""
    if table.is_file():
        try:
            data = json.loads(table.read_bytes())
            if data.get("source_bytes") == path.stat().st_size:
                return from_table(data)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            pass
    root, device = load_hatchet(path)
    if not isinstance(root, dict) or not isinstance(device, dict):
        raise Damaged("not a Proton hatchet (a tree of frames expected)")
    return frame_of(kernel_columns(root)), device


def kernel_list(path: Path) -> list[dict]:
    """kernels.json: one record per harvested kernel file (a name Inductor reused can have two)."""
    data = json.loads(path.read_text())
    if not isinstance(data, list):
        raise Damaged(f"a list of kernel records expected, found {_kind(data)}")
    for i, k in enumerate(data):
        if not isinstance(k, dict):
            raise Damaged(f"record {i} should be an object, found {_kind(k)}")
        for key, kinds in (("name", str), ("kind", (str, type(None))), ("file", (str, type(None))),
                           ("aten_ops", (list, type(None))), ("provenance", (dict, type(None)))):
            if key in ("name", "kind") and key not in k:
                raise Damaged(f"record {i} has no {key!r}")
            if key in k and not isinstance(k[key], kinds):
                raise Damaged(f"record {i}: {key!r} is {_kind(k[key])}")
    return data


def kernels_by_name(path: Path) -> dict[str, dict]:
    """kernels.json by kernel name: a name Inductor gave kernels of several graphs has all their provenance."""
    by_name: dict[str, dict] = {}
    for k in kernel_list(path):
        if k["name"] in by_name and k.get("provenance") and by_name[k["name"]].get("provenance"):
            k = {**k, "provenance": merge_provenance([by_name[k["name"]]["provenance"], k["provenance"]])}
        by_name[k["name"]] = k
    return by_name


def kernel_io(path: Path) -> dict[str, int]:
    """Per-launch read/write bytes of a harvested kernel file; an emptied or cut file is Damaged, not zero."""
    text = path.read_text()
    if not text.strip():
        raise Damaged("empty")
    io = io_bytes(text)
    if io is None:
        raise Damaged("no get_args() with the kernel's arguments (cut short?)")
    return io


def _cut_line(path: Path) -> int | None:
    """The number of the last line of a file the run wrote line by line (to_csv ends every line) when that line
    has no end (the file was cut short), else None."""
    data = path.read_bytes()
    return data.count(b"\n") + 1 if data and not data.endswith(b"\n") else None


def csv_reader(columns: tuple[str, ...], numeric: tuple[str, ...] = (), cut_rows_ok: bool = False,
               **read_options) -> Callable[[Path], pd.DataFrame]:
    """A reader of a CSV that must hold `columns`, the `numeric` ones numbers, and end its last line (a file cut
    mid-row would show the row's first cells as data; `cut_rows_ok`: the caller sorts out the rows)."""
    def read(path: Path) -> pd.DataFrame:
        cut = None if cut_rows_ok else _cut_line(path)
        if cut:   # before parsing: a cut inside a quoted cell is a parser error that would not say so
            raise Damaged(f"cut short: its last line (line {cut}) has no end")
        df = pd.read_csv(path, **read_options)
        missing = [c for c in columns if c not in df.columns]
        if missing:
            raise Damaged(f"no column {', '.join(map(repr, missing))}")
        if not len(df):   # a header and no rows (nothing to list) is a table, not damage: its columns read as text
            return df.astype({c: float for c in numeric if c in df.columns})
        for c in numeric:
            if c in df.columns and not pd.api.types.is_numeric_dtype(df[c]):
                raise Damaged(f"column {c!r} is not numeric")
        return df
    return read


attention_file = csv_reader(ATTENTION_COLUMNS)
_ncu_file = csv_reader(("name",), NCU_NUMBERS, cut_rows_ok=True)


def library_ops_file(path: Path) -> pd.DataFrame:
    df = csv_reader(LIBRARY_OPS_COLUMNS, ("flops", "bytes"), keep_default_na=False)(path)
    for i, cell in enumerate(df["modules"] if "modules" in df.columns else []):   # runs since provenance
        try:
            modules = json.loads(cell) if cell else []
        except ValueError:
            modules = None
        if not (isinstance(modules, list) and all(isinstance(m, str) for m in modules)):
            raise Damaged(f"line {i + 2}: 'modules' is not a JSON list of module paths")
    return df


def ncu_rows(path: Path) -> tuple[pd.DataFrame, pd.Series]:
    """ncu.csv's rows and which are cut short: a profiled kernel without all its numbers, or a last line with
    no end (the file was cut mid-row; to_csv ends every line)."""
    df = _ncu_file(path)
    numbers = [c for c in NCU_NUMBERS if c in df.columns]
    cut = df[numbers].isna().any(axis=1) if numbers else pd.Series(False, index=df.index)
    if "status" in df.columns:   # a failed kernel has no numbers, its reason says why
        cut = df["status"].isna() | ((df["status"] == "ok") & cut)
    if len(df) and _cut_line(path):
        cut.iloc[-1] = True
    return df, cut


def ncu_status_file(path: Path) -> dict:
    """status.json of the ncu stage: kernel stem -> entry with its status."""
    status = json_object(path)
    if not all(isinstance(v, dict) and "status" in v for v in status.values()):
        raise Damaged("not an object of kernel entries")
    return status


def source_status_file(path: Path) -> dict:
    """ncu/source/status.json of the source pass: kernel stem -> entry with its name and status."""
    status = ncu_status_file(path)
    if not all(isinstance(v.get("name"), str) for v in status.values()):
        raise Damaged("an entry without its kernel's name")
    return status


class Stale(Damaged):
    """A copy of what a file holds (a source report's counters) written from another version of that file."""


def source_counters_file(path: Path, report: Path, index: int = 0) -> dict:
    """ncu/source/<stem>.counters.json: {"report": the source report it was read from, "index": the kernel's result
    there, "report_bytes": that report's size, "counters": drivers/ncu/source.read_action's dict of that result}.
    Files written before batch reports lack "report" and "index" (a report of one kernel: its result 0). Stale
    when the kernel's status names another report or result, or the report is there at another size (recorded
    again)."""
    data = json_object(path)
    counters, size = data.get("counters"), data.get("report_bytes")
    if not isinstance(counters, dict) or not isinstance(size, int):
        raise Damaged("no 'counters' object and 'report_bytes' size")
    name, at = data.get("report", report.name), data.get("index", 0)
    if not isinstance(name, str) or not isinstance(at, int):
        raise Damaged("'report' is not a file name or 'index' not a number")
    pcs = counters.get("pcs")
    if not isinstance(pcs, list) or not all(isinstance(p, dict) for p in pcs):
        raise Damaged("'counters.pcs' is not a list of instruction records")
    for i, p in enumerate(pcs):
        if not all(isinstance(p.get(k), (int, float)) for k in ("offset", "inst", "samples")) \
                or not isinstance(p.get("stalls", {}), dict) or not isinstance(p.get("sass", ""), str):
            raise Damaged(f"instruction record {i} lacks its offset, inst, samples or stalls")
    for key in ("files", "launch"):
        if not isinstance(counters.get(key, {}), dict):
            raise Damaged(f"'counters.{key}' should be an object, found {_kind(counters[key])}")
    if (name, at) != (report.name, index):
        raise Stale(f"written from result {at} of {name}, the source pass recorded result {index} of {report.name}")
    if report.is_file() and report.stat().st_size != size:
        raise Stale(f"written from a {size}-byte report, {report.name} has {report.stat().st_size}")
    return counters


def attention_calls_file(path: Path) -> list[dict]:
    calls = json.loads(path.read_text())
    if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
        raise Damaged(f"a list of attention calls expected, found {_kind(calls)}")
    for c in calls:   # a saved mask's path is relative to the run folder
        if c.get("mask_file"):
            c["mask_file"] = str(path.parent / c["mask_file"])
    return calls


def torch_trace_file(path: Path) -> dict:
    """A gzipped Chrome trace of torch.profiler (torch_trace[.<size>].json.gz): an object with a traceEvents
    list of event objects; cut or not gzip is Damaged (gzip's own error names it)."""
    with gzip.open(path, "rb") as f:
        data = json.loads(f.read())
    if not isinstance(data, dict):
        raise Damaged(f"a Chrome trace object expected, found {_kind(data)}")
    events = data.get("traceEvents")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise Damaged("no traceEvents list of events")
    return data


def ranks_file(path: Path) -> dict:
    """ranks.json of a multi-rank run: nproc, and a record per rank (rank, exit, status, why) once it ended."""
    data = json_object(path)
    if not isinstance(data.get("nproc"), int) or isinstance(data.get("nproc"), bool) or data["nproc"] < 1:
        raise Damaged(f"'nproc' should be a whole number of ranks, found {data.get('nproc')!r}")
    records = data.setdefault("ranks", [])
    if not isinstance(records, list) or not all(isinstance(r, dict) and isinstance(r.get("rank"), int)
                                                for r in records):
        raise Damaged("'ranks' should be a list of records each with its 'rank'")
    return data


# --- reading a file the caller needs, or may do without -------------------------------------------------------

def required(path: Path, read: Callable[[Path], Any], need: str = REPORT_NEEDS, state: str = "damaged"):
    """read(path); a damaged file is one line naming it (UserError), not a traceback."""
    try:
        return read(path)
    except Exception as e:  # any damage: one line naming the file
        raise UserError(f"{path} is {state} ({what(e)}); {need}") from e


def if_present(path: Path, read: Callable[[Path], Any], need: str, state: str = "damaged"):
    """read(path) when the file exists, else None; a damaged one is one line naming it (required)."""
    return required(path, read, need, state) if path.exists() else None


def manifest(run: RunDir, need: str = REPORT_NEEDS) -> dict:
    return required(run.manifest_path, manifest_file, need)


def steps(run: RunDir, manifest: dict, need: str = REPORT_NEEDS) -> tuple[pd.DataFrame, dict]:
    """(kernel rows, device info) of the timed steps; their absence says where the profile stopped."""
    if not run.steps_hatchet.exists():
        stopped = [stage_line(name, entry) for name, entry in (manifest.get("stages") or {}).items()
                   if isinstance(entry, dict) and entry.get("status") != "ok"]
        raise UserError(f"{run.root} has no Proton steps ({run.steps_hatchet.relative_to(run.root)}); "
                        "the profile did not get that far" + (f" ({stopped[0]})" if stopped else ""))
    return required(run.steps_hatchet, lambda p: hatchet_rows(p, run.steps_launches), need)


def torch_trace(run: RunDir, size: str | None, need: str) -> dict:
    """The torch.profiler trace of one step (of `size` in a run of several); missing or damaged: one line."""
    path = run.torch_trace_gz if size is None else run.torch_trace_gz_at(size)
    if not path.exists():
        raise UserError(f"{path} is missing; {need}")
    return required(path, torch_trace_file, need)


def kernel_records(run: RunDir) -> list[dict]:
    """kernels.json's records; none when it is missing or damaged (the report warned of it)."""
    try:
        return kernel_list(run.kernels_json) if run.kernels_json.exists() else []
    except (OSError, ValueError):
        return []


def kernel_source(run: RunDir, record: dict) -> str | None:
    """A harvested kernel's text (a damaged byte shown as U+FFFD), or None when it cannot be read."""
    path = run.kernel_file(record["file"]) if record.get("file") else None
    try:
        return path.read_text(errors="replace") if path is not None and path.is_file() else None
    except OSError:
        return None


def kernel_texts(run: RunDir) -> tuple[list[dict], dict[str, str]] | None:
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


def source_status(run: RunDir, need: str) -> dict:
    """The source pass's entries (stem -> name, status, reason, report); {} when it never ran."""
    return if_present(run.ncu_source_status_json, source_status_file, need) or {}


def source_report(run: RunDir, stem: str, entry: dict | None) -> tuple[Path, int]:
    """(the source report holding kernel `stem`, its index there), from its status entry: one process of the
    source pass writes one report for all its kernels (`report`, `index`); an entry without them (runs recorded
    before) names the kernel's own report, <stem>.ncu-rep."""
    entry = entry or {}
    index = entry.get("index")
    return (run.ncu_source_dir / entry["report"] if entry.get("report") else run.ncu_source_report(stem),
            index if isinstance(index, int) else 0)


def source_counters(run: RunDir, stems: list[str], status: dict | None = None,
                    warnings: list[str] | None = None) -> dict[str, dict]:
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


def stage_line(name: str, entry: dict) -> str:
    """`stage ncu failed: <its error's first sentence>`, as the manifest recorded it."""
    error = str(entry.get("error") or "").split(". ")[0]
    state = "did not finish" if entry.get("status") == "running" else entry.get("status")  # its process died
    return f"stage {name} {state}" + (f": {error[:200]}" if error else "")


class Reader:
    """Reads a run's optional files, collecting one warning per file that is missing or damaged."""

    def __init__(self, run: RunDir, manifest: dict):
        self.run, self.warnings = run, []
        self.stages = manifest.get("stages") or {}
        self.said: set[str] = set()      # stages a file warning already named

    def _cause(self, stage: str | None) -> str:
        entry = self.stages.get(stage) if stage else None
        if stage and entry is None:
            return f" (the profile did not get to stage {stage})"
        if isinstance(entry, dict) and entry.get("status") != "ok":
            self.said.add(stage)
            return f" ({stage_line(stage, entry)})"
        return ""

    def optional(self, path: Path, read: Callable[[Path], Any], lacking: str, stage: str | None = None,
                 expected: bool = True):
        """read(path), or None and one warning: the file is damaged, or missing where the run should have it."""
        if not path.exists():
            if expected:
                self.warnings.append(f"{path} is missing{self._cause(stage)}; {lacking}")
            return None
        try:
            return read(path)
        except Exception as e:  # any damage: the caller goes on without the file
            self.warnings.append(f"{path} is damaged ({what(e)}); {lacking}")
            return None

    def failed_stages(self) -> None:
        for name, entry in self.stages.items():
            if isinstance(entry, dict) and entry.get("status") != "ok" and name not in self.said:
                self.warnings.append(stage_line(name, entry))

    def kernels(self) -> dict[str, dict] | None:
        return self.optional(self.run.kernels_json, kernels_by_name, LACKING["kernels"], "harvest")

    def io_split(self, harvested: dict[str, dict]) -> dict[str, dict | None]:
        """Per-launch read/write bytes of each harvested Inductor kernel, from its file."""
        return {name: self.optional(self.run.kernel_file(rec["file"]), kernel_io,
                                    f"kernel {name} is shown without its read/write split")
                if rec.get("file") else None for name, rec in harvested.items()}

    def annotated(self) -> pd.DataFrame | None:
        return self.optional(self.run.annotated_hatchet, lambda p: hatchet_rows(p, self.run.annotated_launches)[0],
                             LACKING["annotated"], "annotated_step")

    def library_ops(self) -> pd.DataFrame | None:
        return self.optional(self.run.library_ops_csv, library_ops_file, LACKING["library_ops"], "library_ops")

    def attention(self) -> pd.DataFrame | None:
        return self.optional(self.run.attention_csv, attention_file, LACKING["attention"], "attention",
                             expected="attention" in self.stages)

    def attention_calls(self) -> list[dict] | None:
        """attention_shapes.json: the model's captured attention calls (FlexAttention kernels are priced by them)."""
        return self.optional(self.run.attention_shapes_json, attention_calls_file, LACKING["calls"], expected=False)

    def ncu(self) -> pd.DataFrame | None:
        """ncu.csv, checked against status.json: a kernel profiled there and absent here is said."""
        run = self.run
        status = None
        if run.ncu_status_json.exists():
            status = self.optional(run.ncu_status_json, json_object, "the ncu table cannot be checked against it")
        expected = "ncu" in self.stages or bool(status)
        read = self.optional(run.ncu_csv, ncu_rows, LACKING["ncu"], "ncu", expected)
        if read is None:
            return None
        ncu, cut = read
        self.warnings.extend(f"{run.ncu_csv} line {i + 2} ({ncu['name'].iloc[i]}) is cut short; that kernel is "
                             "shown without Nsight Compute columns" for i in range(len(ncu)) if cut.iloc[i])
        if status and "stem" in ncu.columns:
            newer = {s for s, e in status.items() if isinstance(e, dict) and e.get("status") == "ok"} - set(ncu["stem"])
            if newer:
                self.warnings.append(f"{run.ncu_csv} lacks {len(newer)} kernels that {run.ncu_status_json.name} "
                                     "lists as profiled (a call of the ncu stage did not finish; run it again)")
        return ncu[~cut].reset_index(drop=True)
