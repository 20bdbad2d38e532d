"""The memory guard for backends that hold the whole score matrix (SDPA math): the message worked by hand, the
host's MemAvailable read from a /proc/meminfo-like file, and the bench listing such a backend with the reason
instead of running it (and still running the others)."""
from inductor_prof.attention.benchmark import memory, registry
from inductor_prof.attention.benchmark.bench import BenchOptions, BenchResult, bench_shape
from inductor_prof.attention.semantics.shapes import Shape


def test_too_big_by_hand():
    # 24 heads x 16384^2 scores x 12 B = 77,309,411,328 B = 72.0 GiB; 20 GiB free
    n = 24 * 16384 * 16384
    assert memory.too_big(12, n, 20 * 2**30) == "holds the whole score matrix: needs ~72.0 GiB, 20.0 GiB free"
    assert memory.too_big(12, n, 72 * 2**30) == ""          # exactly what it needs: runs
    assert memory.too_big(12, n, 72 * 2**30 - 1) != ""
    assert memory.too_big(0, n, 1) == ""                     # a fused backend never holds them all
    assert memory.too_big(12, n, None) == ""                 # free memory unknown: nothing refused


def test_free_bytes_reads_mem_available(tmp_path, monkeypatch):
    f = tmp_path / "meminfo"
    f.write_text("MemTotal:       24000000 kB\nMemFree:         1000 kB\nMemAvailable:   22000000 kB\n")
    monkeypatch.setattr(memory, "MEMINFO", f)
    assert memory.free_bytes("cpu") == 22_000_000 * 1024     # kB, not the MemFree line
    f.write_text("MemTotal: 5 kB\n")
    assert memory.free_bytes("cpu") is None
    monkeypatch.setattr(memory, "MEMINFO", tmp_path / "missing")
    assert memory.free_bytes("cpu") is None


def test_math_backend_holds_the_scores():
    math_b, blocked = registry.backends(["sdpa_math", "torch_blocked"])
    assert math_b.score_bytes == registry.MATH_SCORE_BYTES == 12 and blocked.score_bytes == 0


def test_bench_lists_a_backend_too_big_for_free_memory(monkeypatch):
    timer = lambda fn, rep_ms=100.0: (fn(), 2.0)[1]
    # (1,2,64,16): 2 x 64 x 64 = 8192 scores x 12 B = 98,304 B; 1000 B free
    monkeypatch.setattr(memory, "free_bytes", lambda device: 1000)
    rows = {r["backend"]: r for r in bench_shape(Shape(1, 2, 64, 64, 16), 1, "",
                                                 registry.backends(["sdpa_math", "torch_blocked"]),
                                                 BenchOptions(timer=timer, device="cpu", tune=False), BenchResult())}
    assert not rows["sdpa_math"]["available"]
    assert rows["sdpa_math"]["reason"].startswith("holds the whole score matrix: needs ~")   # text: by hand above
    assert rows["torch_blocked"]["ok"]
    monkeypatch.setattr(memory, "free_bytes", lambda device: 98_304)   # just enough
    rows = bench_shape(Shape(1, 2, 64, 64, 16), 1, "", registry.backends(["sdpa_math"]),
                       BenchOptions(timer=timer, device="cpu", tune=False), BenchResult())
    assert rows[0]["ok"]


def test_bench_lists_a_shape_too_large_to_allocate():
    # 2**40 query rows of 64: torch cannot size the storage; every row says why, nothing raises
    rows = bench_shape(Shape(1, 1, 2**40, 2**40, 64), 1, "", registry.backends(["torch_blocked"]),
                       BenchOptions(device="cpu", tune=False), BenchResult())
    assert not rows[0]["available"] and rows[0]["reason"].startswith("inputs or float64 reference: ")


def test_bench_counts_each_checked_backends_seconds_only(monkeypatch):
    # where the attention stage's time goes: a backend checked (and tuned) gets its wall seconds; one left out
    # before its check (too big for free memory) gets none
    timer = lambda fn, rep_ms=100.0: (fn(), 2.0)[1]
    monkeypatch.setattr(memory, "free_bytes", lambda device: 1000)
    result = BenchResult()
    bench_shape(Shape(1, 2, 64, 64, 16), 1, "", registry.backends(["sdpa_math", "torch_blocked"]),
                BenchOptions(timer=timer, device="cpu", tune=False), result)
    assert list(result.seconds) == ["torch_blocked"] and result.seconds["torch_blocked"] > 0
    first = result.seconds["torch_blocked"]
    bench_shape(Shape(1, 2, 32, 32, 16), 1, "", registry.backends(["torch_blocked"]),
                BenchOptions(timer=timer, device="cpu", tune=False), result)
    assert result.seconds["torch_blocked"] > first      # summed over shapes
