"""analysis/library_calls.py: a library kernel's calls by shape, from the recorded library_ops.csv of
examples/runs/flux-h100 (FLUX.1-dev on the H100, one traced step) and examples/runs/llama-h100, through the
public functions (calls_by_shape, with_best, shape_rows, by_kernel, top_shapes); the calls ncu replays
(replay_calls) and a call in short (call_label), on constructed rows."""
import json

import pandas as pd
import pytest

from recorded import REPO
from inductor_prof import runfiles
from inductor_prof.analysis import library_calls

FLUX = REPO / "examples" / "runs" / "flux-h100"
LLAMA = REPO / "examples" / "runs" / "llama-h100"
K256 = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"
BLOCKS = ["single_transformer_blocks.*", "transformer_blocks.*"]   # kernels.block_patterns: the longest first
# the kernel table around it, by hand: 23.286 ms/step of the GEMM and 76.714 of the rest, 100 ms of GPU time a
# step, so a shape's % of GPU time is its ms per step
KERNELS = pd.DataFrame([{"name": K256, "origin": "library", "step_ms": 23.286},
                        {"name": "triton_poi_fused_x_0", "origin": "inductor", "step_ms": 76.714}])
# bf16 roof 800 TFLOP/s, DRAM 3000 GB/s: the ridge at 266.7 flop/B
PEAKS = {"tflops": {"flops16": 800.0}, "dram_gbps": 3000.0, "source": {"flops16": "measured", "dram_gbps": "measured"}}


def _shapes(run):
    manifest = runfiles.manifest_file(run / "manifest.json")
    ops = runfiles.library_ops_file(run / "library_ops.csv")
    return library_calls.with_best(library_calls.calls_by_shape(ops),
                                   library_calls.replay_times(manifest.get("ceilings")))


@pytest.fixture(scope="module")
def flux_rows():
    return library_calls.shape_rows(_shapes(FLUX), KERNELS, PEAKS, BLOCKS)


def test_the_256x128_gemm_by_shape_by_hand(flux_rows):
    rows = flux_rows[flux_rows["name"] == K256]
    # library_ops.csv holds 115 launches of the kernel in its one traced step, all aten::addmm:
    #   76 of [4096,3072]x[3072,3072] (dims [[3072], [4096, 3072], [3072, 3072], [], [], [4096, 3072]]), their
    #      dur_ns summing to 7,599,610: 76 calls a step, 7,599,610 / 76 = 99,994.87 ns = 99.995 us a call,
    #      7.59961 ms a step, 7.59961 of the table's 100 ms of GPU time a step = 7.59961 %
    #   19 of [4096,3072]x[3072,12288] summing to 7,431,287 ns, 19 of [4096,12288]x[12288,3072] to 7,091,411,
    #    1 of [4096,64]x[64,3072] (x_embedder, outside the compiled blocks: no module) of 10,944
    # so by time, the longest first:
    assert list(rows["shape"]) == ["[4096,3072]x[3072,3072]", "[4096,3072]x[3072,12288]",
                                   "[4096,12288]x[12288,3072]", "[4096,64]x[64,3072]"]
    assert list(rows["calls_per_step"]) == [76, 19, 19, 1]
    assert list(rows["op"]) == ["aten::addmm"] * 4
    top = rows.iloc[0]
    assert top["avg_us"] == pytest.approx(7_599_610 / 76 / 1e3, rel=1e-12)
    assert top["step_ms"] == pytest.approx(7.59961, rel=1e-12)
    assert top["pct_of_gpu_time"] == pytest.approx(7.59961, rel=1e-9)
    # its share of the kernel's traced 22,133,252 ns (7,599,610 + 7,431,287 + 7,091,411 + 10,944)
    assert top["share_of_kernel"] == pytest.approx(7_599_610 / 22_133_252, rel=1e-12)
    # 2 x 4096 x 3072 x 3072 = 77,309,411,328 flop a call; bf16 bytes (bias 3072 + A 4096x3072 + B 3072x3072 +
    # out 4096x3072 = 34,606,080 elements) x 2 = 69,212,160 B; in 99.99487 us: 773.13 TFLOP/s and 692.16 GB/s;
    # 1117 flop/B is above the ridge: compute-bound, at 773.13 / 800 = 96.64% of the bf16 roof
    assert top["flops_per_call"] == 77_309_411_328 and top["bytes_per_call"] == 69_212_160
    assert top["tflops"] == pytest.approx(77_309_411_328 / (7_599_610 / 76 * 1e-9) / 1e12, rel=1e-9)
    assert top["tflops"] == pytest.approx(773.13, abs=0.01) and top["gbps"] == pytest.approx(692.16, abs=0.01)
    assert top["bound"] == "compute" and top["pct_of_peak"] == pytest.approx(96.64, abs=0.01)
    assert top["modules"] == [f"transformer_blocks.*.attn.{m}" for m in ("to_q", "to_k", "to_v", "to_out.0")]
    assert top["module"] == "*.attn.to_q, to_k, to_v, to_out.0"
    assert list(rows["module"])[1:] == ["*.ff.net.0.proj", "*.ff.net.2", "-"]


