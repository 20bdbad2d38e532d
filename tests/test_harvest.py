import pytest

from recorded import data_path
from inductor_prof.inductor.output_code import decorator_kwargs, find_output_code, harvest_cache
from inductor_prof.pipeline.harvest import write_kernels


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
    # (the tanh-GELU body is read op by op in test_annotate.py::test_ops_counted_in_real_gelu_kernel)
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
