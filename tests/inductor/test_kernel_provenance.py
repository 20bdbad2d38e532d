"""Kernel provenance: on the recorded output code and provenance records (tests/data/provenance, H100), the
path and pattern rules by hand, and the library join."""
from __future__ import annotations

import gzip
import json

import pytest

from inductor_prof.inductor.kernel_provenance import (extern_calls, graph_block, graph_groups, handles,
                                                      kernel_provenance, library_modules, match_wrappers, merge,
                                                      module_pattern, summarize)
from inductor_prof.inductor.module_paths import (block_pattern, common_pattern, model_frame, relative_path,
                                                 short_files, short_pattern)
from recorded import data_path

DATA = data_path("provenance")
Q7 = "cq7h3e6plsjpkbi37uqxzyucotjhxfp3qe7yuyeavyfryhvwxcvv.py"   # FLUX double block's output code
H7 = "c7h22svxmetouxscjegtxchmgypaplyv7krlnjelr4a54m33edlo.py"   # FLUX single block's output code
ADA = "<class 'diffusers.models.normalization.AdaLayerNormZero'>"
LINEAR = "<class 'torch.nn.modules.linear.Linear'>"
# what tells the two FLUX block classes apart in the recording: norm1_context is a double block's
# AdaLayerNormZero, proj_mlp a single block's Linear (the recorded nn_module_stack names both)
FLUX_BLOCKS = [{"pattern": "transformer_blocks.*", "modules": {"norm1_context": ADA}},
               {"pattern": "single_transformer_blocks.*", "modules": {"proj_mlp": LINEAR}}]


def recorded(name: str) -> tuple[list[dict], dict[str, str]]:
    folder = DATA / name
    records = json.loads(gzip.decompress((folder / "provenance_records.json.gz").read_bytes()))
    return records, {p.name: p.read_text() for p in sorted(folder.glob("*.py"))}


@pytest.fixture(scope="module")
def flux():
    records, wrappers = recorded("flux_dyn")
    return records, wrappers, kernel_provenance(records, wrappers, FLUX_BLOCKS)


def test_graphs_are_told_apart_by_the_handles_in_their_output_code(flux):
    records, wrappers, _ = flux
    groups = graph_groups(records)
    # the recording compiled two graphs (double block, then single block): handles 1..30, then 1..12 again
    assert [len(g) for g in groups] == [30, 12]
    assert [g[0]["handle"] for g in groups] == [1, 1]
    matched = match_wrappers(groups, wrappers)
    assert {k: len(v) for k, v in matched.items()} == {Q7: 30, H7: 12}
    assert handles(wrappers[H7])[0] == ("triton_poi_fused_silu_0", 1)


def test_a_name_in_two_graphs_gets_its_own_graphs_provenance(flux):
    _, _, prov = flux
    silu = {sha: p for (name, sha), p in prov.items() if name == "triton_poi_fused_silu_0"}
    assert len(silu) == 2
    by_wrapper = {p["wrappers"][0]: p for p in silu.values()}
    # double block: AdaLayerNormZero norm1 and norm1_context each run silu (normalization.py line 167:
    # `emb = self.linear(self.silu(emb))`); single block: AdaLayerNormZeroSingle norm (line 199)
    double, single = by_wrapper[Q7], by_wrapper[H7]
    assert double["modules"] == ["transformer_blocks.*.norm1.silu", "transformer_blocks.*.norm1_context.silu"]
    assert double["module"] == "transformer_blocks.*.*"
    assert double["source_lines"] == ["normalization.py:167"]
    assert single["modules"] == ["single_transformer_blocks.*.norm.silu"]
    assert single["source_lines"] == ["normalization.py:199"]
    assert single["block"] == "single_transformer_blocks.*"
    assert {"name": "div", "target": "aten.div.Tensor"} in double["nodes"]


def test_rms_norm_kernel_names_the_attention_norms(flux):
    _, _, prov = flux
    (p,) = [p for (name, _), p in prov.items() if name == "triton_per_fused__fused_rms_norm_view_4"]
    # one kernel, two call sites (norm_q then norm_k, same code): both modules, their common parent attn
    assert "transformer_blocks.*.attn.norm_q" in p["modules"] and "transformer_blocks.*.attn.norm_k" in p["modules"]
    assert p["module"] == "transformer_blocks.*.attn"
    assert short_pattern(p["module"], p["block"]) == "*.attn"
    assert p["frames"][0]["file"].endswith("transformer_flux.py")