def test_best_time_only_where_the_ceilings_stage_replayed_the_call(flux_rows):
    rows = flux_rows[flux_rows["name"] == K256].set_index("shape")
    # the manifest's replay of addmm [[3072], [4096, 3072], [3072, 3072]] took 0.11576 ms a call, slower than the
    # model's own 99.995 us: that is the best time measured for the call here
    assert rows.at["[4096,3072]x[3072,3072]", "replay_us"] == pytest.approx(115.76, abs=0.01)
    assert rows.at["[4096,3072]x[3072,3072]", "best_us"] == rows.at["[4096,3072]x[3072,3072]", "avg_us"]
    assert pd.isna(rows.at["[4096,64]x[64,3072]", "best_us"])      # never replayed


def test_only_library_kernels_of_the_table_get_shapes(flux_rows):
    assert set(flux_rows["name"]) == {K256}        # KERNELS holds no other library kernel
    assert library_calls.shape_rows(_shapes(FLUX), KERNELS.iloc[1:], PEAKS, BLOCKS).empty


def test_each_kernel_by_time_the_longest_first():
    rows = library_calls.shape_rows(_shapes(FLUX), KERNELS.assign(origin="library", name=[
        K256, "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN"]), PEAKS, BLOCKS)
    for _, g in rows.groupby("name"):
        assert list(g["step_ms"]) == sorted(g["step_ms"], reverse=True)
    # the 192x192 kernel: proj_out 20.68 ms, proj_mlp 17.48, to_q/k/v 13.68 a step
    big = rows[rows["name"] != K256]
    assert list(big["shape"]) == ["[4608,15360]x[15360,3072]", "[4608,3072]x[3072,12288]", "[4608,3072]x[3072,3072]"]
    assert list(big["calls_per_step"]) == [38, 38, 114]


def test_llama_mm_shapes_of_one_kernel():
    kernels = pd.DataFrame([{"name": K256.replace("_bias_TNT", "_TNT"), "origin": "library", "step_ms": 10.0}])
    rows = library_calls.shape_rows(_shapes(LLAMA), kernels, PEAKS, ["layers.*"])
    # library_ops.csv: 16 mm calls of [4096,2048]x[2048,8192] summing to 2,784,172 ns (gate_proj, up_proj), 8 of
    # [4096,8192]x[8192,2048] to 1,323,508 (down_proj), 16 of [4096,2048]x[2048,2048] to 720,106 (q_proj, o_proj)
    assert list(zip(rows["shape"], rows["calls_per_step"], rows["module"])) == [
        ("[4096,2048]x[2048,8192]", 16, "*.mlp.gate_proj, up_proj"), ("[4096,8192]x[8192,2048]", 8, "*.mlp.down_proj"),
        ("[4096,2048]x[2048,2048]", 16, "*.self_attn.q_proj, o_proj")]
    assert list(rows["avg_us"]) == pytest.approx([2_784_172 / 16e3, 1_323_508 / 8e3, 720_106 / 16e3], rel=1e-12)


def test_by_kernel_nests_records_without_nan(flux_rows):
    nested = library_calls.by_kernel(flux_rows)
    assert list(nested) == [K256] and [s["shape"] for s in nested[K256]][:1] == ["[4096,3072]x[3072,3072]"]
    assert "name" not in nested[K256][0]
    assert nested[K256][3]["best_us"] is None      # not NaN: two loads of a run compare equal


def test_top_shapes_says_the_rest_in_one():
    shapes = [{"shape": s, "step_ms": ms, "pct_of_gpu_time": ms / 2} for s, ms in
              (("a", 4.0), ("b", 2.0), ("c", 1.0), ("d", 0.5))]
    assert library_calls.top_shapes(shapes, 3) == (shapes, None)        # a rest of one is shown itself
    shown, rest = library_calls.top_shapes(shapes, 2)
    assert shown == shapes[:2] and rest == {"shapes": 2, "step_ms": 1.5, "pct_of_gpu_time": 0.75}


