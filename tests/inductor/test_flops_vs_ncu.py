"""Annotated flops against ncu's measured FP operations on the recorded H100 run (examples/runs/flux-h100),
issue 10 item 2: within +-25% for the Inductor kernels holding >= 90% of Inductor time.

Each kernel file's live `KernelMetrics.for_source(...)` is called on its own `get_args()` (built on the CPU)
plus the constexprs Triton passes (launch_config: R0_BLOCK of the looped reductions), and compared with
(1) a count by hand, read off the kernel body (HAND below) and (2) ncu's `flops` (ncu/ncu.csv, read with csv:
fadd + fmul + 2 ffma for that very launch). Kernel time: an independent walk of proton/steps.hatchet.
"""
import csv
import json
import math
import re

import pytest
import torch

from inductor_prof.inductor.metrics import KernelMetrics
from recorded import REPO

RUN = REPO / "examples" / "runs" / "flux-h100"
KERNELS = RUN / "kernels"
ROWS = {r["file"]: r for r in json.loads((KERNELS / "kernels.json").read_text())}
FILES = sorted(ROWS)
TOLERANCE = 0.25     # issue 10: annotated within +-25% of ncu

# Flops per launch counted by hand from each body (tl.where selects, it does not branch: both sides of a cat
# are computed for every element). Weights: + - * / and unary minus on floats 1; libdevice.tanh 9.26, exp 1,
# rsqrt 0 (ncu's per-call counts, examples/calibration/math-flops-h100.json); integer index/mask arithmetic,
# loads, casts, tl.full constants 0; welford_reduce 7 per element; a cross-lane combine per lane: tl.sum 1, a
# Welford 10. A looped reduction's per-element ops run on every lane of each R0_BLOCK (the last block masked).
LN_ROW_4096 = 12 * 4096 + 10 * 4096 + 2  # layer norm row of 3072 at R0_BLOCK 4096: 90,114 (see below)
HAND = {
    # persistent RMS sum of squares, rows of 128 (R0_BLOCK 128 in the body: no padding, 128 lanes):
    # tmp2 = x*x 1 per element, tl.sum 1 per lane -> 2 x 128 per row; 12,288 rows -> 3,145,728
    "triton_per_fused__fused_rms_norm_view_3": 2 * 128 * 12288,
    "triton_per_fused__fused_rms_norm_view_4": 2 * 128 * 98304,         # 98,304 rows -> 25,165,824
    # two cat branches of /128, +eps, *x, *weight (4 each; rsqrt 0) -> 8 x 110,592 x 128 = 113,246,208
    "triton_poi_fused__fused_rms_norm_cat_view_5": 8 * 110592 * 128,
    # RoPE on q and k: tmp3, tmp20 (*), tmp10 (-x), tmp21 (+); tmp25, tmp33 (*), tmp27 (-x), tmp34 (+) -> 8;
    # `x3 % 2 < 1` is integer -> 8 x 14,155,776 = 113,246,208
    "triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_"
    "unsqueeze_view_6": 8 * 14155776,
    # a cat of two loads: comparisons of the row index only -> 0
    "triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_"
    "unsqueeze_view_7": 0,
    # tmp13 = gate * x, tmp14 = residual + tmp13 -> 2 x 14,155,776 = 28,311,552 (both sources)
    "triton_poi_fused_add_cat_mul_split_unsqueeze_view_4.d3285d9c3c1f": 2 * 14155776,
    "triton_poi_fused_add_cat_mul_split_unsqueeze_view_4.719876dd8b66": 2 * 14155776,
    # tmp3 *, tmp4 +, tmp7 *, tmp8 + -> 4 per element
    "triton_poi_fused_add_mul_split_unsqueeze_view_11": 4 * 1572864,       # 6,291,456
    "triton_poi_fused_add_mul_split_unsqueeze_view_13": 4 * 12582912,      # 50,331,648
    # tanh GELU: 6 mul + 2 add + tanh 9.26 = 17.26 per element (computed on all 70,778,880, the cat's first
    # 3072 columns included: 17.26 x 70,778,880 = 1,221,643,468.8)
    "triton_poi_fused_cat_gelu_permute_view_3": 1_221_643_469,
    "triton_poi_fused_gelu_view_10": 108_590_531,      # 17.26 x 6,291,456 = 108,590,530.56
    "triton_poi_fused_gelu_view_12": 868_724_244,      # 17.26 x 50,331,648 = 868,724,244.48
    # silu: -x 1, exp 1, + 1 1, x / (1 + e) 1 -> 4 x 3072 (both sources)
    "triton_poi_fused_silu_0.b47b35ff4d37": 4 * 3072,
    "triton_poi_fused_silu_0.f9a542950f4e": 4 * 3072,
    # RMS norm of q and k + RoPE, rows of 128 at R0_BLOCK 64 (the re-recorded run's launch_config, was 128: two
    # whole blocks per row, no padding, 64 lanes):
    #   per element: x*x and the running + in each of the two sum loops (4); third loop: 16 multiplies
    #   (tmp24 27 42 45 55 58 68 71 83 86 90 93 101 104 107 109), 2 negations (tmp29 60), 2 adds (tmp94 110) -> 24
    #   per lane: two tl.sum -> 2 (64 lanes)
    #   per row: six `sum / 128` + `+ eps` pairs (tmp20/22 38/40 52/53 65/66 79/81 98/99) -> 12; rsqrt 0
    #   24 x 128 + 2 x 64 + 12 = 3212 per row x 110,592 rows = 355,221,504
    "triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_permute_stack_"
    "unbind_unsqueeze_view_2": 3212 * 110592,
    # layer norm: welford_reduce 7 + x - mean, * rstd, scale + 1, * (1 + scale), + shift = 12 per element;
    # the Welford combine 10 per lane; var / 3072, + eps = 2 per row. R0_BLOCK 4096: one block of 4096 lanes
    # per row of 3072 -> 12 x 4096 + 10 x 4096 + 2 = 90,114 per row
    "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.14acf58c2c9a": LN_ROW_4096 * 4608,
    "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.cd1b7bc4b5a2": LN_ROW_4096 * 4608,
    # same body on 4096 image rows at R0_BLOCK 2048: two blocks (4096 lanes, the second half masked), 2048 lanes
    # for the combine -> 12 x 4096 + 10 x 2048 + 2 = 69,634 per row
    "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1": (12 * 4096 + 10 * 2048 + 2) * 4096,
    # the text norm (512 rows), at R0_BLOCK 2048 in the re-recorded run (was 4096): as _1 -> 69,634 per row
    "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2": (12 * 4096 + 10 * 2048 + 2) * 512,
    # + gate * residual before the norm (tmp3 *, tmp4 +) and again in the second loop (tmp16, tmp17): 12 + 4 = 16
    # per element. view_8: R0_BLOCK 1024 (re-recorded; was 512), three whole blocks per row ->
    # 16 x 3072 + 10 x 1024 + 2 = 59,394 per row
    "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8": (16 * 3072 + 10 * 1024 + 2) * 4096,
    # view_9: R0_BLOCK 2048 on 512 rows -> 16 x 4096 + 10 x 2048 + 2 = 86,018 per row
    "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9": (16 * 4096 + 10 * 2048 + 2) * 512,
}


