"""Python's cycle collector paused while `report` does its work: it reads a run and exits, allocating hundreds of
thousands of objects (modules, launch rows, kernel records) that live until it ends, and the collector traversed
them again and again. Paused, a report took about 0.05 s less CPU in its imports and 0.03 s less in its work on a
2,052-kernel run (scripts/bench_report.py's synthetic run, 2026-11-28, medians of 5 on a loaded 2-core machine), at
the same peak memory (164 MB either way: what a report frees, reference counting frees)."""
from __future__ import annotations

import functools
import gc
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def paused(fn: F) -> F:
    """fn with the cycle collector off while it runs, on again after (if it was), however fn ends: a test calling
    the command in its own process gets its collector back."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()
    return wrapper  # type: ignore[return-value]
