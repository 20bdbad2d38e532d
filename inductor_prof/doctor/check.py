"""One row of `doctor`: what was checked, how it went, what was found, and what to do about it."""
from __future__ import annotations

from dataclasses import dataclass

OK, WARN, FAIL, SKIP = "ok", "warn", "fail", "skip"


@dataclass(frozen=True)
class Check:
    name: str
    status: str       # ok; warn: works, with a limit; fail: `profile --ncu` would fail; skip: could not be checked
    detail: str       # what was found
    remedy: str = ""  # what to do, when not ok