def _stem(file: str) -> str:
    return file[:-len(".py")]


def _ncu_flops() -> dict[str, float]:
    with (RUN / "ncu" / "ncu.csv").open() as fh:
        return {r["stem"]: float(r["flops"]) for r in csv.DictReader(fh) if r["status"] == "ok"}


NCU = _ncu_flops()


def _live_flops(file: str) -> int:
    """launch_metadata's flops for the recorded launch: get_args() on the CPU + the launch's constexprs."""
    text = (KERNELS / file).read_text()
    name = ROWS[file]["name"]
    params = [p.split(":")[0].strip() for p in re.search(rf"def {name}\(([^)]*)\)", text).group(1).split(",")]
    ns = {"torch": torch,
          "rand_strided": lambda size, stride, device=None, dtype=None: torch.empty_strided(size, stride, dtype=dtype)}
    exec(text[text.index("def get_args():"):text.index("\ndef call(")], ns)
    values = list(ns["get_args"]())
    config = ROWS[file]["launch_config"]
    values += [config.get(p, 1) for p in params[len(values):]]      # XBLOCK, R0_BLOCK as Triton passes them
    body = text[text.index(f"def {name}("):text.index("\ndef get_args():")]
    metrics = KernelMetrics.for_source(name, body, ROWS[file]["heuristic"])
    return metrics((1, 1, 1), None, dict(zip(params, values)))["flops32"]


LIVE = {_stem(f): _live_flops(f) for f in FILES}


def test_every_inductor_kernel_has_a_hand_count_and_an_ncu_row():
    # 21 sources (18 names, 3 of them with two sources), each replayed by ncu
    assert len(FILES) == 21 and set(HAND) == set(LIVE) and set(HAND) <= set(NCU)