def test_whole_model_paths_are_the_models_own():
    records, wrappers = recorded("llama2")
    prov = kernel_provenance(records, wrappers)
    (mlp,) = [p for (name, _), p in prov.items() if name == "triton_poi_fused__unsafe_view_mul_silu_8"]
    # the SwiGLU product of both decoder layers: one kernel, launched by layers.0.mlp and layers.1.mlp
    assert mlp["block"] is None
    assert "layers.0.mlp.act_fn" in mlp["modules"] and "layers.1.mlp.act_fn" in mlp["modules"]
    assert mlp["module"] == "layers.*.mlp"
    assert mlp["source_lines"][0] == "activations.py:103"   # `return nn.functional.silu(input)`
    assert all("L['self']" not in m for p in prov.values() for m in p["modules"])


def test_cache_hit_and_untracked_modules_say_so():
    _, wrappers = recorded("flux_dyn")
    llama_records, _ = recorded("llama2")
    # FLUX's modules with the Llama records: their handle lines match no graph compiled here
    prov = kernel_provenance(llama_records, {Q7: wrappers[Q7]})
    assert {p["source"] for p in prov.values()} == {"cache hit"}
    untracked = "\n".join(l for l in wrappers[Q7].splitlines() if "Provenance debug handles" not in l)
    prov = kernel_provenance(llama_records, {Q7: untracked})
    assert {p["source"] for p in prov.values()} == {"not tracked"}


def test_graph_groups_by_captured_ordinal_or_handle_restart():
    recs = [{"kernel": "a", "handle": 1, "graph": 0}, {"kernel": "b", "handle": 2, "graph": 0},
            {"kernel": "a", "handle": 3, "graph": 1}]
    assert [[r["kernel"] for r in g] for g in graph_groups(recs)] == [["a", "b"], ["a"]]
    bare = [{"kernel": "a", "handle": 1}, {"kernel": "b", "handle": 2}, {"kernel": "a", "handle": 1}]
    assert [len(g) for g in graph_groups(bare)] == [2, 1]


def test_graph_block_is_the_class_holding_the_graphs_modules():
    node = {"nn_module_stack": {"1": ["L['self'].proj_mlp", LINEAR]}}
    assert graph_block([{"nodes": [node]}], FLUX_BLOCKS) == "single_transformer_blocks.*"
    assert graph_block([{"nodes": [node]}], []) == ""
    other = {"nn_module_stack": {"1": ["L['self'].proj_mlp", ADA]}}     # same path, other class: no match
    assert graph_block([{"nodes": [other]}], FLUX_BLOCKS) == ""


@pytest.mark.parametrize("dynamo, path", [
    ("L['self'].norm1_context.linear", "norm1_context.linear"), ("L['self']", ""),
    ("L['s'].layers[3].mlp", "layers.3.mlp"), ("L['self']._modules['attn'].to_q", "attn.to_q"),
])
def test_relative_path(dynamo, path):
    assert relative_path(dynamo) == path


@pytest.mark.parametrize("paths, pattern", [
    (["layers.0.mlp.down_proj", "layers.1.mlp.down_proj"], "layers.*.mlp.down_proj"),   # list index
    (["attn.norm_q", "attn.norm_k"], "attn.*"),          # siblings: their parent, `.*`
    (["norm1", "norm1.linear"], "norm1"),                # an ancestor and its child: the ancestor
    (["norm1.linear", "attn.to_q"], "*"),                # nothing in common below the root
    (["a.b"], "a.b"), ([], None),
])
def test_common_pattern(paths, pattern):
    assert common_pattern(paths) == pattern


def test_block_and_short_patterns():
    assert block_pattern(["transformer_blocks.0", "transformer_blocks.18"]) == "transformer_blocks.*"
    assert short_pattern("transformer_blocks.*.attn.norm_q", "transformer_blocks.*") == "*.attn.norm_q"
    assert short_pattern("transformer_blocks.*", "transformer_blocks.*") == "*"
    # another block's prefix is not this block's: shown whole
    assert short_pattern("single_transformer_blocks.*.attn", "transformer_blocks.*") == \
        "single_transformer_blocks.*.attn"
    assert short_pattern("layers.*.mlp", None) == "layers.*.mlp"


