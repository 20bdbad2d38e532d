"""Median device time of a call: CUDA events around each run, L2 flushed before each, repeats sized to a budget.

Like triton.testing.do_bench (which also zeroes a 256 MB buffer between runs), plus a GPU sleep queued before
the start event so host launch overhead stays out of device time, and with a minimum of runs
instead of a fixed 5-run estimate first, so a slow backend (numba's scalar kernel) costs a few runs, not 100.
"""
from __future__ import annotations

import statistics
from functools import lru_cache

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


def time_configs(run, configs, bench=None) -> tuple[list[dict], object | None]:
    """Times run(config) for each config (a failure is recorded, not raised: out of shared memory or registers
    for this tile, try the next). Returns one row per config and the fastest config (None if all failed)."""
    bench = bench or (lambda fn: time_ms(fn, rep_ms=40))
    rows = []
    for cfg in configs:
        try:
            rows.append({"config": cfg, "ms": bench(lambda: run(cfg)), "error": ""})
        except Exception as e:
            rows.append({"config": cfg, "ms": float("nan"), "error": f"{type(e).__name__}: {e}"[:200]})
    ok = [r for r in rows if r["ms"] == r["ms"]]
    return rows, (min(ok, key=lambda r: r["ms"])["config"] if ok else None)


def tune_forward(forward, configs, label, q, k, v, scale, bench=None) -> tuple[list[dict], object | None]:
    """An own kernel's `forward(q, k, v, scale, config)` timed at each config: (a row per config with its
    label, failures recorded not raised; the fastest config or None)."""
    rows, best = time_configs(lambda cfg: forward(q, k, v, scale, cfg), configs, bench)
    return [{**r, "config": label(r["config"])} for r in rows], best


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