@pytest.mark.parametrize("stem", sorted(HAND), ids=lambda s: s if len(s) < 70 else f"{s[:40]}...{s[-25:]}")
def test_live_flops_equal_the_hand_count(stem):
    assert LIVE[stem] == HAND[stem]


def _ratio(stem: str) -> float:
    return LIVE[stem] / NCU[stem] if NCU[stem] else math.nan


def test_pointwise_kernels_agree_with_ncu_within_ten_percent():
    # adds and multiplies ptxas fuses into FFMA: ncu counts exactly the hand count for 5 sources
    exact = {"triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_stack_unbind_"
             "unsqueeze_view_6", "triton_poi_fused_add_cat_mul_split_unsqueeze_view_4.d3285d9c3c1f",
             "triton_poi_fused_add_cat_mul_split_unsqueeze_view_4.719876dd8b66",
             "triton_poi_fused_add_mul_split_unsqueeze_view_11", "triton_poi_fused_add_mul_split_unsqueeze_view_13"}
    assert all(LIVE[s] == NCU[s] for s in exact)
    # rms_norm_cat: 113,246,208 / 111,673,344 = 1.014
    assert _ratio("triton_poi_fused__fused_rms_norm_cat_view_5") == pytest.approx(1.0141, abs=1e-4)
    # GELU: ncu counted 120,010,595 / 6,291,456 = 19.075 per element in gelu_view_10, 960,080,440 / 50,331,648
    # = 19.075 in gelu_view_12 and 1,295,368,615 / 70,778,880 = 18.302 in the cat (same tanh code, other inputs:
    # libdevice's tanh takes another path for small |x|; 9.26 was measured on N(0, 1)):
    # 17.26 / 19.075 = 0.9048 twice, 17.26 / 18.301 = 0.9431
    gelu = {"triton_poi_fused_gelu_view_10": 108_590_531 / 120_010_595,
            "triton_poi_fused_gelu_view_12": 868_724_244 / 960_080_440,
            "triton_poi_fused_cat_gelu_permute_view_3": 1_221_643_469 / 1_295_368_615}
    assert {s: round(_ratio(s), 4) for s in gelu} == {s: round(r, 4) for s, r in gelu.items()} == \
        {"triton_poi_fused_gelu_view_10": 0.9048, "triton_poi_fused_gelu_view_12": 0.9048,
         "triton_poi_fused_cat_gelu_permute_view_3": 0.9431}
    pointwise = [s for s in HAND if s.startswith("triton_poi_") and NCU[s] and "silu" not in s]
    assert len(pointwise) == 9 and all(abs(_ratio(s) - 1) <= 0.10 for s in pointwise)


def test_reductions_against_ncu():
    # persistent RMS sums, 2 x 128 = 256 counted per row of 128. view_4 at XBLOCK 8: ncu 29,884,416 / 98,304 rows
    # = 304 per row (fadd 64, fmul 16, ffma 112) -> 0.842. view_3 now at XBLOCK 1 (the re-recorded launch_config,
    # was 32; ncu replayed it: 16 registers): ncu 7,077,888 / 12,288 rows = 576 per row (fadd 384, fmul 64,
    # ffma 64): the 128 squares are 64 fmul + 64 ffma on the 64 threads, but the one row's tl.sum is a
    # 64-thread shuffle tree, 6 adds per thread (384), where the model counts 1 per lane (128) -> 0.444, outside
    # the 25%: the per-lane model of tl.sum does not follow ncu when one row fills the block
    assert round(_ratio("triton_per_fused__fused_rms_norm_view_3"), 4) == round(256 / 576, 4) == 0.4444
    assert round(_ratio("triton_per_fused__fused_rms_norm_view_4"), 4) == round(256 / 304, 4) == 0.8421
    # the RMS norm + RoPE reduction at R0_BLOCK 64: 355,221,504 / 368,050,176 (3328 per row) = 3212 / 3328 = 0.9651
    assert _ratio("triton_red_fused__fused_rms_norm__scaled_dot_product_cudnn_attention__to_copy_add_mul_neg_"
                  "permute_stack_unbind_unsqueeze_view_2") == pytest.approx(3212 / 3328, rel=1e-12)
    # layer norms at R0_BLOCK 4096: ncu 494,272,512 / 4608 rows = 107,264 per row of 3072 (both sources of the
    # text+image norm), against 90,114 counted: 0.8401
    for stem in ("triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.14acf58c2c9a",
                 "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1.cd1b7bc4b5a2"):
        assert _ratio(stem) == pytest.approx(90_114 / 107_264, rel=1e-12), stem
    # view_8 at R0_BLOCK 1024: ncu 269,484,032 / 4096 rows = 65,792 per row against 59,394 counted: 0.9028
    assert _ratio("triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_8") == \
        pytest.approx(59_394 / 65_792, rel=1e-12)
    # at R0_BLOCK 2048 ncu counts about as much per row as at 4096 (415,236,096 / 4096 rows = 101,376 vs 107,264
    # for the image norm; the text norm _2, now at 2048 too: 52,953,088 / 512 rows = 103,424), while the model
    # halves the lanes of the combine: 69,634 / 101,376 = 0.687 and 69,634 / 103,424 = 0.673; view_9
    # 61,341,696 / 512 rows = 119,808 per row vs 86,018: 0.718 -- outside the 25%: the per-lane model of the
    # Welford combine does not follow ncu when the block shrinks
    assert _ratio("triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1") == \
        pytest.approx(69_634 / 101_376, rel=1e-12)
    assert _ratio("triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2") == \
        pytest.approx(69_634 / 103_424, rel=1e-12)
    assert _ratio("triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9") == \
        pytest.approx(86_018 / 119_808, rel=1e-12)


