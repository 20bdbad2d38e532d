"""The own kernels' tuning cache, through the bench (bench_shape with a TuningCache) on the CPU: a cold key tunes
every config and remembers the best and the failures; a warm key runs no config at all (only the bench's own
timing of the remembered best); a corrupt or foreign file is one warning naming it, then rewritten; a folder that
cannot be written leaves the run going and says so; retune tunes again. The kernel is a stand-in whose configs
have fixed times, run through the real tuning loop (timing.tune_forward), so each count is derived by hand."""
import errno
import json
import os

import pytest

from inductor_prof import rundir
from inductor_prof.attention import timing, tuning_cache
from inductor_prof.attention.benchmark import bench, registry
from inductor_prof.attention.benchmark.bench import BenchOptions, BenchResult
from inductor_prof.attention.kernels import triton_fa
from inductor_prof.attention.semantics.masks import MaskSpec
from inductor_prof.attention.semantics.shapes import Shape

FACTS = {"gpu": "NVIDIA H100 80GB HBM3", "driver": "580.65", "torch": "2.11.0", "triton": "3.6.0",
         "kernels": "0123456789ab"}
SHAPE = Shape(1, 2, 8, 8, 16, "float16")
# the key, written out: kernel | GPU | driver | torch | triton | kernels' source | B,Hq/Hkv,SqxSk,D | dtype | semantics
KEY = ("triton_fa2 | NVIDIA H100 80GB HBM3 | driver 580.65 | torch 2.11.0 | triton 3.6.0 | kernels 0123456789ab | "
       "1,2/2,8x8,16 | float16 | none")
# config -> ms; "b" fails to compile, "d" spills 2 registers (8 bytes a thread)
TIMES = {"a": 3.0, "c": 1.0}
FAIL_B = "RuntimeError: out of resource: shared memory, Required: 262144, Hardware limit: 232448"
SPILL_D = "spills registers (8 bytes of local memory per thread): not timed"


@pytest.fixture
def kernel(monkeypatch):
    """triton_fa.tune replaced by the real loop over four stand-in configs; returns the list of configs run."""
    ran = []

    def tune(q, k, v, scale, causal=False, known=None):
        def run(c):
            ran.append(c)
            if c == "b":
                raise RuntimeError(FAIL_B.split(": ", 1)[1])
            return c
        return timing.tune_forward(run, ["a", "b", "c", "d"], lambda c: f"cfg-{c}", bench=lambda fn: TIMES[fn()],
                                   spills=lambda c: 8 if c == "d" else 0, known=known)
    monkeypatch.setattr(triton_fa, "tune", tune)
    return ran


def _bench(cache):
    """One shape, the own Triton backend (computing as torch_blocked does), timed by a stand-in timer."""
    blocked = registry.backends(["torch_blocked"])[0]
    timed = []

    def fn(q, k, v, scale, config=None, **sem):
        timed.append(config)
        return blocked.fn(q, k, v, scale, **sem)
    own = registry.Backend("triton_fa2", "own", fn, True, supports=registry.ALL)
    result = BenchResult()
    opts = BenchOptions(timer=lambda f, rep_ms: (f(), 0.5)[1], device="cpu", tune=True, cache=cache)
    (row,) = bench.bench_shape(SHAPE, 1, "", [own], opts, result)
    return row, result, timed


def _entries(folder):
    return json.loads((folder / tuning_cache.FILE).read_text())["entries"]


ALL_RUNS = ["a", "a", "b", "c", "c", "d"]
COLD_ENTRY = {"best": "cfg-c", "ms": 1.0, "failed": {"cfg-b": FAIL_B, "cfg-d": SPILL_D}}


