"""pipeline/harvest.py: the kernels of the recorded cache written to the run, and only those launched."""
import pytest

from recorded import data_path
from inductor_prof.inductor.output_code import decorator_kwargs, find_output_code, harvest_cache, KernelRecord
from inductor_prof.pipeline.harvest import write_kernels
import hashlib
import json
from types import SimpleNamespace
from inductor_prof.inductor.provenance import ProvenanceRecorder
from inductor_prof.pipeline import harvest


def test_harvest_recorded_cache():
    cache = data_path("flux_small", "cache")
    assert len(find_output_code(cache)) == 3
    records = harvest_cache(cache)
    names = [r.name for r in records]
    assert len(records) == 21                       # 18 names; 3 reused by two graphs with other code
    assert len(set(names)) == 18
    gelu = next(r for r in records if r.name == "triton_poi_fused_gelu_view_12")
    assert gelu.kind == "pointwise" and gelu.heuristic == "pointwise"
    assert gelu.aten_ops == ["aten.view", "aten.gelu"]
    assert gelu.inductor_meta["kernel_num_gb"] == 0.201326592
    assert gelu.signature == {"in_out_ptr0": "*bf16", "xnumel": "i32", "XBLOCK": "constexpr"}
    # 8 float arithmetic ops + libdevice.tanh at the 9.26 FP instructions ncu measured per call on the H100
    # (the tanh-GELU body is read op by op in tests/inductor/test_metrics.py::test_ops_counted_in_real_gelu_kernel)
    assert gelu.ops_per_element == pytest.approx(8 + 9.26, rel=1e-12)
    assert (gelu.ops_per_lane, gelu.ops_per_row) == (0, 0)         # pointwise: no reduction
    # the text+image layer norm (two sources), read off its body: welford_reduce 7, then x - mean, * rstd,
    # scale + 1, * (1 + scale), + shift (5) -> 12 per element; the cross-lane welford combine 10 per lane;
    # var / 3072 and + eps on the reduced row (rsqrt: 0) -> 2 per row
    norms = [r for r in records if r.name == "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1"]
    assert len(norms) == 2
    assert all((r.ops_per_element, r.ops_per_lane, r.ops_per_row) == (12, 10, 2) for r in norms)
    kinds = {r.kind for r in records}
    assert kinds == {"pointwise", "reduction", "persistent_reduction"}


def test_write_kernels_names_shared_sources_apart(tmp_path):
    rows = write_kernels(harvest_cache(data_path("flux_small", "cache")), tmp_path)
    files = sorted(p.name for p in tmp_path.glob("*.py"))
    assert len(files) == 42                          # original + annotated per kernel
    shared = [r for r in rows if r["name_shared_by"] > 1]
    assert len(shared) == 6 and all(r["file"].count(".") == 2 for r in shared)


def test_decorator_kwargs_handles_sets_and_calls():
    src = '''
@triton_heuristics.pointwise(size_hints={'x': 16}, triton_meta={'device': DeviceProperties(type='cuda', cc=90),
    'configs': [{(0,): [['tt.divisibility', 16]]}]}, inductor_meta={'autotune_hints': set(), 'kernel_num_gb': 0.5})
@triton.jit
def k(in_ptr0, xnumel, XBLOCK: tl.constexpr):
    pass
'''
    heuristic, kw = decorator_kwargs(src)
    assert heuristic == "pointwise"
    assert kw["inductor_meta"] == {"autotune_hints": [], "kernel_num_gb": 0.5}
    assert kw["triton_meta"]["device"] == {"__call__": "DeviceProperties", "type": "cuda", "cc": 90}
    assert kw["triton_meta"]["configs"] == [{"(0,)": [["tt.divisibility", 16]]}]


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

def _output_code(*kernels):
    return "\n".join(kernels) + "\ndef call(args):\n    pass\n"


def _kernel(name, body, comments=""):
    return f"{comments}{name} = async_compile.triton('{name}', '''{body}''', device_str='cuda')\n"


# ---- pipeline/harvest.py -----------------------------------------------------------------------------

_JIT = "\n@triton_heuristics.pointwise()\n@triton.jit\ndef {n}(x):\n    pass\n"


def _record(name, source, heuristic="pointwise"):
    return KernelRecord(name=name, kind="pointwise", heuristic=heuristic, aten_ops=[], source_nodes=[],
                        inductor_meta={}, signature={}, source_sha=hashlib.sha256(source.encode()).hexdigest()[:12],
                        wrapper="w.py", source=source)