def test_frames_skip_torch_and_files_are_shortened():
    trace = ('  File "/m/model.py", line 10, in forward\n    y = self.norm(x)\n'
             '  File "/v/lib/python3.12/site-packages/torch/nn/functional.py", line 2900, in layer_norm\n'
             '    return torch.layer_norm(\n')
    assert model_frame(trace) == {"file": "/m/model.py", "line": 10, "function": "forward", "code": "y = self.norm(x)"}
    assert model_frame("") is None
    assert short_files(["/a/x/model.py", "/b/y/model.py", "/c/other.py"]) == {
        "/a/x/model.py": "x/model.py", "/b/y/model.py": "y/model.py", "/c/other.py": "other.py"}


def _extern(kernel, target, shapes, path, handle):
    return {"kernel": kernel, "handle": handle, "extern": True, "graph": 0,
            "nodes": [{"name": "n", "target": target, "input_shapes": shapes, "stack_trace": None,
                       "nn_module_stack": {"1": [f"L['self'].{path}", LINEAR]}}]}


def test_library_kernels_join_by_op_and_input_shapes():
    # profiled dims as torch.profiler records aten::addmm (tests/data/flux_small/library_ops.csv, first row):
    # bias, input, weight, then beta and alpha (scalars: [])
    dims = [[3072], [4096, 64], [64, 3072], [], []]
    recs = [_extern("extern_kernels.addmm", "aten.addmm.default", [[3072], [4096, 64], [64, 3072]], "attn.to_q", 1),
            _extern("extern_kernels.addmm", "aten.addmm.default", [[3072], [4096, 64], [64, 3072]], "attn.to_k", 2),
            _extern("extern_kernels.addmm", "aten.addmm.default", [[3072], [4096, 3072], [3072, 64]], "proj", 3),
            _extern("extern_kernels.mm", "aten.mm.default", [[4096, 64], [64, 3072]], "mm_user", 4)]
    calls = extern_calls(recs)
    assert [c["op"] for c in calls] == ["aten::addmm"] * 3 + ["aten::mm"]
    # to_q and to_k share op and shapes: both are listed; proj (other shapes) and the mm (other op) are not
    assert library_modules("aten::addmm", dims, calls) == ["attn.to_q", "attn.to_k"]
    assert library_modules("aten::mul", [[1], []], calls) == []
    symbolic = extern_calls([_extern("extern_kernels.addmm", "aten.addmm.default",
                                     [[3072], ["s0", 64], [64, 3072]], "dyn", 1)])
    assert library_modules("aten::addmm", dims, symbolic) == ["dyn"]   # a symbolic dim matches any size


def test_merge_keeps_every_graph():
    a = {"source": "traced", "block": "b.*", "nodes": [{"name": "x", "target": "t"}], "modules": ["b.*.p"],
         "source_lines": ["m.py:1"], "frames": [{"file": "m.py", "line": 1}]}
    b = {**a, "nodes": [{"name": "y", "target": "t"}], "modules": ["b.*.q"], "source_lines": ["m.py:2"],
         "frames": [{"file": "m.py", "line": 2}]}
    m = merge([a, b, {"source": "cache hit"}])
    assert m["modules"] == ["b.*.p", "b.*.q"] and m["module"] == "b.*.*" and m["also"] == ["cache hit"]
    assert [n["name"] for n in m["nodes"]] == ["x", "y"]
    assert merge([{"source": "cache hit"}]) == {"source": "cache hit"}


