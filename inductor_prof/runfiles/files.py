"""One validator per kind of run file: a path in, its contents out, or Damaged saying what is wrong (the
runfiles package reads a run folder through these)."""
from __future__ import annotations

import functools
import gzip
import json
import os
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..drivers.ncu.metrics import METRICS
from ..drivers.proton.hatchet import COLUMNS as HATCHET_COLUMNS, frame_of, kernel_columns, load_hatchet
from ..drivers.proton.launches import from_table
from ..errors import one_line
from ..rundir import RUN_ID
from . import cells
from ..inductor import launch_record
from ..inductor.kernel_files import io_bytes
from ..inductor.kernel_provenance import merge as merge_provenance

MANIFEST_SECTIONS = ("profile", "env", "target", "settings", "ceilings", "stages")   # each an object
LIBRARY_OPS_COLUMNS = ("kernel", "op", "flops", "flops_key", "bytes")
ATTENTION_COLUMNS = ("backend", "origin", "shape", "dtype", "available", "ms", "tflops", "pct_of_peak",
                     "speedup_vs_model", "rel_err", "ok")
# the numbers of each table (a cell that holds something else leaves its row out, cells.py); all but the
# attention call's window and scale are times, sizes, counts or rates: never negative
ATTENTION_NUMBERS = ("B", "H", "Hkv", "Sq", "Sk", "D", "window", "scale", "flops", "calls_per_step", "ms", "tflops",
                     "pct_of_peak", "rel_err", "lse_err", "speedup_vs_model")
ATTENTION_SIGNED = ("window", "scale")
ATTENTION_NEEDED = ("B", "H", "Sq", "Sk", "D", "flops")   # a call's sizes and cost: never empty
LIBRARY_OPS_NUMBERS = ("dur_ns", "flops", "bytes")
# the numbers of a kernel ncu profiled (status ok): what it measured and what derive() made of it
NCU_NUMBERS = (*METRICS, "dram_bytes", "flops", "local_bytes")
# what the report lacks without each optional file
LACKING = {
    "annotated": "Inductor kernels are shown without flops and bytes (no TFLOP/s, GB/s, roofline)",
    "kernels": ("Inductor kernels are shown without fused ATen ops, read/write split and provenance "
                "(their kind from their names)"),
    "library_ops": "library kernels (cuBLAS, cuDNN...) are shown without flops and bytes",
    "ncu": "the report has no Nsight Compute columns",
    "attention": "the report has no attention table",
    "calls": "FlexAttention kernels are priced at every query-key pair (their masks unknown)",
    "recorded_launches": ("the Inductor kernels of the CUDA graph replays are shown without flops and bytes (no "
                          "TFLOP/s, GB/s, roofline)"),
}
REPORT_NEEDS = "the report needs it"


class Damaged(ValueError):
    """A file that parses but does not hold what the run folder promises; the message says what."""


def what(e: Exception) -> str:
    """What is wrong with a file, in a few words: a Damaged's own message, else the error's first line."""
    return str(e) if isinstance(e, Damaged) else one_line(e)


def _kind(x: object) -> str:
    kinds: dict[type, str] = {dict: "an object", list: "a list", str: "a string"}
    return kinds.get(type(x), type(x).__name__)


# --- one validator per kind of file: path in, its contents out, or Damaged saying what is wrong -------------