def test_the_key_names_the_kernel_machine_versions_shape_dtype_and_semantics(tmp_path):
    cache = tuning_cache.TuningCache(tmp_path, facts=FACTS)
    assert cache.key("triton_fa2", SHAPE) == KEY
    causal_gqa = Shape(2, 32, 2048, 2048, 64, "bfloat16", Hkv=8, mask=MaskSpec("causal"))
    assert cache.key("gluon_fa3", causal_gqa).endswith("| 2,32/8,2048x2048,64 | bfloat16 | causal")


def test_cold_then_warm(tmp_path, kernel):
    cold = tuning_cache.TuningCache(tmp_path, facts=FACTS)
    row, result, timed = _bench(cold)
    # cold: each config run once (its compile), then a and c once more by the tuning's bench (TIMES); b raised,
    # d spilled (not timed)
    assert kernel == ALL_RUNS
    assert row["config"] == "cfg-c" and result.chosen[("triton_fa2", SHAPE.label)] == "c"
    assert [(t["config"], t["source"]) for t in result.tuning] == [("cfg-a", "tuned"), ("cfg-b", "tuned"),
                                                                   ("cfg-c", "tuned"), ("cfg-d", "tuned")]
    assert _entries(tmp_path) == {KEY: COLD_ENTRY}
    assert (cold.hits, cold.misses, cold.warnings, cold.not_written) == ([], [KEY], [], "")
    assert cold.summary() == f"{tmp_path / tuning_cache.FILE}: 0 from the cache, 1 tuned"

    kernel.clear()
    warm = tuning_cache.TuningCache(tmp_path, facts=FACTS)    # a later run: a new process reads the file
    row, result, timed = _bench(warm)
    assert kernel == []                                       # no config compiled or run by the tuning
    assert set(timed[1:]) == {"c"}                            # the bench's own timing: the remembered best
    assert row["config"] == "cfg-c" and row["ms"] == 0.5
    by = {t["config"]: t for t in result.tuning}
    # the record says where each came from: the best with the time it was tuned at, the failures' one line
    assert [(c, t["source"], t["error"]) for c, t in by.items()] == [
        ("cfg-b", "cache", FAIL_B), ("cfg-c", "cache", ""), ("cfg-d", "cache", SPILL_D)]
    assert by["cfg-c"]["ms"] == 1.0
    assert warm.hits == [KEY] and warm.misses == [] and _entries(tmp_path) == {KEY: COLD_ENTRY}


def test_failed_configs_are_not_tried_again_when_the_best_is_not_among_the_candidates(tmp_path, kernel):
    # the file remembers b and d failed and a best no candidate has (say, from a hand edit): only a and c run
    rundir.write_json(tmp_path / tuning_cache.FILE, {"format": tuning_cache.FORMAT, "version": 1, "entries": {
        KEY: {"best": "cfg-gone", "ms": 0.1, "failed": {"cfg-b": FAIL_B, "cfg-d": SPILL_D}}}})
    row, result, _ = _bench(tuning_cache.TuningCache(tmp_path, facts=FACTS))
    assert kernel == ["a", "a", "c", "c"]
    assert [(t["config"], t["source"]) for t in result.tuning] == [("cfg-a", "tuned"), ("cfg-b", "cache"),
                                                                   ("cfg-c", "tuned"), ("cfg-d", "cache")]
    assert _entries(tmp_path) == {KEY: COLD_ENTRY}


def test_retune_tunes_again_and_keeps_other_keys(tmp_path, kernel):
    other = {"best": "x", "ms": 2.0, "failed": {}}
    rundir.write_json(tmp_path / tuning_cache.FILE, {"format": tuning_cache.FORMAT, "version": 1, "entries": {
        KEY: {"best": "cfg-a", "ms": 9.0, "failed": {}}, "another key": other}})
    cache = tuning_cache.TuningCache(tmp_path, retune=True, facts=FACTS)
    row, result, _ = _bench(cache)
    assert kernel == ALL_RUNS and row["config"] == "cfg-c"
    assert _entries(tmp_path) == {KEY: COLD_ENTRY, "another key": other}
    assert cache.summary().endswith(": 0 from the cache, 1 tuned (retune)")