def test_report_module_column_and_library_union():
    import pandas as pd

    from inductor_prof.analysis.kernels import library_costs, module_label

    traced = {"source": "traced", "block": "transformer_blocks.*", "module": "transformer_blocks.*.attn.norm_q"}
    assert module_label(traced, []) == "*.attn.norm_q"
    assert module_label({"source": "cache hit"}, []) == "(cache hit)"
    assert module_label(None, []) == ""
    # a library kernel: the block is found among the run's blocks (longest first)
    lib = {"source": "ATen op and input shapes", "module": "single_transformer_blocks.*.proj_out"}
    assert module_label(lib, ["single_transformer_blocks.*", "transformer_blocks.*"]) == "*.proj_out"
    ops = pd.DataFrame({"kernel": ["g", "g", "h"], "op": ["aten::addmm"] * 3, "flops": [1, 1, 1],
                        "flops_key": ["flops16"] * 3, "bytes": [1, 1, 1],
                        "modules": ['["a.to_q", "a.to_k"]', '["a.to_k", "a.to_v"]', "[]"]})
    costs = library_costs(ops)
    assert costs.loc["g", "modules"] == ["a.to_q", "a.to_k", "a.to_v"]   # every launch's modules, once each
    assert costs.loc["h", "modules"] == []


def test_cudnn_attention_kernel_joins_the_sdpa_extern_call():
    from inductor_prof.inductor.kernel_provenance import library_modules, same_op

    # Inductor's extern call is the SDPA op; torch.profiler sees the cuDNN kernel under its inner op
    calls = [{"op": "aten::_scaled_dot_product_cudnn_attention", "module": "layers.*.self_attn",
              "shapes": [[2, 32, 2048, 64], [2, 8, 2048, 64], [2, 8, 2048, 64]]}]
    dims = [[2, 32, 2048, 64], [2, 8, 2048, 64], [2, 8, 2048, 64], [], []]
    assert library_modules("aten::_cudnn_attention_forward", dims, calls) == ["layers.*.self_attn"]
    assert same_op("aten::_scaled_dot_product_flash_attention", "aten::_flash_attention_forward")
    # different backends, or an attention op against a GEMM, are not the same launch
    assert not same_op("aten::_scaled_dot_product_cudnn_attention", "aten::_flash_attention_forward")
    assert not same_op("aten::addmm", "aten::mm")
    assert library_modules("aten::_flash_attention_forward", dims, calls) == []


def test_extern_op_name_is_namespace_and_op_for_any_target_form():
    from inductor_prof.inductor.kernel_provenance import extern_calls

    # str(OpOverload) is "aten.addmm.default"; a packet without overload prints "aten.mm": both name the op
    node = {"name": "mm", "stack_trace": None, "nn_module_stack": {}, "input_shapes": [[4, 8], [8, 2]]}
    records = [{"kernel": "extern_kernels.mm", "handle": 1, "extern": True, "graph": 1,
                "nodes": [{**node, "target": "aten.mm"}]},
               {"kernel": "extern_kernels.addmm", "handle": 2, "extern": True, "graph": 1,
                "nodes": [{**node, "target": "aten.addmm.default"}]}]
    assert [c["op"] for c in extern_calls(records)] == ["aten::mm", "aten::addmm"]


# ---- pinned where a mutation audit found it unpinned (each expected value derived by hand)

TRACE = '  File "/m/model.py", line 10, in forward\n    y = self.proj(x)\n'


def _stack(path, cls=LINEAR):
    return {"1": [f"L['self'].{path}", cls]}


# ---- kernel_provenance.py -----------------------------------------------------------------------------------


def test_a_repeated_handle_starts_a_new_graph():
    # no graph ordinal: handles 1 then 1 again -> the numbering started again, two graphs
    bare = [{"kernel": "a", "handle": 1}, {"kernel": "b", "handle": 1}]
    assert [len(g) for g in graph_groups(bare)] == [1, 1]


def test_failed_records_are_left_out_of_the_graphs_signature():
    # k1's provenance failed (an error record, as capture writes it): Inductor wrote no handle line for it,
    # so the module's lines are k0:1 alone and still name this graph
    group = [{"kernel": "k0", "handle": 1, "nodes": []}, {"kernel": "k1", "handle": 2, "error": "boom"}]
    matched = match_wrappers([group], {"w.py": "# [Provenance debug handles] k0:1\n"})
    assert matched == {"w.py": group}