def json_object(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    if not isinstance(data, dict):
        raise Damaged(f"a JSON object expected, found {_kind(data)}")
    return data


def manifest_file(path: Path) -> dict[str, Any]:
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


def n_steps(manifest: dict[str, Any]) -> int:
    """The timed steps of a run (manifest profile.steps; at least 1): what every per-step number divides by."""
    return max(int((manifest.get("profile") or {}).get("steps", 1) or 1), 1)


def hatchet_rows(path: Path, table: Path | None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(kernel rows, device info) of a .hatchet file: from its launches table when that was written from this
    hatchet (same size; a 2,000-kernel run's hatchet takes seconds to decode), else from the hatchet. The table
    is only a copy, so a damaged or stale one is passed over."""
    unread = None
    try:
        if table is not None and table.is_file():
            data = json.loads(table.read_bytes())
            if data.get("source_bytes") == path.stat().st_size:
                rows, device = from_table(data)
                with open(path, "rb"):   # the hatchet it copies is readable too: one wording whichever is read
                    pass
                if not cells.bad_rows(rows, _NUMBERS, _NUMBERS):
                    return rows, device
                unread = f"{table} holds values no run writes (a negative or infinite time or count)"
    except PermissionError as e:
        if e.filename and Path(e.filename) == Path(path):
            raise
        unread = f"{table} cannot be read ({e.strerror})"
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, OSError):
        pass
    rows, device = _hatchet_rows(path)
    if unread:   # only a copy: the hatchet's own rows stand, and the copy's trouble is said
        rows.attrs[cells.LEFT_OUT] = [f"{unread}; read {path.name} instead"]
    return rows, device


_NUMBERS = HATCHET_COLUMNS[2:]   # calls, time, bytes, flops: never negative, never infinite


def _hatchet_rows(path: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The hatchet's kernel rows; a row with a negative, infinite or NaN time or count is left out and said."""
    root, device = load_hatchet(path)
    if not isinstance(root, dict) or not isinstance(device, dict):
        raise Damaged("not a Proton hatchet (a tree of frames expected)")
    rows = frame_of(kernel_columns(root))
    try:
        kept = cells.keep_good_rows(rows, path, _NUMBERS, _NUMBERS, first_line=1, unit="kernel row")
    except cells.NoNumbers as e:
        raise Damaged(str(e)) from None
    bad = _bad_metrics(root)
    if bad:   # a frame the parser passes over (a negative time is no kernel) is said too, by its name
        cells.left_out(kept)
        kept.attrs[cells.LEFT_OUT] = [cells.left_out_line(path, bad, "frame")]
    return kept, device


def _bad_metrics(root: dict[str, Any]) -> dict[str, str]:
    """Frame name -> its first metric no Proton run writes (negative, infinite or NaN), over the whole tree."""
    bad: dict[str, str] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        metrics = node.get("metrics")
        for key, value in (metrics.items() if isinstance(metrics, dict) else ()):
            why = cells.why_bad_json(value, True) if isinstance(value, (int, float)) and not isinstance(value, bool) \
                else None
            if why:
                bad.setdefault(str((node.get("frame") or {}).get("name", "?"))[:80], f"{key!r} is {value!r} ({why})")
        stack.extend(c for c in node.get("children") or () if isinstance(c, dict))
    return bad


def kernel_list(path: Path) -> list[dict[str, Any]]:
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


def kernels_by_name(path: Path) -> dict[str, dict[str, Any]]:
    """kernels.json by kernel name: a name Inductor gave kernels of several graphs has all their provenance."""
    by_name: dict[str, dict[str, Any]] = {}
    for k in kernel_list(path):
        if k["name"] in by_name and k.get("provenance") and by_name[k["name"]].get("provenance"):
            k = {**k, "provenance": merge_provenance([by_name[k["name"]]["provenance"], k["provenance"]])}
        by_name[k["name"]] = k
    return by_name


def kernel_io(path: Path) -> dict[str, int]:
    """Per-launch read/write bytes of a harvested kernel file; an emptied or cut file is Damaged, not zero."""
    text = path.read_text()
    if not text or text.isspace():   # (no stripped copy of each of thousands of files)
        raise Damaged("empty")
    io = io_bytes(text)
    if io is None:
        raise Damaged("no get_args() with the kernel's arguments (cut short?)")
    return io


def _cut_line(path: Path) -> int | None:
    """The number of the last line of a file the run wrote line by line (to_csv ends every line) when that line
    has no end (the file was cut short), else None."""
    with path.open("rb") as f:   # its last byte first: a 12 MB table read whole to find it whole
        if f.seek(0, os.SEEK_END) == 0:
            return None
        f.seek(-1, os.SEEK_END)
        if f.read(1) == b"\n":
            return None
        f.seek(0)
        return f.read().count(b"\n") + 1


def csv_reader(columns: tuple[str, ...], numeric: tuple[str, ...] = (), cut_rows_ok: bool = False,
               signed: tuple[str, ...] = (), needed: tuple[str, ...] = (),
               **read_options: Any) -> Callable[[Path], pd.DataFrame]:
    """A reader of a CSV that must hold `columns`, the `numeric` ones numbers (never negative unless `signed`; a
    row with a bad one is left out and said, cells.py), and end its last line (a file cut mid-row would show the
    row's first cells as data; `cut_rows_ok`: the caller sorts out the rows)."""
    def read(path: Path) -> pd.DataFrame:
        cut = None if cut_rows_ok else _cut_line(path)
        if cut:   # before parsing: a cut inside a quoted cell is a parser error that would not say so
            raise Damaged(f"cut short: its last line (line {cut}) has no end")
        df = pd.read_csv(path, **read_options).drop(columns=[RUN_ID], errors="ignore")   # integrity.py reads it
        missing = [c for c in columns if c not in df.columns]
        if missing:
            raise Damaged(f"no column {', '.join(map(repr, missing))}")
        if not len(df):   # a header and no rows (nothing to list) is a table, not damage: its columns read as text
            return df.astype({c: float for c in numeric if c in df.columns})
        if cut_rows_ok:   # the caller sorts the rows out (ncu_rows)
            return df
        try:
            return cells.keep_good_rows(df, path, numeric, [c for c in numeric if c not in signed], needed=needed)
        except cells.NoNumbers as e:
            raise Damaged(str(e)) from None
    return read


attention_file = csv_reader(ATTENTION_COLUMNS, ATTENTION_NUMBERS, signed=ATTENTION_SIGNED, needed=ATTENTION_NEEDED)
_ncu_file = csv_reader(("name",), NCU_NUMBERS, cut_rows_ok=True)


@functools.lru_cache(maxsize=None)
def _int_lists(cell: str, nonneg: bool) -> bool:
    """A cell holding a JSON list of each argument's sizes or strides (whole numbers, nested for a tensor list; []
    for a scalar). Judged once per distinct cell (a large run repeats them); NaN and Infinity decode to floats,
    which are not sizes."""
    try:
        value = cells.json_cell(cell) if cell else []
    except ValueError:
        return False
    return isinstance(value, list) and all(_sizes(arg, nonneg) for arg in value)


def _sizes(value: Any, nonneg: bool) -> bool:
    """A whole number, or a list (of lists: a tensor list's sizes) of them."""
    if isinstance(value, list):
        return all(_sizes(v, nonneg) for v in value)
    return isinstance(value, int) and not isinstance(value, bool) and (value >= 0 or not nonneg)


def _bad_shapes(df: pd.DataFrame) -> dict[int, str]:
    """Row position -> what is wrong, for rows whose dims or strides are not lists of whole numbers."""
    out = {}
    for col, nonneg in (("dims", True), ("strides", False)):
        values = df[col].tolist() if col in df.columns else []
        # each distinct cell judged once, the rows looked at only where one is bad (a large run: none of 23,000)
        bad = {c for c in dict.fromkeys(values) if not _int_lists(str(c), nonneg)}
        for i, cell in enumerate(values if bad else []):
            if i not in out and cell in bad:
                out[i] = f"{col!r} is {str(cell)[:40]!r} (not a list of sizes)"
    return out


def library_ops_file(path: Path) -> pd.DataFrame:
    """library_ops.csv: a row per library launch of one step; a row whose numbers, sizes or strides are not what
    a run writes is left out and said (cells.py)."""
    df = csv_reader(LIBRARY_OPS_COLUMNS, LIBRARY_OPS_NUMBERS, keep_default_na=False)(path)
    bad = _bad_shapes(df)
    if bad:
        said = cells.left_out(df)
        df = df.drop(index=df.index[sorted(bad)]).reset_index(drop=True)
        df.attrs[cells.LEFT_OUT] = said + [cells.left_out_line(path, {i + 2: w for i, w in bad.items()}, "line")]
    checked = set()   # each distinct cell once (a large run repeats them)
    for i, cell in enumerate(df["modules"].tolist() if "modules" in df.columns else []):   # since provenance
        if cell in checked:
            continue
        try:
            modules = cells.json_cell(cell) if cell else []
        except ValueError:
            modules = None
        if not (isinstance(modules, list) and all(isinstance(m, str) for m in modules)):
            raise Damaged(f"line {i + 2}: 'modules' is not a JSON list of module paths")
        checked.add(cell)
    return df


def ncu_rows(path: Path) -> tuple[pd.DataFrame, pd.Series, pd.Series]:
    """ncu.csv's rows, which are cut short (a profiled kernel without all its numbers, or a last line with no
    end: the file was cut mid-row; to_csv ends every line) and which hold a value ncu never writes (text, NaN,
    inf or a negative number: their numbers blanked, said in attrs as cells.py does)."""
    df = _ncu_file(path)
    numbers = [c for c in NCU_NUMBERS if c in df.columns]
    bad = cells.bad_rows(df, numbers, numbers)
    bad_mask = pd.Series([i in bad for i in range(len(df))], index=df.index, dtype=bool)
    if bad or any(not pd.api.types.is_numeric_dtype(df[c]) for c in numbers):
        df = df.copy()
        df.loc[bad_mask, numbers] = float("nan")
        for c in numbers:
            df[c] = pd.to_numeric(df[c].replace("", None), errors="coerce")
        if bad:
            df.attrs[cells.LEFT_OUT] = [cells.left_out_line(path, {i + 2: w for i, w in bad.items()}, "line")]
    cut = df[numbers].isna().any(axis=1) if numbers else pd.Series(False, index=df.index)
    if "status" in df.columns:   # a failed kernel has no numbers, its reason says why
        cut = df["status"].isna() | ((df["status"] == "ok") & cut)
    if len(df) and _cut_line(path):
        cut.iloc[-1] = True
    return df, cut & ~bad_mask, bad_mask


def ncu_status_file(path: Path) -> dict[str, Any]:
    """status.json of the ncu stage: kernel stem -> entry with its status."""
    status = json_object(path)
    if not all(isinstance(v, dict) and "status" in v for v in status.values()):
        raise Damaged("not an object of kernel entries")
    return status


def source_status_file(path: Path) -> dict[str, Any]:
    """ncu/source/status.json of the source pass: kernel stem -> entry with its name and status."""
    status = ncu_status_file(path)
    if not all(isinstance(v.get("name"), str) for v in status.values()):
        raise Damaged("an entry without its kernel's name")
    return status


class Stale(Damaged):
    """A copy of what a file holds (a source report's counters) written from another version of that file."""


def source_counters_file(path: Path, report: Path, index: int = 0) -> dict[str, Any]:
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


CALL_NUMBERS = ("B", "H", "Hkv", "Sq", "Sk", "D", "window", "scale", "dropout", "mask_pairs", "row")
CALL_SIGNED = ("window", "scale")


def attention_calls_file(path: Path) -> list[dict[str, Any]]:
    """attention_shapes.json: the model's attention calls; a call holding a value no run writes (NaN, text where
    a size belongs, a negative size) is left out and said (cells.py), not priced."""
    calls: list[dict[str, Any]] = json.loads(path.read_text())
    if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
        raise Damaged(f"a list of attention calls expected, found {_kind(calls)}")
    bad: dict[int, str] = {}
    for i, c in enumerate(calls):
        for key in CALL_NUMBERS:
            why = cells.why_bad_json(c.get(key), key not in CALL_SIGNED)
            if why:
                bad.setdefault(i, f"{key!r} is {c.get(key)!r} ({why})")
    if bad:
        calls = cells.Noted(c for i, c in enumerate(calls) if i not in bad)
        calls.attrs[cells.LEFT_OUT] = [cells.left_out_line(path, {i: w for i, w in bad.items()}, "call")]
    for c in calls:   # a saved mask's path is relative to the run folder
        if c.get("mask_file"):
            c["mask_file"] = str(path.parent / c["mask_file"])
    return calls


def torch_trace_file(path: Path) -> dict[str, Any]:
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


def ranks_file(path: Path) -> dict[str, Any]:
    """ranks.json of a multi-rank run: nproc, and a record per rank (rank, exit, status, why) once it ended."""
    data = json_object(path)
    if not isinstance(data.get("nproc"), int) or isinstance(data.get("nproc"), bool) or data["nproc"] < 1:
        raise Damaged(f"'nproc' should be a whole number of ranks, found {data.get('nproc')!r}")
    records = data.setdefault("ranks", [])
    if not isinstance(records, list) or not all(isinstance(r, dict) and isinstance(r.get("rank"), int)
                                                for r in records):
        raise Damaged("'ranks' should be a list of records each with its 'rank'")
    return data




def experiments_file(path: Path) -> dict[str, Any]:
    """experiments/experiments.json (`inductor-prof try`): the advice tried and a record per experiment (name,
    status, what it answers)."""
    data = json_object(path)
    records = data.get("experiments")
    if not isinstance(records, list) or not all(isinstance(r, dict) and isinstance(r.get("name"), str)
                                                and isinstance(r.get("status"), str) for r in records):
        raise Damaged("'experiments' should be a list of records each with its 'name' and 'status'")
    if not all(isinstance(r.get("answers", []), list) for r in records):
        raise Damaged("an experiment's 'answers' should be a list of advice items")
    return data


_RECORDED_NUMBERS = ("launches", "priced", *launch_record.WORK_KEYS)


def recorded_launches_file(path: Path) -> dict[str, Any]:
    """proton/recorded_launches.json (a CUDA-graphs run, inductor/launch_record.py): per step recorded before the
    graphs replayed, each kernel's launches and summed work."""
    data = json_object(path)
    if data.get("format") != launch_record.FORMAT:
        raise Damaged(f"'format' should be {launch_record.FORMAT!r}")
    steps = data.get("steps")
    if not isinstance(steps, list) or not all(isinstance(s, dict) and isinstance(s.get("kernels"), dict)
                                              for s in steps):
        raise Damaged("'steps' should be a list of steps each with its 'kernels'")
    for s in steps:
        if s.get("size") is not None and not isinstance(s["size"], str):
            raise Damaged("a step's 'size' should be a string or null")
        for name, k in s["kernels"].items():
            ok = isinstance(k, dict) and all(isinstance(k.get(n), (int, float)) and not isinstance(k.get(n), bool)
                                             and k[n] >= 0 for n in _RECORDED_NUMBERS)
            if not ok:
                raise Damaged(f"kernel {name!r} of step {s.get('index')} should have non-negative "
                              f"{', '.join(_RECORDED_NUMBERS)}")
    return data
