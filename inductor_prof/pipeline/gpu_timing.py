"""How the ceilings stage (and its template process) times a GPU call: the median of triton.testing.do_bench,
with the calls back to back where a model runs them so."""
from __future__ import annotations

BACK_TO_BACK = 10          # GEMM calls per timing, one after the other as in a model step


def bench_ms(fn, calls: int = 1) -> float:
    """Median ms of one call of fn; with calls > 1, fn runs that many times back to back per timing (no cache
    flush or idle gap between them, as inside a model step) and the time is divided among them."""
    from triton.testing import do_bench

    if calls == 1:
        return do_bench(fn, warmup=50, rep=200, return_mode="median")

    def repeated():
        for _ in range(calls):
            fn()
    return do_bench(repeated, warmup=20, rep=200, return_mode="median") / calls