def test_runs_without_modules_or_timings():
    ops = pd.DataFrame([{"kernel": "k", "op": "aten::mm", "dims": "[[2, 3], [3, 4]]", "dur_ns": 2000.0,
                         "flops": 48, "bytes": 40, "flops_key": "flops32"}])
    shapes = library_calls.calls_by_shape(ops)
    assert shapes["modules"].tolist() == [None]
    rows = library_calls.shape_rows(shapes, pd.DataFrame([{"name": "k", "origin": "library", "step_ms": 1.0}]),
                                    PEAKS)
    assert rows["module"].tolist() == [""] and rows["shape"].tolist() == ["[2,3]x[3,4]"]
    assert library_calls.calls_by_shape(ops.drop(columns="dur_ns")).empty


def test_modules_by_unions_each_groups_cells_in_order():
    ops = pd.DataFrame({"kernel": ["k", "k", "j", "k", "j"], "op": ["mm"] * 5,
                        "modules": ['["a", "b"]', '["c", "a"]', "", '["a", "b"]', '["d"]']})
    assert library_calls.modules_by(ops, ["kernel"]) == {("k",): ["a", "b", "c"], ("j",): ["d"]}
    assert library_calls.modules_by(ops.iloc[[2]], ["kernel", "op"]) == {("j", "mm"): []}


def test_a_dims_cell_keys_one_call_however_it_is_spaced():
    assert library_calls._canonical("[[2,3],[3, 4]]") == library_calls._canonical([[2, 3], [3, 4]]) == \
        "[[2, 3], [3, 4]]"


# ---- the calls ncu replays, a call in short ----------------------------------------------------------------------

def test_ncu_replays_the_costliest_call_of_each_kernel_and_the_calls_above_the_share():
    big = json.dumps([[3072], [4096, 3072], [3072, 3072], [], [], [4096, 3072]])
    small = json.dumps([[3072], [4096, 64], [64, 3072], [], [], [4096, 3072]])
    mid = json.dumps([[3072], [512, 3072], [3072, 3072], [], [], [512, 3072]])
    rows = [("nvjet_a", "aten::addmm", small, 12e3)]                  # first seen: the old pick (K = 64)
    rows += [("nvjet_a", "aten::addmm", big, 200e3)] * 3              # 600 us: the kernel's time
    rows += [("nvjet_a", "aten::addmm", mid, 20e3)] * 2               # 40 us
    rows += [("cudnn", "aten::_cudnn_attention_forward", "[]", 300e3)]
    ops = pd.DataFrame([{"kernel": k, "op": o, "dims": d, "dur_ns": t, "strides": "[]", "types": "[]",
                         "scalars": "[]"} for k, o, d, t in rows])
    # step 952 us: big 600/952 = 63.0%, mid 40/952 = 4.2%, small 12/952 = 1.3%, attention 300/952 = 31.5%
    got = library_calls.replay_calls(ops, ["nvjet_a", "cudnn"], n_library=2, min_share_pct=2.0,
                                     replayable=("aten::addmm", "aten::_cudnn_attention_forward"))
    assert [(g["kernel"], g["dims"]) for g in got] == [("nvjet_a", big), ("nvjet_a", mid), ("cudnn", "[]")]
    assert got[0]["calls"] == 3 and got[0]["us_per_call"] == pytest.approx(200.0)
    assert got[1]["share_pct"] == pytest.approx(100 * 40 / 952)
    # one kernel only: its costliest call
    assert len(library_calls.replay_calls(ops, ["nvjet_a", "cudnn"], 1, 50.0, ("aten::addmm",))) == 1


@pytest.mark.parametrize("op, dims, label", [
    # addmm: bias, mat1, mat2, 2 scalars, out=
    ("aten::addmm", [[3072], [4096, 3072], [3072, 3072], [], [], [4096, 3072]], "[4096,3072]x[3072,3072]"),
    ("aten::mm", [[4096, 2048], [2048, 8192], [4096, 8192]], "[4096,2048]x[2048,8192]"),
    ("aten::bmm", [[8, 64, 32], [8, 32, 16]], "8x[64,32]x[32,16]"),
    ("aten::_cudnn_attention_forward", [[1, 24, 4608, 128]] * 3 + [[]] * 10,
     "_cudnn_attention_forward [1,24,4608,128] [1,24,4608,128] [1,24,4608,128]"),
    ("aten::fill_", [[], []], "fill_"),       # no input tensor: the op alone
    # fp8-mlp-h200's down projection: a, b, then row-wise scales [8192,1] and [1,4096] (matrices too), out=
    ("aten::_scaled_mm", [[8192, 14336], [14336, 4096], [8192, 1], [1, 4096], [], [], [], [], [8192, 4096]],
     "[8192,14336]x[14336,4096]"),
])
def test_call_label(op, dims, label):
    assert library_calls.call_label(op, json.dumps(dims)) == label