@pytest.mark.parametrize("content, why", [
    ("{not json", "not JSON"),
    (json.dumps({"some": "other tool's file"}), "not an inductor-prof tuning cache"),
    (json.dumps({"format": tuning_cache.FORMAT, "version": 99, "entries": {}}),
     "cache version 99, this inductor-prof reads 1"),
    (json.dumps({"format": tuning_cache.FORMAT, "version": 1, "entries": {KEY: {"best": 3, "failed": {}}}}),
     "malformed entries"),
])
def test_a_corrupt_or_foreign_file_is_one_warning_then_rewritten(tmp_path, kernel, content, why):
    path = tmp_path / tuning_cache.FILE
    path.write_text(content)
    cache = tuning_cache.TuningCache(tmp_path, facts=FACTS)
    row, _, _ = _bench(cache)
    assert kernel == ALL_RUNS and row["config"] == "cfg-c"     # tuned as if cold
    assert cache.warnings == [f"tuning cache {path}: {why}: ignored, and rewritten with this run's tuning"]
    assert _entries(tmp_path) == {KEY: COLD_ENTRY}


def test_a_folder_that_cannot_be_written_leaves_the_bench_running_and_says_so(tmp_path, kernel, monkeypatch):
    def read_only(path, obj):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
    monkeypatch.setattr(rundir, "write_json", read_only)
    cache = tuning_cache.TuningCache(tmp_path, facts=FACTS)
    row, _, _ = _bench(cache)
    assert row["config"] == "cfg-c" and row["ok"]
    assert cache.not_written == "Read-only file system"
    assert cache.summary() == (f"{tmp_path / tuning_cache.FILE}: 0 from the cache, 1 tuned; the cache was not "
                               "written (Read-only file system)")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a mode 555 folder")
def test_a_mode_555_folder(tmp_path, kernel):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o555)
    cache = tuning_cache.TuningCache(folder, facts=FACTS)
    row, _, _ = _bench(cache)
    assert row["config"] == "cfg-c" and cache.not_written == "Permission denied"
    assert not (folder / tuning_cache.FILE).exists()


def test_the_folder_follows_xdg_and_the_setting():
    assert tuning_cache.folder(None, {"XDG_CACHE_HOME": "/x/cache", "HOME": "/h"}) == \
        tuning_cache.Path("/x/cache/inductor-prof")
    # XDG: a relative XDG_CACHE_HOME is invalid, ignored
    assert tuning_cache.folder(None, {"XDG_CACHE_HOME": "rel", "HOME": "/h"}) == tuning_cache.Path("/h/.cache/inductor-prof")
    assert tuning_cache.folder(None, {"HOME": "/h"}) == tuning_cache.Path("/h/.cache/inductor-prof")
    assert tuning_cache.folder("/elsewhere", {"HOME": "/h"}) == tuning_cache.Path("/elsewhere")


def test_the_kernels_fingerprint_follows_their_sources(monkeypatch, tmp_path):
    (tmp_path / "k.py").write_text("A = 1\n")
    monkeypatch.setattr(tuning_cache, "KERNELS_DIR", tmp_path)
    first = tuning_cache.kernels_fingerprint()
    (tmp_path / "k.py").write_text("A = 2\n")
    assert tuning_cache.kernels_fingerprint() != first and len(first) == 12


def test_the_attention_command_takes_retune(capsys, monkeypatch, tmp_path):
    from cli_main import run_main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    code, out, err = run_main(["attention", "--shape", "1,1,8,16", "--backends", "sdpa_math", "--retune", "--json"],
                              capsys)
    # no GPU here: nothing tuned, so nothing cached, and no cache line
    assert code == 0 and '"backend": "sdpa_math"' in out and "tuning cache" not in err
    assert not (tmp_path / "inductor-prof").exists()
