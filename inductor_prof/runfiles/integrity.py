"""Whether a run file is the one its stage wrote: the manifest records each file the run wrote (size, lines,
SHA-256; rundir.file_record), and the files whose format allows carry the run's id (rundir.STAMPED_CSV/_JSON).
A file holding another run's id is from another run; one with the run's own id, or none, that differs from its
record was changed since. The report says which and does without it. Runs recorded before (no `files` and no
`run_id` in their manifest), and files neither a record nor an id speaks for, are read as they are."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any, Iterable

from ..rundir import FILES, RUN_ID, Manifest, RunDir, file_record, sha256_of

_JSON_ID = re.compile(rb'\s*\{\s*"run_id"\s*:\s*"([^"\\]*)"')   # rundir.stamped writes it as the first field


def run_ids(path: Path, data: bytes) -> set[str]:
    """The run ids a run file carries: a CSV's `run_id` column (each row's), a JSON object's first field; none
    for other files, or a file without them."""
    if path.suffix == ".csv":
        try:
            rows = csv.DictReader(io.StringIO(data.decode("utf-8", errors="replace")))
            if rows.fieldnames is None or RUN_ID not in rows.fieldnames:
                return set()
            return {row[RUN_ID] for row in rows if row.get(RUN_ID)}
        except csv.Error:   # not a CSV: the file's own reader says why
            return set()
    if path.suffix == ".json":
        m = _JSON_ID.match(data)
        return {m.group(1).decode("utf-8", errors="replace")} if m else set()
    return set()


def _as_recorded(path: Path, record: dict[str, Any]) -> bool:
    """Whether the file has its record's size and SHA-256: the size first (a stat), then the hash a MiB at a time.
    A 2,000-kernel run's steps.hatchet is 164 MB, which the report does not parse where its launches table is
    read: read whole, it was 164 MB of memory and 0.2 s for each report; hashed as it is read, 0.12 s."""
    if path.stat().st_size != record.get("bytes"):
        return False
    return sha256_of(path) == record.get("sha256")


def changed(run: RunDir, manifest: dict[str, Any], path: Path) -> str | None:
    """`<path> is from another run (...)` when it carries another run's id, `<path> changed since the run was
    recorded (...)` when it differs from its record, or None: as recorded, or nothing recorded of it."""
    files, own = manifest.get(FILES), manifest.get(RUN_ID)
    if not isinstance(files, dict) and not isinstance(own, str):   # recorded before records and ids
        return None
    try:
        rel = Path(path).relative_to(run.root).as_posix()
    except ValueError:   # not inside the run
        return None
    record = files.get(rel) if isinstance(files, dict) else None
    if not isinstance(record, dict):
        record = None
    if record is None and not isinstance(own, str):
        return None
    try:
        if record is not None and _as_recorded(Path(path), record):
            return None
        data = Path(path).read_bytes()
    except OSError:   # reading it says why
        return None
    ids = run_ids(Path(path), data) if isinstance(own, str) else set()
    others = sorted(ids - {own})
    if others:   # some rows its own: rows of another run appended to it
        rows = " holds rows" if own in ids else " is"
        return (f"{path}{rows} from another run (run id {', '.join(others[:2])}"
                f"{' and more' if len(others) > 2 else ''}; this run's is {own})")
    if record is None:
        return None
    lines = data.count(b"\n")
    return (f"{path} changed since the run was recorded ({len(data):,} bytes, {lines:,} lines; the run wrote "
            f"{record.get('bytes', 0):,} bytes, {record.get('lines', 0):,} lines)")


def record(manifest: Manifest, paths: Iterable[Path]) -> list[str]:
    """Records in the manifest the files a stage wrote that its process's live Manifest did not see (a stage's own
    process, Proton, ncu), once the stage has ended: those of `paths` that are files. Returns them, relative."""
    root = Path(manifest.run.root).absolute()
    done = []
    for path in paths:
        path = Path(path).absolute()
        if path.is_file() and path != manifest.run.manifest_path.absolute():
            rel = path.relative_to(root).as_posix()
            manifest.data.setdefault(FILES, {})[rel] = file_record(path)
            done.append(rel)
    if done:
        manifest.save()
    return done
