"""Copies of a recorded run for damage tests, and the damages themselves (each a function of a file's bytes)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from recorded import REPO

RUN = REPO / "examples" / "runs" / "llama-h100"   # the smallest shipped run with every kind of file


def copy_run(dest: Path) -> Path:
    """RUN copied to `dest`, without what `report` never reads (ncu reports, the torch trace)."""
    shutil.copytree(RUN, dest, ignore=shutil.ignore_patterns("*.ncu-rep", "torch_trace*.json.gz", "*.log"))
    return dest


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
