"""Whether a run file is the one its stage wrote: the manifest records each file written through rundir's atomic
writers (size, lines, SHA-256; rundir.file_record). A file that differs was changed since, or copied in from
elsewhere: the report says so and does without it. Runs recorded before (no `files` in their manifest), and
files no record names, are read as they are."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from ..rundir import FILES, RunDir


def changed(run: RunDir, manifest: dict[str, Any], path: Path) -> str | None:
    """`<path> changed since the run was recorded (...)`, or None: as recorded, or nothing recorded of it."""
    files = manifest.get(FILES)
    if not isinstance(files, dict):
        return None
    try:
        record = files.get(Path(path).relative_to(run.root).as_posix())
    except ValueError:   # not inside the run
        return None
    if not isinstance(record, dict):
        return None
    try:
        data = Path(path).read_bytes()
    except OSError:   # reading it says why
        return None
    if len(data) == record.get("bytes") and hashlib.sha256(data).hexdigest() == record.get("sha256"):
        return None
    lines = data.count(b"\n")
    return (f"{path} changed since the run was recorded ({len(data):,} bytes, {lines:,} lines; the run wrote "
            f"{record.get('bytes', 0):,} bytes, {record.get('lines', 0):,} lines)")