def test_write_kernels_files_and_rows(tmp_path):
    uniq = _record("mykern", _JIT.format(n="mykern"))
    s1, s2 = _JIT.format(n="triton_poi_s"), _JIT.format(n="triton_poi_s") + "# v2\n"
    shared = [_record("triton_poi_s", s1), _record("triton_poi_s", s2)]
    nojit = _record("triton_poi_n", "def triton_poi_n(x):\n    pass\n")     # no @triton.jit: no annotated copy
    rows = harvest.write_kernels([uniq, *shared, nojit], tmp_path)
    # unique name: plain stem; the shared name: name.sha per source
    assert [r["file"] for r in rows] == ["mykern.py", f"triton_poi_s.{shared[0].source_sha}.py",
                                         f"triton_poi_s.{shared[1].source_sha}.py", "triton_poi_n.py"]
    assert [r["name_shared_by"] for r in rows] == [1, 2, 2, 1]
    assert [r["annotated_file"] for r in rows] == ["mykern.annotated.py", f"triton_poi_s.{shared[0].source_sha}"
                                                   ".annotated.py", f"triton_poi_s.{shared[1].source_sha}"
                                                   ".annotated.py", None]
    assert (tmp_path / "mykern.py").read_text() == uniq.source
    assert not (tmp_path / "triton_poi_n.annotated.py").exists()
    assert len(list(tmp_path.glob("*.py"))) == 7                          # 4 originals + 3 annotated
    ann = (tmp_path / "mykern.annotated.py").read_text()
    # the name has no Inductor prefix: the kind in launch_metadata comes from the heuristic
    assert ann.startswith("from inductor_prof.inductor.metrics import KernelMetrics\n")
    assert "@triton.jit(launch_metadata=KernelMetrics(kind='pointwise'" in ann
    assert "source" not in rows[0] and rows[0]["name"] == "mykern" and rows[0]["wrapper"] == "w.py"


def test_run_writes_only_launched_kernels(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    ka, kb = _JIT.format(n="triton_poi_a"), _JIT.format(n="triton_poi_b")
    (cache / "w.py").write_text(_output_code(_kernel("triton_poi_b", kb), _kernel("triton_poi_a", ka)))
    # the profiled steps name triton_poi_a (and a library kernel): a Proton tree of two timed leaves
    leaves = [{"frame": {"name": n}, "metrics": {"time (ns)": 5, "count": 1}} for n in ("triton_poi_a", "x")]
    (tmp_path / "s.hatchet").write_text(json.dumps([{"frame": {"name": "ROOT"}, "metrics": {}, "children": leaves},
                                                    {"CUDA": {}}]))
    asked = []

    class Built:
        def launch_config(self):
            return {"XBLOCK": 128}

    class Registry:
        kernels = {"k1": [1, 2], "k2": [3]}                      # 2 + 1 = 3 instrumented
        provenance = ProvenanceRecorder()                        # nothing captured: "not tracked"

        def find(self, name, source):
            asked.append((name, source))
            return Built() if name == "triton_poi_a" else None

    logs = []
    run = SimpleNamespace(inductor_cache=cache, steps_hatchet=tmp_path / "s.hatchet", kernels_dir=tmp_path / "k",
                          kernels_json=tmp_path / "kernels.json", steps_launches=tmp_path / "s.launches.json")
    ctx = SimpleNamespace(log=logs.append, run=run, registry=Registry(), manifest=SimpleNamespace(data={}))
    (tmp_path / "k").mkdir()
    # 2 kernels harvested, only triton_poi_a is in the profiled steps
    assert harvest.run(ctx) == {"harvested": 2, "launched": 1, "instrumented": 3}
    rows = json.loads((tmp_path / "kernels.json").read_text())
    assert [r["name"] for r in rows] == ["triton_poi_a"]
    assert rows[0]["launch_config"] == {"XBLOCK": 128} and rows[0]["launched"] is True
    assert rows[0]["file"] == "triton_poi_a.py" and rows[0]["wrapper"] == "w.py"
    assert sorted(p.name for p in (tmp_path / "k").iterdir()) == ["triton_poi_a.annotated.py", "triton_poi_a.py"]
    assert logs == ["harvesting kernels"]
    assert asked == [("triton_poi_a", ka), ("triton_poi_b", kb)]  # each record by name AND source (sorted by name)