def test_graph_block_counts_every_node():
    # three nodes in a.x (block a.*) against one each in b.y and b.z (block b.*): 3 > 2, a.*;
    # an error record has no nodes
    blocks = [{"pattern": "a.*", "modules": {"x": "X"}}, {"pattern": "b.*", "modules": {"y": "Y", "z": "Z"}}]
    nodes = [{"nn_module_stack": _stack("x", "X")}] * 3 + [{"nn_module_stack": _stack(p, p.upper())} for p in "yz"]
    assert graph_block([{"nodes": nodes}, {"kernel": "k", "handle": 9, "error": "boom"}], blocks) == "a.*"


def test_summarize_one_kernel():
    # mul in blocks.*.attn.to_q; add traced in the block's own forward (no module stack): the block itself.
    # Both nodes come from model.py line 10 (2 nodes); the error record adds nothing.
    records = [{"kernel": "k", "handle": 1, "nodes": [
        {"name": "mul", "target": "aten.mul.Tensor", "nn_module_stack": _stack("attn.to_q"), "stack_trace": TRACE},
        {"name": "add", "target": "aten.add.Tensor", "stack_trace": TRACE}]},
        {"kernel": "k", "handle": 2, "error": "boom"}]
    assert summarize(records, "blocks.*", {}) == {
        "source": "traced", "block": "blocks.*",
        "nodes": [{"name": "mul", "target": "aten.mul.Tensor"}, {"name": "add", "target": "aten.add.Tensor"}],
        "modules": ["blocks.*.attn.to_q", "blocks.*"],
        "module": "blocks.*.attn.to_q",           # the block's own forward does not widen it
        "source_lines": ["/m/model.py:10"],        # no shorter name known: the path as is
        "frames": [{"file": "/m/model.py", "line": 10, "function": "forward", "code": "y = self.proj(x)"}]}


def test_module_pattern_without_the_blocks_own_forward():
    # b.*.p and b.*.q: b.*.* (b.* itself, the block's forward, left out)
    assert module_pattern(["b.*", "b.*.p", "b.*.q"], "b.*") == "b.*.*"
    assert module_pattern(["b.*"], "b.*") == "b.*"                 # nothing else: the block
    # a whole model (no block): its own forward is "", left out beside layers.0.mlp
    assert module_pattern(["", "layers.0.mlp"], None) == "layers.0.mlp"


def test_merge_of_traced_graphs_exactly():
    a = {"source": "traced", "block": "b.*", "nodes": [{"name": "x", "target": "t"}], "modules": ["b.*", "b.*.p"],
         "module": "b.*.p", "source_lines": ["m.py:1"], "frames": [{"file": "m.py", "line": 1}]}
    b = {"source": "traced", "block": "b.*", "nodes": [{"name": "y", "target": "t"}], "modules": ["b.*.q"],
         "module": "b.*.q", "source_lines": ["m.py:2"], "frames": [{"file": "m.py", "line": 2}]}
    # every graph traced: no "also"; module b.*.* (p and q, the block's own b.* left out)
    assert merge([a, b]) == {"source": "traced", "block": "b.*",
                             "nodes": [{"name": "x", "target": "t"}, {"name": "y", "target": "t"}],
                             "modules": ["b.*", "b.*.p", "b.*.q"], "module": "b.*.*",
                             "source_lines": ["m.py:1", "m.py:2"],
                             "frames": [{"file": "m.py", "line": 1}, {"file": "m.py", "line": 2}]}


WRAPPER = """# [Provenance debug handles] triton_poi_k:1
triton_poi_k = async_compile.triton('triton_poi_k', '''
import triton
@triton.jit
def triton_poi_k(in_ptr0, xnumel):
    pass
''', device_str='cuda')
"""


def test_kernel_provenance_with_a_failed_record_in_the_graph():
    # the graph traced triton_poi_k (model.py line 10, module proj) and failed on another kernel (no handle line
    # for it, no nodes): the kernel's provenance is its own record's; the only file model.py is shown by name
    records = [{"kernel": "triton_poi_k", "handle": 1, "graph": 0,
                "nodes": [{"name": "relu", "target": "aten.relu.default", "nn_module_stack": _stack("proj"),
                           "stack_trace": TRACE}]},
               {"kernel": "triton_poi_bad", "handle": 2, "graph": 0, "error": "boom"}]
    prov = kernel_provenance(records, {"w.py": WRAPPER})
    ((name, _), p), = prov.items()
    assert name == "triton_poi_k"
    assert p == {"source": "traced", "block": None, "nodes": [{"name": "relu", "target": "aten.relu.default"}],
                 "modules": ["proj"], "module": "proj", "source_lines": ["model.py:10"],
                 "frames": [{"file": "/m/model.py", "line": 10, "function": "forward", "code": "y = self.proj(x)"}],
                 "wrappers": ["w.py"]}


