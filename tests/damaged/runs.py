"""Copies of a recorded run for damage tests, and the damages themselves (each a function of a file's bytes)."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

from recorded import REPO

RUN = REPO / "examples" / "runs" / "llama-h100"   # the smallest shipped run with every kind of file


_NEVER_READ = shutil.ignore_patterns("*.ncu-rep", "torch_trace*.json.gz", "*.log")


def copy_run(dest: Path) -> Path:
    """RUN copied to `dest`, without what `report` never reads (ncu reports, the torch trace)."""
    shutil.copytree(RUN, dest, ignore=_NEVER_READ)
    return dest


def linked_run(dest: Path) -> Path:
    """copy_run's files as hard links to RUN's (a copy where the two folders are on different file systems): 2 ms
    against 28 for a copy, and the damage tables make about 190. A test changes a file only through `rewrite`,
    which puts a file of its own in the link's place; `report` and `diff` never write into a run (conftest.py
    checks RUN's bytes after each module)."""
    shutil.copytree(RUN, dest, ignore=_NEVER_READ, copy_function=_link)
    return dest


def _link(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def rewrite(path: Path, data: bytes) -> None:
    """`path` holds `data`, in a file of its own: a linked file's other name (RUN's) keeps its bytes."""
    path.unlink()
    path.write_bytes(data)


def digests(folder: Path) -> dict[str, str]:
    """Each file under `folder` by its SHA-256: what the damage tables check RUN still holds after them."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def numbers(doc: dict) -> dict:
    """What a report's JSON says of the run, without where the copy lies."""
    return {k: v for k, v in doc.items() if k not in ("run", "warnings", "path")}


_NUMBER = re.compile(rb'(?<=[:,\n])(\s*)(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=[,\n}\]])')


def _half(data: bytes) -> int:
    return max(len(data) // 2, 1)


def cut_line_end(data: bytes) -> bytes:
    at = data.rfind(b"\n", 0, _half(data))
    return data[:at + 1] if at > 0 else data[:_half(data)]


def cut_mid_line(data: bytes) -> bytes:
    at = data.rfind(b"\n", 0, _half(data))
    return data[:at + 1 + max((data.find(b"\n", at + 1) - at) // 2, 1)] if at > 0 else data[:_half(data) - 3]


def emptied(data: bytes) -> bytes:
    return b""


def garbage(data: bytes) -> bytes:
    return bytes(range(256)) * 4


def _nth_number(data: bytes, replace: bytes, skip_header: bool) -> bytes:
    """The first number after the first line (a CSV's header; a JSON's opening) replaced by `replace`; a file
    with no such number is returned as it is."""
    start = data.find(b"\n") + 1 if skip_header else 0
    m = _NUMBER.search(data, start)
    return data if m is None else data[:m.start(2)] + replace + data[m.end(2):]


def cell(replace: bytes):
    def damage(data: bytes) -> bytes:
        return _nth_number(data, replace, True)
    damage.__name__ = f"cell_{replace.decode().strip(chr(34)).lower() or 'blank'}"
    return damage


def negative(data: bytes) -> bytes:
    start = data.find(b"\n") + 1
    m = _NUMBER.search(data, start)
    return data if m is None else data[:m.start(2)] + b"-" + data[m.start(2):]


DAMAGES = (cut_line_end, cut_mid_line, emptied, garbage, cell(b"abc"), cell(b'"abc"'), cell(b"NaN"), cell(b"inf"),
           cell(b"Infinity"), negative)
