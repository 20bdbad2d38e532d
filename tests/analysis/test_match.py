"""analysis/match.py: the last tier pairs a kernel left on each side only when its kind, ATen ops AND name
stem agree."""
from inductor_prof.analysis.match import Fingerprint, match_kernels


def _fp(name: str, stem: str, shape: str) -> Fingerprint:
    return Fingerprint(key=frozenset({("pointwise", ("aten.gelu",), (("x", shape),))}), code=frozenset({name}),
                       config=frozenset(), stem=stem, kind="pointwise", aten_ops=("aten.gelu",))


def test_last_tier_needs_the_same_stem():
    # one gelu pointwise kernel left on each side, other shapes (tiers 1-3 do not pair them), other stems:
    # `..._gelu_3` and `..._gelu_view_5` fuse other ops around the gelu, so they are not one kernel
    a = {"triton_poi_fused_gelu_3": _fp("triton_poi_fused_gelu_3", "triton_poi_fused_gelu", "8")}
    b = {"triton_poi_fused_gelu_view_5": _fp("triton_poi_fused_gelu_view_5", "triton_poi_fused_gelu_view", "16")}
    m = match_kernels(list(a), list(b), a, b)
    assert m.values.tolist() == [["triton_poi_fused_gelu_3", None, ""], [None, "triton_poi_fused_gelu_view_5", ""]]


def test_last_tier_pairs_the_one_kernel_of_a_stem():
    # the same stem, kind and ops, other shapes, another number: the one such kernel on each side pairs up
    a = {"triton_poi_fused_gelu_3": _fp("triton_poi_fused_gelu_3", "triton_poi_fused_gelu", "8")}
    b = {"triton_poi_fused_gelu_7": _fp("triton_poi_fused_gelu_7", "triton_poi_fused_gelu", "16")}
    m = match_kernels(list(a), list(b), a, b)
    assert m.values.tolist() == [["triton_poi_fused_gelu_3", "triton_poi_fused_gelu_7", "kind+ops"]]
