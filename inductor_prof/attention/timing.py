"""Median device time of a call: CUDA events around each run, L2 flushed before each, repeats sized to a budget.

Like triton.testing.do_bench (which also zeroes a 256 MB buffer between runs), plus a GPU sleep queued before
the start event so host launch overhead stays out of device time, and with a minimum of runs
instead of a fixed 5-run estimate first, so a slow backend (numba's scalar kernel) costs a few runs, not 100.
"""
from __future__ import annotations

import contextlib
import io
import os
import statistics
import sys
import tempfile
from functools import lru_cache
from typing import Any

L2_FLUSH_BYTES = 256 << 20
SLEEP_CYCLES = 1_000_000  # ~0.5 ms at H100 clocks


@lru_cache(maxsize=1)
def _flush_buffer():
    import torch

    return torch.empty(L2_FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")


def time_ms(fn, rep_ms: float = 100.0, min_runs: int = 3, max_runs: int = 200) -> float:
    import torch

    flush = _flush_buffer()
    fn()  # warm-up: compilation, autotuning, handle creation stay out of the numbers
    torch.cuda.synchronize()

    def one() -> float:
        flush.zero_()
        # keep the GPU busy while the host enqueues: Python-side launch work (descriptors, dispatch) must
        # not fall inside the timed region, which measures device time only
        torch.cuda._sleep(SLEEP_CYCLES)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    times = [one()]
    runs = int(min(max_runs, max(min_runs, rep_ms / max(times[0], 1e-3))))
    times += [one() for _ in range(runs - 1)]
    return statistics.median(times)


@contextlib.contextmanager
def _captured(fd: int, name: str):
    """Everything written to file descriptor `fd` and to Python's sys.<name> inside, into the yielded list's one
    string, instead of the terminal."""
    getattr(sys, name).flush()
    saved = os.dup(fd)
    out: list[str] = []
    redirect = contextlib.redirect_stderr if name == "stderr" else contextlib.redirect_stdout
    with tempfile.TemporaryFile() as f, redirect(io.StringIO()) as py:
        os.dup2(f.fileno(), fd)
        try:
            yield out
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            f.seek(0)
            out.append(py.getvalue() + f.read().decode(errors="replace"))


def captured_stderr():
    """Everything written to stderr inside (Python's sys.stderr and file descriptor 2, where ptxas, MLIR and
    nvcc diagnostics go) into the yielded list's one string, instead of the terminal."""
    return _captured(2, "stderr")


@contextlib.contextmanager
def captured_output():
    """Both streams of a compile kept off the terminal: (stdout, stderr) as two one-string lists. Triton prints
    a failed ptxas run's whole PTX (over 100 KB) to stdout with print(), MLIR its crash reproducer to fd 2."""
    with _captured(1, "stdout") as out, _captured(2, "stderr") as err:
        yield out, err


def _first_error_line(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return next((ln for ln in lines if "error" in ln.lower()), lines[-1] if lines else "")


def failure_line(e: BaseException, stdout: str = "", stderr: str = "") -> str:
    """A failed config in one line: the exception's first line (200 characters at most), then in brackets the
    first line naming an error that it does not already say, from the rest of its message, then stderr, then
    stdout (stderr's last line where none names one)."""
    message = f"{type(e).__name__}: {e}".strip().splitlines() or [type(e).__name__]
    head = message[0][:200]
    for where, text in (("", "\n".join(message[1:])), ("stderr: ", stderr), ("stdout: ", stdout)):
        lines = [ln.strip() for ln in text.splitlines() if "error" in ln.lower() and ln.strip() not in head]
        if lines:
            return f"{head} [{where}{lines[0][:200]}]"
    last = _first_error_line(stderr)
    return f"{head} [stderr: {last[:200]}]" if last else head


def kernel_spills(kernel) -> int:
    """Bytes of local memory per thread of a compiled Triton/Gluon kernel: its spilled registers (Triton's n_spills
    is that size / 4); 0 where it does not say (the interpreter)."""
    return 4 * int(getattr(kernel, "n_spills", 0) or 0)


def compile_workers() -> int:
    """Threads that compile an own kernel's tile configs at once: one a core, at most 16; one under
    TRITON_INTERPRET (nothing to compile, and the interpreter patches triton.language for the call it runs)."""
    if os.environ.get("TRITON_INTERPRET") == "1":
        return 1
    return max(1, min(16, os.cpu_count() or 1))


def compile_in_parallel(run, configs, workers: int) -> None:
    """run(config) for every config at once in `workers` threads, their output kept off the terminal and their
    failures dropped, so that the timing loop finds each kernel compiled; a config that failed fails again there,
    alone, with its own output for its row. Most of a Hopper kernel's compile is ptxas, a child process, so
    threads overlap it (Inductor's select_algorithm precompiles its choices in threads likewise)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(cfg) -> None:
        try:
            run(cfg)
        except Exception:  # noqa: BLE001  (said by the timing loop, which runs it again)
            pass
    with captured_output(), ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, configs))


def time_configs(run, configs, bench=None, spills=None, parallel: int = 1) -> tuple[list[dict], object | None]:
    """Times run(config) for each config. A failure (out of shared memory or registers, a compile error) is
    recorded with what the compiler printed, not raised or printed; a config whose kernel spills registers
    (spills(run(config)): bytes of local memory per thread, > 0) is recorded and not timed, so never chosen.
    `parallel` > 1: the configs compiled first, that many at once (compile_in_parallel). Returns one row per
    config and the fastest config (None if none ran)."""
    bench = bench or (lambda fn: time_ms(fn, rep_ms=40))
    configs = list(configs)
    if parallel > 1 and len(configs) > 1:
        compile_in_parallel(run, configs, min(parallel, len(configs)))
    rows = []
    for cfg in configs:
        ms, error = float("nan"), ""
        with captured_output() as (out, err):   # the compiler's output: one line in the row, none in the terminal
            try:
                first = run(cfg)  # compiles
                n = spills(first) if spills else 0
                if n:
                    error = f"spills registers ({n} bytes of local memory per thread): not timed"
                else:
                    ms = bench(lambda: run(cfg))
            except Exception as e:
                failure: Exception | None = e
            else:
                failure = None
        if failure is not None:
            error = failure_line(failure, out[0], err[0])
        rows.append({"config": cfg, "ms": ms, "error": error})
    ok = [r for r in rows if r["ms"] == r["ms"]]
    return rows, (min(ok, key=lambda r: r["ms"])["config"] if ok else None)


def tune_forward(run, configs, label, bench=None, spills=None, known: dict | None = None, parallel: int = 1,
                 compile_only: bool = False) -> tuple[list[dict], Any]:
    """An own kernel's run(config) timed at each config: (a row per config with its label and its source, "tuned"
    or "cache"; failures and spilling configs recorded not raised; the fastest config or None).
    known: what the tuning cache remembers at this key (tuning_cache.entry): where its best is among `configs`,
    nothing is run and that config is returned; else the configs it says failed are not tried again.
    parallel: as time_configs. compile_only: the configs that tuning would time are compiled, nothing is run
    (run(config, True) compiles only) and nothing is returned: ([], None)."""
    configs, known = list(configs), known or {}
    failed = {c: known["failed"][label(c)] for c in configs if label(c) in known.get("failed", {})}
    cached = next((c for c in configs if known.get("best") is not None and label(c) == known["best"]), None)
    if compile_only:
        todo = [cached] if cached is not None else [c for c in configs if c not in failed]
        compile_in_parallel(lambda c: run(c, True), todo, max(1, min(parallel, len(todo))))
        return [], None
    remembered = {c: {"config": label(c), "ms": float("nan"), "error": e, "source": "cache"} for c, e in failed.items()}
    if cached is not None:
        ms = known.get("ms")
        remembered[cached] = {"config": label(cached), "ms": float("nan") if ms is None else float(ms), "error": "",
                              "source": "cache"}
        return [remembered[c] for c in configs if c in remembered], cached
    rows, best = time_configs(run, [c for c in configs if c not in failed], bench, spills, parallel)
    tuned = {r["config"]: {**r, "config": label(r["config"]), "source": "tuned"} for r in rows}
    return [remembered[c] if c in remembered else tuned[c] for c in configs], best


def warm_gpu(seconds: float = 1.0) -> None:
    """Matmuls for about `seconds`: an idle GPU sits at low clocks and the first timings would pay the ramp."""
    import time

    import torch

    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for _ in range(10):
            a @ a
        torch.cuda.synchronize()
