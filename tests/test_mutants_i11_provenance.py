"""Small constructed records that pin inductor/kernel_provenance.py and inductor/module_paths.py (issue 11's
mutation audit: mutants that survived the fast suite). Every expected value is read off the input by hand."""
from inductor_prof.inductor.kernel_provenance import (extern_calls, graph_block, graph_groups, kernel_provenance,
                                                      library_modules, match_wrappers, merge, module_pattern,
                                                      summarize)
from inductor_prof.inductor.module_paths import (block_pattern, common_pattern, frames, relative_path, short_files,
                                                 short_pattern)

LINEAR = "<class 'torch.nn.modules.linear.Linear'>"
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


# ---- module_paths.py ----------------------------------------------------------------------------------------


def test_relative_path_edges():
    assert relative_path("L['self'][0].mlp") == "0.mlp"            # a Sequential model: leading index, no dot
    assert relative_path("L['self'].layers[0].X") == "layers.0.X"   # only dots are stripped at the ends
    assert relative_path("L['self'].a.[1].b") == "a.1.b"           # an empty segment collapses


def test_block_pattern_of_one_block_and_of_none():
    assert block_pattern(["layers.3"]) == "layers.*"     # the index becomes * even with nothing to compare
    assert block_pattern([]) == ""


def test_common_pattern_root_and_star():
    assert common_pattern(["", "a.b"]) == ""                        # the root and a child: the root
    assert common_pattern(["layers.*.mlp", "layers.3.mlp"]) == "layers.*.mlp"   # * and an index: *


def test_short_pattern_of_the_root():
    assert short_pattern("", "blocks.*") == "*"          # the block's own forward
    assert short_pattern("", None) == ""                 # a whole model's own forward
    assert short_pattern(None, "blocks.*") == ""         # no pattern
    assert short_pattern(None, None) == ""


def test_frame_without_a_code_line():
    assert frames('  File "/m/a.py", line 3, in f\n') == [{"file": "/m/a.py", "line": 3, "function": "f",
                                                            "code": ""}]


def test_short_files_windows_and_three_parts():
    assert short_files([r"C:\a\model.py", r"C:\b\model.py"]) == {r"C:\a\model.py": "a/model.py",
                                                                r"C:\b\model.py": "b/model.py"}
    # /a/m.py splits to ["", "a", "m.py"]: the 2-part tail a/m.py is the first unique one
    assert short_files(["/a/m.py", "/b/m.py"]) == {"/a/m.py": "a/m.py", "/b/m.py": "b/m.py"}
