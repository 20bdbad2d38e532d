"""The compile cache (inductor/compile_cache.py): a second compile of the same model, seeded from the first's
cache, is an FX graph cache hit whose output code is still loaded from the run's own cache (what harvest reads),
and the provenance the first compile traced comes back with the entry. For real on CPU: torch.compile of a tiny
block in two processes (Inductor writes C++ kernels here; the caching is the same). Bad input: a foreign or
damaged entry is ignored with one warning naming its folder; a folder that cannot be written is said."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from inductor_prof.inductor import compile_cache
from inductor_prof.inductor.compile_cache import MARK, CompileCache
from inductor_prof.inductor.kernel_provenance import graph_groups, match_wrappers, with_saved

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# one compile of a tiny block into `cache`, with inductor-prof's hooks (as `profile` compiles); prints what the
# test checks: Inductor's FX graph cache counters, the output code loaded, the provenance traced
PROGRAM = r"""
import json, sys, torch
from torch._dynamo.utils import counters
from inductor_prof.inductor.cache import isolated_cache
from inductor_prof.inductor.instrument import KernelRegistry, instrumented_inductor
from inductor_prof.inductor.output_code import loaded_output_code
cache = sys.argv[1]
# Inductor takes the vector ISA the CPU reports rather than proving each by a compile and a load in a child (g++
# builds in each process's empty cache, most of this test's time); the kernels and the caching are the same
torch._inductor.config.cpp.vec_isa_ok = True
registry = KernelRegistry()
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 16)
    def forward(self, x):
        return torch.nn.functional.gelu(self.lin(x)) * 2
block = Block()
with isolated_cache(cache), instrumented_inductor(registry), torch.no_grad():
    block.compile(fullgraph=True)
    block(torch.randn(4, 16))
loaded = sorted(loaded_output_code(cache))
texts = {k: open(f"{cache}/{k}").read() for k in loaded}   # on CPU C++ kernels: harvest would skip them
print(json.dumps({"hit": counters["inductor"]["fxgraph_cache_hit"], "miss": counters["inductor"]["fxgraph_cache_miss"],
                  "loaded": loaded, "wrappers": texts,
                  "records": registry.provenance.records}))
