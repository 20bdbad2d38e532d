"""inductor/module_paths.py: module paths, block patterns and source frames shortened, on small constructed
records (every expected value read off the input by hand)."""
from inductor_prof.inductor.module_paths import (block_of, block_pattern, common_pattern, folded, frames, listed,
                                                 relative_path, short_files, short_pattern)


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


def test_block_of_the_longest_pattern_first():
    blocks = ["single_transformer_blocks.*", "transformer_blocks.*"]
    assert block_of("single_transformer_blocks.*.attn.to_q", blocks) == "single_transformer_blocks.*"
    assert block_of("transformer_blocks.*", blocks) == "transformer_blocks.*"
    assert block_of("transformer_blocks_x.attn", blocks) is None and block_of("x_embedder", []) is None


def test_listed_writes_siblings_from_where_they_part():
    assert listed(["*.attn.to_q", "*.attn.to_k", "*.attn.to_v", "*.attn.to_out.0"]) == \
        "*.attn.to_q, to_k, to_v, to_out.0"
    assert listed(["*.norm1.linear", "*.norm1_context.linear"]) == "*.norm1.linear, norm1_context.linear"
    assert listed(["a.b", "a.b.c"]) == "a.b, a.b.c" and listed(["a.b.c", "a.b"]) == "a.b.c, a.b"   # no "c" alone
    assert listed(["x.a", "y.a", "x.a"]) == "x.a, y.a" and listed([]) == ""


def test_folded_counts_the_paths_a_pattern_stands_for():
    # an SD-style UNet: 3 down blocks x 5 attentions, q/k/v each: 45 paths, 3 patterns of 15
    paths = [f"down_blocks.{i}.attentions.{j}.transformer_blocks.0.attn1.{x}"
             for i in range(3) for j in range(5) for x in ("to_q", "to_k", "to_v")]
    assert folded(paths) == "down_blocks.*.attentions.*.transformer_blocks.*.attn1.to_q, to_k, to_v ×15"
    # counts that differ are said each; a path alone keeps its indices
    assert folded(["a.0.x", "a.1.x", "b.2.y"]) == "a.*.x ×2, b.2.y"
    assert folded(["blocks.3.attn.to_q"]) == "blocks.3.attn.to_q"
    assert folded([]) == ""
    # a regional block's prefix shown as `*` after folding (the count still of the paths)
    assert folded(["tb.0.attn.to_q", "tb.1.attn.to_q"], lambda p: short_pattern(p, "tb.*")) == "*.attn.to_q ×2"