def _node(target, shapes=None, path="proj"):
    n = {"name": target.split(".")[1] if "." in target else target, "target": target, "stack_trace": None,
         "nn_module_stack": _stack(path)}
    if shapes is not None:
        n["input_shapes"] = shapes
    return n


def test_extern_calls_pick_the_op_node():
    recs = [
        {"kernel": "triton_poi_0", "handle": 1, "graph": 0, "nodes": [_node("aten.add.Tensor", [[4]])]},  # not extern
        {"kernel": "extern_kernels.mm", "handle": 2, "graph": 0, "extern": True, "error": "boom"},   # no nodes
        # a view feeding the mm: its op (view) is not in the kernel's name, so only the mm counts
        {"kernel": "extern_kernels.mm", "handle": 3, "graph": 0, "extern": True,
         "nodes": [_node("aten.view.default", [[32]], "v"), _node("aten.mm.default", [[4, 8], [8, 2]], "mm_user")]},
        # a single node is the op whatever the kernel is called
        {"kernel": "extern_kernels.custom", "handle": 4, "graph": 0, "extern": True,
         "nodes": [_node("aten.addmm.default", [[2], [4, 8], [8, 2]], "lin")]},
        # no input shapes recorded, or no namespace.op target: nothing to join on
        {"kernel": "extern_kernels.mm", "handle": 5, "graph": 0, "extern": True, "nodes": [_node("aten.mm.default")]},
        {"kernel": "extern_kernels.fn", "handle": 6, "graph": 0, "extern": True, "nodes": [_node("my_fn", [[4]])]},
    ]
    assert extern_calls(recs) == [{"op": "aten::mm", "shapes": [[4, 8], [8, 2]], "module": "mm_user"},
                                  {"op": "aten::addmm", "shapes": [[2], [4, 8], [8, 2]], "module": "lin"}]


def test_extern_calls_under_regional_compile_get_the_block_prefix():
    blocks = [{"pattern": "blocks.*", "modules": {"proj": LINEAR}}]
    recs = [{"kernel": "extern_kernels.mm", "handle": 1, "graph": 0, "extern": True,
             "nodes": [_node("aten.mm.default", [[4, 8], [8, 2]], "proj")]}]
    assert [c["module"] for c in extern_calls(recs, blocks)] == ["blocks.*.proj"]


def test_library_modules_skip_scalar_dims_before_tensors():
    # the profiler lists a scalar input as []: left out before matching the tensors' shapes in order
    calls = [{"op": "aten::mm", "shapes": [[4, 8], [8, 2]], "module": "m"}]
    assert library_modules("aten::mm", [[], [4, 8], [8, 2]], calls) == ["m"]


def test_backward_graph_node_is_traced_to_its_forward_module():
    # a backward graph's node has no nn_module_stack of its own; AOTAutograd copied its forward node's as
    # fwd_nn_module_stack: the record carries that one, and the kernel says it came from a backward graph
    from inductor_prof.inductor.provenance import node_record

    class Node:
        name, target = "mm_3", "aten.mm.default"
        args = ()
        meta = {"fwd_nn_module_stack": {"L__self___attn_to_q": ("L['self'].attn.to_q", "torch.nn.Linear")},
                "stack_trace": TRACE}

    rec = node_record(Node())
    assert rec["nn_module_stack"] == {"L__self___attn_to_q": ["L['self'].attn.to_q", "torch.nn.Linear"]}
    records = [{"kernel": "k", "handle": 1, "backward_graph": True, "nodes": [rec]}]
    prov = summarize(records, "blocks.*", {})
    assert prov["module"] == "blocks.*.attn.to_q" and prov["backward_graph"] is True
    assert prov["source_lines"] == ["/m/model.py:10"]
    assert "backward_graph" not in summarize([{**records[0], "backward_graph": False}], "blocks.*", {})
