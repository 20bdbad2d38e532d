"""Work that runs beside a measurement, at a lower CPU priority: the attention stage's own kernels compiled while
ncu profiles the model's. Their ptxas runs (14.6 s, 16 at once) took cores ncu's processes wanted: at the same
priority a first run's ncu stage took 28.8 s, at nice 10 25.8 s (start-up 4.5 -> 3.4 s, loading 4.4 -> 3.6,
profiling 18.4 -> 17.3; full FLUX, one H100 machine, 2026-11-25).

The work runs in a thread of its own whose nice value is raised. Linux keeps a nice value per thread, and a
thread or child process inherits its creator's, so the compiler processes the work starts run at that priority
too; the calling thread keeps its own (an unprivileged process could not lower it back). Elsewhere the work runs
at the ordinary priority."""
from __future__ import annotations

import os
import threading
from typing import Callable, TypeVar

T = TypeVar("T")
BESIDE_A_MEASUREMENT = 10   # nice value: the idle cores' work, not the measurement's


def at_lower_priority(work: Callable[[], T], nice: int = BESIDE_A_MEASUREMENT) -> T:
    """work() in a new thread at nice value `nice` (or its current one, where that is already higher); its result,
    or its exception raised here."""
    outcome: dict[str, object] = {}

    def body() -> None:
        try:
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, max(nice, os.getpriority(os.PRIO_PROCESS, tid)))
        except (AttributeError, OSError):   # no per-thread priority here: the ordinary one
            pass
        try:
            outcome["value"] = work()
        except BaseException as e:  # noqa: BLE001  (raised again in the caller's thread)
            outcome["error"] = e

    thread = threading.Thread(target=body, name="lower-priority", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]   # type: ignore[misc]
    return outcome["value"]   # type: ignore[return-value]