"""


def _compile(cache) -> dict:
    torch = pytest.importorskip("torch")   # noqa: F841  (the light install has none)
    env = {**os.environ, "PYTHONPATH": REPO + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(cache)], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.long
def test_a_seeded_compile_hits_inductors_cache_and_keeps_what_harvest_reads(tmp_path):
    facts = {"target": "tiny", "torch": "same"}
    first = _compile(tmp_path / "run1" / "inductor_cache")
    assert (first["hit"], first["miss"]) == (0, 1) and first["records"]
    CompileCache(tmp_path / "cc", facts).store(tmp_path / "run1" / "inductor_cache", first["records"])

    cache = CompileCache(tmp_path / "cc", facts)
    seeded = tmp_path / "run2" / "inductor_cache"
    seeded.mkdir(parents=True)           # profile's isolated_cache made it, empty
    assert cache.seed(seeded) > 0 and cache.warnings == []
    second = _compile(seeded)
    assert (second["hit"], second["miss"]) == (1, 0)
    # the same output code, loaded from this run's own cache: harvest finds every kernel of the graph
    assert second["loaded"] == first["loaded"] and second["wrappers"] == first["wrappers"]
    # Inductor did not run, so nothing was traced; the entry's records stand in, matched to the graph
    assert second["records"] == []
    records = with_saved(second["records"], cache.provenance())
    matched = match_wrappers(graph_groups(records), second["wrappers"])
    assert matched and all(v for v in matched.values())


def test_with_saved_adds_only_graphs_this_compile_did_not_trace():
    fresh = [{"kernel": "k1", "handle": 1, "graph": 0, "nodes": ["fresh"]}]
    saved = [{"kernel": "k1", "handle": 1, "graph": 0, "nodes": ["old"]},        # recompiled: the fresh one wins
             {"kernel": "k2", "handle": 1, "graph": 1, "nodes": ["old k2"]}]      # a cache hit: from the entry
    assert with_saved(fresh, saved) == fresh + [{"kernel": "k2", "handle": 1, "graph": "saved 1",
                                                 "nodes": ["old k2"]}]
    assert with_saved(fresh, []) == fresh


def _entry(tmp_path, facts):
    run_cache = tmp_path / "run_cache"
    (run_cache / "fxgraph").mkdir(parents=True, exist_ok=True)
    (run_cache / "fxgraph" / "entry").write_text("compiled")
    cache = CompileCache(tmp_path / "cc", facts)
    cache.store(run_cache, [])
    assert cache.not_written == ""
    return cache.entry


def test_a_foreign_or_damaged_entry_is_ignored_with_one_warning_naming_it(tmp_path):
    entry = _entry(tmp_path, {"a": 1})
    for damage, why in [(lambda: (entry / MARK).write_text("{not json"), "unreadable entry mark"),
                        (lambda: (entry / MARK).write_text(json.dumps({"format": "x"})), "not an inductor-prof"),
                        (lambda: (entry / MARK).unlink(), "no entry mark")]:
        damage()
        cache = CompileCache(tmp_path / "cc", {"a": 1})
        into = tmp_path / f"into-{len(why)}"
        assert cache.seed(into) == 0 and not into.exists()
        assert len(cache.warnings) == 1 and str(entry) in cache.warnings[0] and why in cache.warnings[0]
        assert cache.warnings[0].endswith("ignored, and replaced after this run's compile")
    # the store after that run replaces it whole
    _entry(tmp_path, {"a": 1})
    assert CompileCache(tmp_path / "cc", {"a": 1}).seed(tmp_path / "into-ok") == 1


def test_a_folder_seeded_by_an_earlier_process_of_the_run_is_said_seeded_not_seeded_again(tmp_path):
    # the attention stage's precompile seeds its folder, then fills it with its compiles; the stage, after it,
    # finds the folder in use: seeded (the count copied, the provenance) from the same entry, else cold
    _entry(tmp_path, {"a": 1})
    into = tmp_path / "into"
    first = CompileCache(tmp_path / "cc", {"a": 1})
    assert first.seed(into) == 1 and (into / "fxgraph" / "entry").read_text() == "compiled"
    (into / "triton").mkdir()
    (into / "triton" / "compiled_by_the_precompile").write_text("x")
    later = CompileCache(tmp_path / "cc", {"a": 1})
    assert later.seed(into) == 1 and "seeded 1 files" in later.summary()
    assert not (into / "fxgraph" / "entry.1").exists()     # nothing copied again
    _entry(tmp_path / "other", {"a": 2})
    elsewhere = CompileCache(tmp_path / "other" / "cc", {"a": 2})
    assert elsewhere.seed(into) == 0 and "cold" in elsewhere.summary()   # another entry's files: not these
    in_use = tmp_path / "in_use"
    (in_use / "fxgraph").mkdir(parents=True)
    assert CompileCache(tmp_path / "cc", {"a": 1}).seed(in_use) == 0     # in use, never seeded: cold


def test_an_entry_of_other_facts_is_never_seeded(tmp_path):
    entry = _entry(tmp_path, {"a": 1})
    other = CompileCache(tmp_path / "cc", {"a": 2})
    assert other.entry != entry and other.seed(tmp_path / "into") == 0 and other.warnings == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder_is_said_and_the_run_goes_on(tmp_path):
    root = tmp_path / "cc"
    root.mkdir()
    root.chmod(0o555)
    try:
        cache = CompileCache(root, {"a": 1})
        cache.store(tmp_path, [])
        assert cache.not_written and "not written" in cache.summary()
    finally:
        root.chmod(0o755)


def test_a_store_that_fails_is_said_not_raised(tmp_path):
    # a file where the cache folder should be: what a read-only folder gives a non-root user, as root too
    (tmp_path / "cc").write_text("")
    cache = CompileCache(tmp_path / "cc", {"a": 1})
    cache.store(tmp_path, [])
    assert cache.not_written
    assert cache.summary().endswith(f"; the cache was not written ({cache.not_written})")


def test_the_folder_setting(tmp_path):
    assert compile_cache.folder("off") is None and compile_cache.folder("OFF") is None
    assert compile_cache.folder(str(tmp_path)) == tmp_path
    assert compile_cache.folder(None, {"XDG_CACHE_HOME": "/x"}).as_posix() == "/x/inductor-prof/compile"
