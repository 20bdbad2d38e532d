"""One ncu process over a batch of kernels, and what its outcome means for each kernel.

Costs are bounded per kernel: the replay worker says each kernel it finishes loading and profiling (a step
event, replay.py), and ncu is ended when none came for the per-kernel timeout. A failed or hung batch then
costs its in-flight kernel alone: that kernel gets the failure, the others go back to be profiled again
(their results died with the process: ncu writes the report at the end). So a hang costs about one timeout
per hanging kernel, a crash one process per crashing kernel, and a batch is never retried kernel by kernel.
"""
from __future__ import annotations

import hashlib
import os
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ... import rundir
from ...settings import Settings
from . import command
from .replay import in_flight, phases, skipped
from .report import parse_reports


@dataclass
class NcuTarget:
    name: str           # kernel name as CUPTI reports it (mangled for C++ kernels)
    stem: str           # file stem for spec/report/log
    origin: str
    spec: dict


@dataclass
class BatchOutcome:
    settled: dict[str, dict] = field(default_factory=dict)   # stem -> its status.json entry
    again: list[NcuTarget] = field(default_factory=list)     # to profile again, in a batch of their own
    failure: str = ""     # how the process failed (command.NcuResult.kind); "" when its report was usable
    phases: dict[str, float] = field(default_factory=dict)   # where its seconds went (replay.phases, "reading")


def batches(todo: list[NcuTarget], size: int) -> list[list[NcuTarget]]:
    """Batches of at most `size` kernels, in the order given. Inductor and library kernels share a process: the
    replay program loads either kind, and the kernel filter names Triton kernels and library kernels alike by
    their mangled names (a Triton kernel's is its own name)."""
    return [todo[i:i + size] for i in range(0, len(todo), size)]


def batch_report(batch: list[NcuTarget]) -> str:
    """Report file stem: the kernel's own for one, a content hash for several (stable across resumes)."""
    if len(batch) == 1:
        return batch[0].stem
    digest = hashlib.sha1("\n".join(t.stem for t in batch).encode()).hexdigest()[:10]
    return f"batch-{digest}"


def assign_results(batch: list[NcuTarget], profiled: list[str], events: list[dict]) -> dict[str, tuple[int | None, str]]:
    """stem -> (index of its result in the report, reason if none: why the replay could not load it, from its
    step events). Results come in launch order, which is batch order, so two kernels sharing a name map to their
    own results."""
    used: set[int] = set()
    out: dict[str, tuple[int | None, str]] = {}
    why_skipped = skipped(events)
    for at, t in enumerate(batch):
        idx = next((i for i, n in enumerate(profiled) if n == t.name and i not in used), None)
        if idx is None:
            out[t.stem] = (None, why_skipped.get(at) or "no result for this kernel in the report (not launched?)")
        else:
            used.add(idx)
            out[t.stem] = (idx, "")
    return out


def _entry(t: NcuTarget, status: str, reason: str, seconds: float, report: str, index: int | None,
           size: int) -> dict:
    # a library call names the shape it replays and its time per call in the profiled step
    call = {k: t.spec[k] for k in ("shape", "model_us", "model_bytes", "rank") if k in t.spec}
    return {"name": t.name, "status": status, "reason": reason, "origin": t.origin, "seconds": round(seconds, 2),
            "report": report, "index": index, "batch": size, **call}


@dataclass
class Pass:
    """What a pass of ncu over a batch needs besides the batch: its command line, where its report and log go,
    and how the kernel names of a report's results are read (None: the report cannot be read)."""
    build: Callable[[list[str], Path, list[str], int], list[str]]   # (names, report stem, program, count) -> cmd
    report: Callable[[list[NcuTarget]], Path]
    log: Callable[[Path], Path]                                      # report -> its log
    names: Callable[[Path], list[str] | None]
    spec: Callable[[str], Path]                                      # a kernel's stem -> its replay spec


def metric_pass(run: rundir.RunDir, settings: Settings, ncu: str, env: dict[str, str],
                parsed: dict[str, dict]) -> Pass:
    """The metric pass: reports in RUN/ncu, read with parse_reports into `parsed` (path -> its entry)."""
    def names(report: Path) -> list[str] | None:
        parsed.update(parse_reports([report]))
        return [m["kernel"] for m in parsed[str(report)].get("results", [])]
    return Pass(build=lambda kernels, out, program, count: command.build_cmd(settings, ncu, kernels, out, program,
                                                                            env, count=count),
                report=lambda batch: run.ncu_report(batch_report(batch)),
                log=lambda report: run.ncu_log(report.name.removesuffix(".ncu-rep")), names=names,
                spec=run.ncu_spec)


def run_batch(run: rundir.RunDir, settings: Settings, ncu: str, env: dict[str, str], batch: list[NcuTarget],
              parsed: dict[str, dict], clock: Callable[[], float] = time.monotonic) -> BatchOutcome:
    """One ncu process of the metric pass over `batch`; reports it reads are added to `parsed`. `clock`: what
    its timeout is counted by."""
    return run_pass(run, settings, env, batch, metric_pass(run, settings, ncu, env, parsed), clock)


