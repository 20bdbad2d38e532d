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


# ---- mutation audit: tier 2's tie-break, the table's columns ----------------------------------------------------

def _same_key(name, code, config, stem):
    return Fingerprint(key=frozenset({("pointwise", ("aten.add",), (("x", "8"),))}), code=frozenset({code}),
                       config=frozenset({config}), stem=stem, kind="pointwise", aten_ops=("aten.add",))


def test_a_renamed_kernel_pairs_with_the_closest_of_its_fingerprint():
    a = {"k_1": _same_key("k_1", "code", "cfg", "k")}
    # three renamed candidates of the same fingerprint: other code, other config, other stem; the one that
    # differs least (stem only, then config, then code: the rank's order) wins, whatever the name order
    for want, others in (("z_stem", ["a_code", "b_config"]), ("z_config", ["a_code"]), ("z_same", ["a_stem"])):
        b = {"a_code": _same_key("a_code", "other", "cfg", "k"), "b_config": _same_key("b_config", "code", "c2", "k"),
             "z_stem": _same_key("z_stem", "code", "cfg", "z"), "z_config": _same_key("z_config", "code", "c2", "k"),
             "a_stem": _same_key("a_stem", "code", "cfg", "z"), "z_same": _same_key("z_same", "code", "cfg", "k")}
        b = {n: fp for n, fp in b.items() if n in [want, *others]}
        m = match_kernels(list(a), list(b), a, b)
        assert list(m.columns) == ["name_a", "name_b", "matched_by"]
        assert m.values.tolist()[0] == ["k_1", want, "kind+ops+shapes"], want


# ---- mutation audit: a fingerprint from a recorded kernels.json record and its file ---------------------------

def test_fingerprint_of_a_recorded_kernel():
    import hashlib
    import json

    from recorded import data_path
    from inductor_prof.analysis.match import fingerprints, stem

    folder = data_path("flux_small", "kernels")
    rec = json.loads((folder / "kernels.json").read_text())[0]
    text = (folder / rec["file"]).read_text()
    (name, fp), = fingerprints([rec], {rec["file"]: text}).items()
    assert name == "triton_per_fused__fused_rms_norm_view_3" and fp.stem == stem(name) == \
        "triton_per_fused__fused_rms_norm_view"
    assert (fp.kind, fp.aten_ops) == ("persistent_reduction", ("aten._fused_rms_norm", "aten.view"))
    # the key: kind, sorted ops, and each launch argument with its shape and dtype (or its value)
    assert fp.key == frozenset({("persistent_reduction", ("aten._fused_rms_norm", "aten.view"), (
        ("in_ptr0", ("512, 3072", "bfloat16")), ("out_ptr0", ("1, 512, 24, 1", "float32")), ("xnumel", "12288"),
        ("r0_numel", "128")))})
    # the code with its own name blanked; the chosen config without registers, spills, shared memory, candidates
    assert fp.code == frozenset({hashlib.sha1(text.replace(name, "KERNEL").encode()).hexdigest()})
    assert fp.config == frozenset({(("XBLOCK", 32), ("num_stages", 1), ("num_warps", 2))})
    # the same kernel renamed has the same code and key; without its file, only kind and ops
    renamed = {**rec, "name": "triton_per_fused__fused_rms_norm_view_9"}
    other = fingerprints([renamed], {rec["file"]: text.replace(name, renamed["name"])})[renamed["name"]]
    assert (other.code, other.key) == (fp.code, fp.key)
    bare = fingerprints([rec], {})[name]
    assert bare.key == frozenset({("persistent_reduction", ("aten._fused_rms_norm", "aten.view"), ())})
    assert bare.code == frozenset({""})
    # a name two kernels shared: the set of both
    two = fingerprints([rec, {**rec, "kind": "pointwise", "launch_config": {"XBLOCK": 64}}], {})[name]
    assert len(two.key) == 2 and len(two.config) == 2 and two.kind == "persistent_reduction"


# ---- mutation audit (issue 30): tiers 1 and 3, fingerprints on one side only, a record without ops ----------

def _keyed(shape):
    return _fp("k", "k", shape)


def test_the_same_name_pairs_first_when_its_fingerprint_agrees_or_one_side_has_none():
    a = {"k_1": _keyed("8"), "only_a_fp": _keyed("8")}
    b = {"k_1": _keyed("8"), "only_b_fp": _keyed("8")}
    # k_1: same fingerprint; only_a_fp has one in A only, only_b_fp in B only (a run without kernels.json, a
    # library kernel): both pair by name; lib has none on either side
    m = match_kernels(["k_1", "only_a_fp", "only_b_fp", "lib"], ["lib", "only_b_fp", "only_a_fp", "k_1"],
                      {"k_1": a["k_1"], "only_a_fp": a["only_a_fp"]}, {"k_1": b["k_1"], "only_b_fp": b["only_b_fp"]})
    assert m.values.tolist() == [["k_1", "k_1", "name"], ["only_a_fp", "only_a_fp", "name"],
                                 ["only_b_fp", "only_b_fp", "name"], ["lib", "lib", "name"]]


def test_a_name_whose_fingerprint_changed_pairs_with_its_renamed_twin_first():
    # A's k_1 (shape 8) is B's k_2 (renumbered); B's k_1 is another kernel (shape 16): tier 2 pairs k_1 -> k_2
    # before tier 3 could pair the two k_1; B's k_1 is new
    a = {"k_1": _keyed("8")}
    b = {"k_1": _keyed("16"), "k_2": _keyed("8")}
    m = match_kernels(list(a), list(b), a, b)
    assert m.values.tolist() == [["k_1", "k_2", "kind+ops+shapes"], [None, "k_1", ""]]
    # with no twin, the same name at other shapes pairs in tier 3
    m = match_kernels(list(a), ["k_1"], a, {"k_1": b["k_1"]})
    assert m.values.tolist() == [["k_1", "k_1", "name (shapes differ)"]]


def test_fingerprint_of_a_record_without_ops():
    from inductor_prof.analysis.match import fingerprints

    fp = fingerprints([{"name": "triton_poi_x_1", "kind": "pointwise"}], {})["triton_poi_x_1"]
    assert (fp.aten_ops, fp.key) == ((), frozenset({("pointwise", (), ())}))
