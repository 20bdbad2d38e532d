"""attention/timing.py's tuning loop: the configs timed, their errors cut to one line, spills read from the
compiled kernel, on stand-in kernels with fixed times (pinned where a mutation audit found it unpinned)."""
import math
import sys
import types
from inductor_prof.attention import timing


# ---- timing.py ----

def test_failure_line_falls_back_to_stderrs_error_line_then_its_last_line():
    boom = RuntimeError("boom")
    # no line naming an error the message does not already say: stderr's first line naming one (any case), even
    # one the message says, else its last line, else nothing
    said = RuntimeError("ptxas ERROR: too many resources")
    assert timing.failure_line(said, stderr="warning: a\n  ptxas ERROR: too many resources  \nlast\n") == \
        "RuntimeError: ptxas ERROR: too many resources [stderr: ptxas ERROR: too many resources]"
    assert timing.failure_line(boom, stderr="one\ntwo\nthree\n\n") == "RuntimeError: boom [stderr: three]"
    assert timing.failure_line(boom, stderr=" \n") == "RuntimeError: boom"
    assert timing.failure_line(boom) == "RuntimeError: boom"
    # a line naming an error the message does not say: that one, from the message's other lines first
    assert timing.failure_line(RuntimeError("boom\nnote\nerror: in the message"), stderr="error: on stderr") == \
        "RuntimeError: boom [error: in the message]"
    assert timing.failure_line(boom, stdout="x\nError: printed", stderr="plain") == \
        "RuntimeError: boom [stdout: Error: printed]"


def test_kernel_spills_is_bytes_per_thread():
    # Triton's n_spills counts 4-byte registers
    assert timing.kernel_spills(types.SimpleNamespace(n_spills=3)) == 12
    assert timing.kernel_spills(types.SimpleNamespace(n_spills=None)) == 0
    assert timing.kernel_spills(object()) == 0


def test_time_configs_cuts_the_error_and_the_compilers_line_to_200_characters():
    def run(cfg):
        print("error: " + "e" * 300, file=sys.stderr)
        raise RuntimeError("m" * 300)
    rows, best = timing.time_configs(run, ["x"], bench=lambda fn: fn())
    # "RuntimeError: " is 14 characters: 186 of the message fill 200; "error: " is 7: 193 of the line
    assert rows[0]["error"] == "RuntimeError: " + "m" * 186 + " [stderr: error: " + "e" * 193 + "]"
    assert best is None and math.isnan(rows[0]["ms"])


def test_time_configs_adds_no_stderr_to_a_config_that_ran_or_spilled():
    def run(cfg):
        print(f"warning from {cfg}", file=sys.stderr)
        return cfg
    rows, best = timing.time_configs(run, [0, 2], bench=lambda fn: 5.0, spills=lambda n: n)
    assert rows == [{"config": 0, "ms": 5.0, "error": ""},
                    {"config": 2, "ms": rows[1]["ms"],
                     "error": "spills registers (2 bytes of local memory per thread): not timed"}]
    assert math.isnan(rows[1]["ms"]) and best == 0


def test_time_configs_times_with_a_40_ms_budget_by_default(monkeypatch):
    seen = []
    monkeypatch.setattr(timing, "time_ms", lambda fn, **kw: (seen.append((fn(), kw)), 1.5)[1])
    rows, best = timing.time_configs(lambda cfg: cfg * 10, [7])
    assert seen == [(70, {"rep_ms": 40})] and rows[0]["ms"] == 1.5 and best == 7


def test_tune_forward_labels_the_rows_and_returns_the_config_itself():
    times = {1: 2.0, 2: 1.0}
    rows, best = timing.tune_forward(lambda c: times[c], [1, 2], lambda c: f"cfg{c}", bench=lambda fn: fn())
    assert [(r["config"], r["ms"]) for r in rows] == [("cfg1", 2.0), ("cfg2", 1.0)] and best == 2


def test_configs_compiled_at_once_then_timed_alone(capfd):
    import threading

    # 3 configs: each one's first call waits until all 3 first calls run together (a barrier of 3: passes only if
    # they run at once, in threads); "bad" fails both times, printing as a compiler would
    barrier, first = threading.Barrier(3, timeout=30), set()
    calls: list[str] = []
    lock = threading.Lock()

    def run(cfg):
        with lock:
            calls.append(cfg)
            is_first = cfg not in first
            first.add(cfg)
        if is_first:
            barrier.wait()
        if cfg == "bad":
            print("ptxas fatal error: out of registers")
            raise RuntimeError("PTXAS error: bad config")
        return {"fast": 1.0, "slow": 3.0}[cfg]

    rows, best = timing.time_configs(run, ["slow", "bad", "fast"], bench=lambda fn: fn(), parallel=8)
    assert best == "fast" and [r["ms"] for r in rows][::2] == [3.0, 1.0]
    assert rows[1]["error"] == "RuntimeError: PTXAS error: bad config [stdout: ptxas fatal error: out of registers]"
    # each config once in the parallel pass; then "slow" and "fast" run for their spills check and their timing
    # (the bench calls fn once here), "bad" once more for its own output: 3 + 2 + 2 + 1 = 8
    assert sorted(calls) == sorted(["slow", "bad", "fast", "slow", "slow", "bad", "fast", "fast"])
    assert capfd.readouterr() == ("", "")      # nothing of the compilers on the terminal


def test_compile_workers_one_under_the_interpreter(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert timing.compile_workers() == 1
    monkeypatch.delenv("TRITON_INTERPRET")
    monkeypatch.setattr(timing.os, "cpu_count", lambda: 64)
    assert timing.compile_workers() == 16
    monkeypatch.setattr(timing.os, "cpu_count", lambda: None)
    assert timing.compile_workers() == 1


def test_compile_only_compiles_what_tuning_would_time_and_runs_nothing():
    calls = []

    def run(cfg, only=False):
        calls.append((cfg, only))
    # nothing known: every config, compile-only; a remembered failure is not compiled again
    assert timing.tune_forward(run, ["a", "b", "c"], str, known={"failed": {"b": "out of shared memory"}},
                               parallel=2, compile_only=True) == ([], None)
    assert sorted(calls) == [("a", True), ("c", True)]
    calls.clear()   # the cache's best: the stage times that one alone, so only it is compiled
    timing.tune_forward(run, ["a", "b", "c"], str, known={"best": "c", "ms": 1.0}, compile_only=True)
    assert calls == [("c", True)]


def test_a_launcher_runs_the_kernel_or_compiles_it_only_at_the_same_grid():
    from inductor_prof.attention.kernels.launching import launcher

    class Kernel:
        def __getitem__(self, grid):
            return lambda *a, **kw: ("ran", grid, a, kw)

        def warmup(self, *a, grid, **kw):
            return ("compiled", grid, a, kw)
    assert launcher(Kernel(), (4, 2), False)(1, X=2) == ("ran", (4, 2), (1,), {"X": 2})
    assert launcher(Kernel(), (4, 2), True)(1, X=2) == ("compiled", (4, 2), (1,), {"X": 2})