def run_pass(run: rundir.RunDir, settings: Settings, env: dict[str, str], batch: list[NcuTarget],
             how: Pass, clock: Callable[[], float] = time.monotonic) -> BatchOutcome:
    """One ncu process over `batch`: each kernel settled with the index of its result in the shared report,
    or the failure blamed on the kernel in flight and the others sent again."""
    specs = []
    for t in batch:
        specs.append(how.spec(t.stem))
        rundir.write_json(specs[-1], t.spec)
    report = how.report(batch)
    partial = report.with_name(f".{report.name.removesuffix('.ncu-rep')}.partial.ncu-rep")  # renamed once whole
    cmd = how.build([t.name for t in batch], partial.with_suffix(""), command.python_program(), len(batch))
    log_path = how.log(report)
    started = time.time()
    try:
        result = command.run_one(cmd, specs, env, settings.ncu_timeout, log_path, per_step=True, clock=clock)
        if partial.exists() and result.status != "timeout":
            os.replace(partial, report)
    finally:
        if partial.exists():
            partial.unlink()
    split = phases(result.events, started, time.time())
    # the replay program exits 3 when it skipped a kernel it could not load; the others' results count
    read_from = time.time()
    why_skipped = skipped(result.events)
    names = how.names(report) if report.exists() and (result.status == "ok" or why_skipped) else None
    if names is not None:
        out = BatchOutcome(phases={**split, "reading": time.time() - read_from} if split else {})
        assigned = assign_results(batch, names, result.events)
        for t in batch:
            idx, why = assigned[t.stem]
            out.settled[t.stem] = _entry(t, "ok" if idx is not None else "failed", why,
                                         result.seconds / len(batch), report.name, idx, len(batch))
        return out
    status = result.status if result.status != "ok" else "failed"
    reason = result.reason or ("ncu wrote no report" if not report.exists() else "the report could not be read")
    out = BatchOutcome(failure=result.kind or status, phases=split)
    at = in_flight(result.events, len(batch))
    if at is None:      # every kernel finished its steps: the failure is the process's, not one kernel's
        for i, t in enumerate(batch):
            out.settled[t.stem] = _entry(t, status, why_skipped.get(i) or reason, result.seconds / len(batch), "",
                                         None, len(batch))
        return out
    culprit = batch[at]
    out.settled[culprit.stem] = _entry(culprit, status, reason, result.seconds, "", None, len(batch))
    out.again = [t for t in batch if t is not culprit]
    return out


class FailureStreak:
    """Stops the stage when `limit` ncu processes in a row failed the same way (a broken ncu or driver fails
    every kernel alike: trying the rest would only multiply the cost)."""

    def __init__(self, limit: int = 3):
        self.limit, self.kind, self.count = limit, "", 0

    def add(self, failure: str) -> str:
        """The reason to stop, or ""; `failure` is "" for a process whose report was usable."""
        self.count = self.count + 1 if failure and failure == self.kind else (1 if failure else 0)
        self.kind = failure
        if self.count >= self.limit:
            return f"ncu failed the same way {self.count} times in a row ({failure})"
        return ""


Progress = Callable[[int, int, str], None] | None


def run_queue(todo: list[NcuTarget], size: int, run_one: Callable[[list[NcuTarget]], BatchOutcome],
              settle: Callable[[BatchOutcome, str, list[NcuTarget]], None], on_kernel: Progress = None,
              done_before: int = 0, total: int | None = None, spent: dict[str, float] | None = None) -> str:
    """Both passes' loop: `todo` in batches of `size`, each through `run_one` (one ncu process); the kernels a
    failed process did not reach go again, first; three failures alike in a row stop it (FailureStreak).
    After each batch `settle(outcome, stopped, rest)` records it (`rest`: the kernels not tried, once stopped).
    `on_kernel(done, total, label)` before each batch; `spent`: each phase's seconds (BatchOutcome.phases) added
    up over the processes. Returns why it stopped, or ""."""
    total = len(todo) + done_before if total is None else total
    queue, streak, stopped, settled = deque(batches(todo, size)), FailureStreak(), "", 0
    while queue and not stopped:
        batch = queue.popleft()
        if on_kernel:
            on_kernel(done_before + settled, total,
                      batch[0].name if len(batch) == 1 else f"{len(batch)} kernels: {batch[0].name}, ...")
        outcome = run_one(batch)
        settled += len(outcome.settled)
        for phase, seconds in outcome.phases.items() if spent is not None else ():
            assert spent is not None
            spent[phase] = round(spent.get(phase, 0.0) + seconds, 2)
        if outcome.again:
            queue.appendleft(outcome.again)
        stopped = streak.add(outcome.failure)
        settle(outcome, stopped, [t for b in queue for t in b] if stopped else [])
    return stopped