# ---- hand-made library_ops rows (mutation audit) ----

BIG, SMALL = "[[4096, 3072]]", "[[4096, 64]]"


def _ops(rows):
    return pd.DataFrame([{"kernel": k, "op": "aten::addmm", "dims": d, "dur_ns": t, "strides": s, "types": "[]",
                          "scalars": "[]", "flops": 1, "bytes": 1} for k, d, t, s in rows])


def test_a_call_at_exactly_the_share_is_replayed_and_its_first_record_kept():
    # nvjet: the big call 3 x 100 us (75% of the 400 us step), the small one 1 x 100 us: exactly 25%
    ops = _ops([("nvjet", BIG, 100e3, "first"), ("nvjet", BIG, 100e3, "second"), ("nvjet", BIG, 100e3, "third"),
                ("nvjet", SMALL, 100e3, "only")])
    got = library_calls.replay_calls(ops, ["nvjet"], n_library=1, min_share_pct=25.0, replayable=("aten::addmm",))
    assert [(g["kernel"], g["op"], g["dims"], g["calls"], g["strides"]) for g in got] == [
        ("nvjet", "aten::addmm", BIG, 3, "first"), ("nvjet", "aten::addmm", SMALL, 1, "only")]
    assert [g["share_pct"] for g in got] == [75.0, 25.0] and got[0]["us_per_call"] == 100.0
    # past the share: the costliest call alone
    assert len(library_calls.replay_calls(ops, ["nvjet"], 1, 25.1, ("aten::addmm",))) == 1


def test_nothing_to_replay():
    ops = _ops([("nvjet", BIG, 100e3, "s")])
    assert library_calls.replay_calls(None, ["nvjet"], 1, 1.0, ("aten::addmm",)) == []
    assert library_calls.replay_calls(pd.DataFrame(), ["nvjet"], 1, 1.0, ("aten::addmm",)) == []
    assert library_calls.replay_calls(ops, ["nvjet"], 0, 1.0, ("aten::addmm",)) == []
    assert library_calls.replay_calls(ops, ["nvjet", "other"], -1, 1.0, ("aten::addmm",)) == []
    # a kernel with no replayable call: none of its calls
    assert library_calls.replay_calls(ops, ["nvjet"], 1, 1.0, ("aten::mm",)) == []


def test_a_step_of_no_time_replays_the_costliest_call_only():
    ops = _ops([("nvjet", BIG, 0.0, "s"), ("nvjet", SMALL, 0.0, "s")])
    got = library_calls.replay_calls(ops, ["nvjet"], 1, 0.0, ("aten::addmm",))
    # share 0% each: the first (costliest, here the first seen) always, the other at a 0% share too
    assert [g["share_pct"] for g in got] == [0.0, 0.0]


def test_replay_times_and_the_best_time_of_each_call():
    ceilings = {"gemms": [{"op": "aten::addmm", "dims": [[4096, 3072]], "ms": 0.09},   # a list: one spelling
                          {"op": "aten::addmm", "dims": SMALL},                         # no time: not a replay
                          {"shape": "8192x8192x8192 bf16", "tflops": 700.0}, "not a dict"]}
    replays = library_calls.replay_times(ceilings)
    assert replays == {("aten::addmm", BIG): 0.09}
    assert library_calls.replay_times(None) == {} and library_calls.replay_times({"gemms": None}) == {}
    calls = library_calls.calls_by_shape(_ops([("nvjet", BIG, 100e3, "s"), ("nvjet", SMALL, 50e3, "s")]))
    best = library_calls.with_best(calls, replays)
    # the big call: 100 us traced, 90 us replayed -> best 90; the small one: not replayed -> no best
    assert list(best["replay_us"].fillna(-1)) == [pytest.approx(90.0), -1]
    assert best["best_us"].iloc[0] == pytest.approx(90.0) and pd.isna(best["best_us"].iloc[1])
    assert list(best["ms"]) == [0.1, 0.05]


def test_call_label_of_lists_batched_products_and_other_ops():
    # dims as a list (not its JSON text); baddbmm's inputs: the added tensor, then the two batches
    assert library_calls.call_label("aten::mm", [[64, 32], [32, 16]]) == "[64,32]x[32,16]"
    assert library_calls.call_label("aten::baddbmm", [[8, 64, 16], [8, 64, 32], [8, 32, 16]]) == "8x[64,32]x[32,16]"
    # an op of no namespace, and at most its first three input tensors
    assert library_calls.call_label("my_op", [[1], [2], [3], [4], "x"]) == "my_op [1] [2] [3]"