def _inductor_time_by_name() -> dict[str, int]:
    """Kernel time (ns) summed over the 10 profiled steps per Triton kernel name: proton/steps.hatchet walked
    with json (every frame named triton_*, at any depth)."""
    roots = json.loads((RUN / "proton" / "steps.hatchet").read_text())
    out: dict[str, int] = {}
    stack = [roots[0]]
    while stack:
        node = stack.pop()
        name = node.get("frame", {}).get("name", "")
        if name.startswith("triton_"):
            out[name] = out.get(name, 0) + node["metrics"]["time (ns)"]
        stack.extend(node.get("children", []))
    return out


def test_kernels_within_25_percent_hold_over_90_percent_of_inductor_time():
    # LIVE is counted at kernels.json's launch_config, the config ncu replayed (ncu/specs/*.json). In the
    # re-recorded annotated step the text+image layer norm (_1, cat) ran at R0_BLOCK 4096 in all 38 launches
    # (flops32 415,245,312 = 90,114 x 4608 each), the config recorded and replayed.
    for stem in sorted(HAND, key=lambda s: (NCU[s] == 0, _ratio(s))):      # shown with pytest -s
        print(f"{_ratio(stem):7.4f}  annotated {LIVE[stem]:>14,}  ncu {NCU[stem]:>16,.0f}  {stem}")
    time = _inductor_time_by_name()
    assert set(time) == {ROWS[f]["name"] for f in FILES}
    within_stem = {s: NCU[s] > 0 and abs(_ratio(s) - 1) <= TOLERANCE for s in HAND}
    by_name: dict[str, set[bool]] = {}
    for f in FILES:
        by_name.setdefault(ROWS[f]["name"], set()).add(within_stem[_stem(f)])
    # the sources that share a name agree, so a name's time is either all within or all outside
    assert all(len(v) == 1 for v in by_name.values())
    outside = {n for n, v in by_name.items() if v == {False}}
    # outside: silu (0.25, 0.09 ms a step), the RMS sum at XBLOCK 1 (view_3, 0.44), the three layer norms at
    # R0_BLOCK 2048 (_1 0.69, _2 0.67, view_9 0.72), and the cat copy with no FP op at all (0 annotated,
    # 0 measured: no ratio, not counted as agreeing)
    assert outside == {"triton_poi_fused_silu_0", "triton_per_fused__fused_rms_norm_view_3",
                       "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_1",
                       "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_2",
                       "triton_red_fused_add_mul_native_layer_norm_split_unsqueeze_view_9",
                       "triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy_add_cat_mul_neg_permute_"
                       "stack_unbind_unsqueeze_view_7"}
    # Inductor time over the 10 steps (the walk above; the same per-name totals `report --json --top 0` prints):
    # 185,670,288 ns in all; outside silu 907,138 + view_3 3,336,863 + layer norm _1 7,135,766 + _2 1,235,137 +
    # view_9 1,433,190 + the cat copy view_7 3,750,751 = 17,798,845 ns -> within
    # (185,670,288 - 17,798,845) / 185,670,288 = 90.41% (92.43% if the 0/0 copy counts as agreeing)
    total = sum(time.values())
    within = sum(t for n, t in time.items() if n not in outside)
    assert total == 185_670_288 and \
        total - within == 907_138 + 3_336_863 + 7_135_766 + 1_235_137 + 1_433_190 + 3_750_751 == 17_798_845
    assert within / total == pytest.approx(167_871_443 / 185_670_288, rel=1e-12)
    assert within / total >= 0.90
