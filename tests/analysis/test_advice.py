"""Where to look next (analysis/advice.py), on small hand-made tables whose savings are worked out by hand."""
import json

import pandas as pd
import pytest

from inductor_prof.analysis import advice, library_calls


def _kernels(*rows):
    base = {"origin": "inductor", "category": "Inductor pointwise", "bound": "memory", "ceiling": "DRAM (measured)",
            "pct_of_peak": 50.0, "sol_ms_per_step": 1.0, "step_ms": 3.0, "calls_per_step": 10.0}
    return pd.DataFrame([{**base, **r} for r in rows])


def _ranked(df, gap_ms=None, attention=(), gemm_shapes=None):
    return advice.rank(advice.per_shape(df, gemm_shapes, list(attention)), gap_ms, list(attention))


def test_the_launch_gap_is_the_plain_step_less_gpu_busy_and_ranks_with_kernels():
    df = _kernels({"name": "k1", "display": "k1", "headroom_ms_per_step": 2.0},
                  {"name": "k2", "display": "k2", "headroom_ms_per_step": 0.5})
    items = _ranked(df, gap_ms=1.0)
    # 2.0 (k1) > 1.0 (gap) > 0.5 (k2)
    assert [i["what"] for i in items] == ["k1", "launch overhead and idle", "k2"]
    assert items[1]["why"] == "plain step (no profiler) minus GPU-busy time"
    assert items[0]["why"] == "50% of DRAM (measured)" and items[0]["do"] == advice.DO["memory"]


def test_no_gap_item_when_the_plain_step_is_not_longer_than_gpu_busy():
    df = _kernels({"name": "k1", "display": "k1", "headroom_ms_per_step": 2.0})
    assert [i["what"] for i in _ranked(df, gap_ms=-0.3)] == ["k1"]
    assert [i["what"] for i in _ranked(df, gap_ms=None)] == ["k1"]


def _attention_kernel(headroom, calls=4.0, step_ms=3.452):
    return _kernels({"name": "cudnn_fwd", "display": "cudnn_fwd", "origin": "library", "category": "attention",
                     "bound": "compute", "ceiling": "bf16/fp16 tensor (reached)", "pct_of_peak": 40.0,
                     "headroom_ms_per_step": headroom, "calls_per_step": calls, "step_ms": step_ms})


SAVING = {"shape": "(1,32/8,4096,128),window=1024", "model_backend": "sdpa_cudnn", "best_backend": "flex_compiled",
          "model_ms": 0.863, "best_ms": 0.209, "calls_per_step": 4.0, "kernels": ["cudnn_fwd"],
          # 4 calls x (0.863 - 0.209) ms = 2.616 ms per step
          "saving_ms_per_step": 2.616}


def test_an_attention_kernel_whose_calls_were_benchmarked_is_judged_against_the_fastest_backend():
    # all 4 of its calls per step benchmarked: the headroom is the measured 2.616, not its 3.0 to the tensor roof
    items = _ranked(_attention_kernel(3.0), attention=[SAVING])
    assert len(items) == 1                          # not a kernel item and a backend item for the same time
    assert items[0]["headroom_ms_per_step"] == pytest.approx(2.616)
    assert items[0]["do"] == "use flex_compiled for (1,32/8,4096,128),window=1024"
    assert items[0]["why"] == ("flex_compiled 0.209 vs sdpa_cudnn 0.863 ms a call, timed side by side; "
                               "40% of bf16/fp16 tensor (reached)")


def test_an_attention_kernel_keeps_its_roofline_headroom_for_calls_no_benchmark_covered():
    # 8 calls a step at 0.863 ms: 6.904 ms; the benchmark covered 4 of them (half its time): 2.616 measured
    # + 3.0 x 1/2 of the roofline headroom = 4.116
    items = _ranked(_attention_kernel(3.0, calls=8.0, step_ms=6.904), attention=[SAVING])
    assert items[0]["headroom_ms_per_step"] == pytest.approx(2.616 + 1.5)


def test_a_model_backend_that_is_the_fastest_has_no_headroom_from_its_benchmarked_calls():
    same = {**SAVING, "best_backend": "sdpa_cudnn", "best_ms": 0.863, "saving_ms_per_step": 0.0}
    judged = advice.per_shape(_attention_kernel(3.0), None, [same])
    assert judged["headroom_ms_per_step"].iloc[0] == 0.0
    assert judged["do"].iloc[0] == "nothing faster was measured for its calls"


def test_a_faster_backend_for_calls_whose_kernel_is_not_in_the_table_is_its_own_item():
    items = _ranked(_attention_kernel(1.0), attention=[{**SAVING, "kernels": ["other"]}])
    assert [i["headroom_ms_per_step"] for i in items] == [pytest.approx(2.616), 1.0]
    assert items[0]["what"] == "attention (1,32/8,4096,128),window=1024"


def _gemm_calls(replay_ms: float | None, template_ms: float | None = None):
    # addmm's recorded dims: bias, mat1, mat2, two scalars, then the out= tensor
    big = json.dumps([[3072], [4096, 3072], [3072, 3072], [], [], [4096, 3072]])
    small = json.dumps([[3072], [4096, 64], [64, 3072], [], []])
    ops = pd.DataFrame([
        # 2 calls of the big shape at 200 and 210 us (mean 205), 1 of the small one at 12 us, in one traced step
        {"kernel": "nvjet_a", "op": "aten::addmm", "dims": big, "dur_ns": 200e3, "flops": 1, "bytes": 1},
        {"kernel": "nvjet_a", "op": "aten::addmm", "dims": big, "dur_ns": 210e3, "flops": 1, "bytes": 1},
        {"kernel": "nvjet_a", "op": "aten::addmm", "dims": small, "dur_ns": 12e3, "flops": 1, "bytes": 1},
    ])
    row = {"op": "aten::addmm", "dims": big, **({"ms": replay_ms} if replay_ms else {}),
           **({"template_ms": template_ms} if template_ms else {"template_error": "no config fits"})}
    ceilings = {"gemms": [row] if replay_ms or template_ms else []}
    return library_calls.with_best(library_calls.calls_by_shape(ops), library_calls.replay_times(ceilings),
                                   library_calls.template_times(ceilings))


def _gemm_kernel(headroom):
    return _kernels({"name": "nvjet_a", "display": "nvjet_a", "origin": "library", "category": "GEMM",
                     "bound": "compute", "ceiling": "bf16/fp16 tensor (reached)", "pct_of_peak": 90.0,
                     "headroom_ms_per_step": headroom, "step_ms": 0.422})


def test_calls_by_shape_per_kernel():
    calls = _gemm_calls(0.180)
    assert list(calls["calls"]) == [2, 1] and list(calls["us_per_call"]) == [205.0, 12.0]
    # 410 of the kernel's 422 us are in the big shape
    assert calls["share_of_kernel"].iloc[0] == pytest.approx(410 / 422)


def test_a_gemm_is_judged_per_shape_against_the_best_time_measured_for_that_call():
    # replay 180 us a call: 2 calls x (205 - 180) us = 0.050 ms; the small shape (12 of 422 us) was not replayed,
    # so it keeps its share of the roofline headroom: 0.422 ms x 12/422 = 0.012 ms; together 0.062 ms
    items = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.180))
    assert items[0]["headroom_ms_per_step"] == pytest.approx(0.050 + 0.012)
    assert items[0]["why"].startswith("a replay of the same call is faster: [4096,3072]x[3072,3072] 180 vs 205 us")


def test_a_gemm_as_fast_as_its_shape_gets_keeps_only_the_unreplayed_share():
    # the replay is slower (230 us): the model's own 205 us is the best measured, nothing to gain in that shape
    items = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.230))
    assert items[0]["headroom_ms_per_step"] == pytest.approx(0.012)
    assert items[0]["why"].startswith("as fast as this shape gets here")


def test_a_gemm_without_a_replay_keeps_its_roofline_headroom():
    items = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(None))
    assert items[0]["headroom_ms_per_step"] == pytest.approx(0.422) and items[0]["why"] == \
        "90% of bf16/fp16 tensor (reached)"


def test_the_best_time_of_a_call_is_the_fastest_of_the_model_the_replay_and_the_template():
    # big shape: model 205 us, replay 230 us, template 190 us -> 190; the small shape was measured by neither
    calls = _gemm_calls(0.230, 0.190)
    assert calls["replay_us"].iloc[0] == pytest.approx(230) and calls["template_us"].iloc[0] == pytest.approx(190)
    assert calls["best_us"].iloc[0] == pytest.approx(190) and calls["best_us"].isna().iloc[1]
    # a template that was tried but did not compile leaves the best to the replay
    assert _gemm_calls(0.180)["best_us"].iloc[0] == pytest.approx(180)


def test_a_faster_inductor_template_is_the_gemm_item_with_its_saving():
    # template 190 us vs the model's 205 (replay 230): 2 calls x 15 us = 0.030 ms, plus the small shape's
    # roofline share 0.012 ms (as above)
    items = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.230, 0.190))
    assert items[0]["headroom_ms_per_step"] == pytest.approx(0.030 + 0.012)
    assert items[0]["why"] == "Inductor's Triton template is faster: [4096,3072]x[3072,3072] 190 vs 205 us"
    assert "max-autotune" in items[0]["do"]


def test_a_gemm_faster_than_its_template_and_replay_names_both():
    items = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.230, 0.240))
    assert items[0]["headroom_ms_per_step"] == pytest.approx(0.012)
    assert items[0]["why"] == ("as fast as this shape gets here: [4096,3072]x[3072,3072] 205 us a call; "
                               "a cuBLAS replay 230 us; Inductor's Triton template 240 us")


def test_a_template_alone_judges_a_call_no_replay_measured():
    items = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(None, 0.195))
    # 2 x (205 - 195) us = 0.020 ms + 0.012 ms
    assert items[0]["headroom_ms_per_step"] == pytest.approx(0.032)
    assert items[0]["why"].startswith("Inductor's Triton template is faster")


def test_kernels_by_shape_from_captured_calls():
    calls = [{"op": "aten::_cudnn_attention_forward", "B": 1, "H": 24, "Sq": 4608, "Sk": 4608, "D": 128,
              "dtype": "bfloat16", "causal": False, "mask": False, "kernel": "cudnn_fwd"}] * 2
    assert advice.kernels_by_shape(calls) == {"(1,24,4608,128)": ["cudnn_fwd"]}


def test_the_model_backend_of_a_flexattention_call_is_flex_compiled():
    from inductor_prof.attention.benchmark.bench import model_backend_of

    assert model_backend_of("flex_attention") == "flex_compiled"
    assert model_backend_of("aten::_scaled_dot_product_cudnn_attention") == "sdpa_cudnn"
    assert model_backend_of("sdpa") == "sdpa"


# ---- mutation audit: the attention judgement's edges ------------------------------------------------------------

def test_the_best_of_several_benchmarked_shapes_is_said_and_the_savings_add_up():
    # two shapes of one kernel: 0.5 ms (under 1 ms: still a saving) and 0.2 ms; 2 calls each of 4 a step covered
    small = {**SAVING, "shape": "(1,8,128,64)", "best_backend": "gluon_fa3", "best_ms": 0.1, "model_ms": 0.35,
             "calls_per_step": 2.0, "saving_ms_per_step": 0.5}
    tiny = {**SAVING, "shape": "(1,8,64,64)", "best_backend": "triton_fa2", "best_ms": 0.2, "model_ms": 0.3,
            "calls_per_step": 2.0, "saving_ms_per_step": 0.2}
    judged = advice.per_shape(_attention_kernel(3.0, calls=4.0, step_ms=1.2), None, [tiny, small]).iloc[0]
    # every call covered (2 + 2 of 4): the measured 0.7 alone; the larger saving's backend is the one said
    assert judged["headroom_ms_per_step"] == pytest.approx(0.7)
    assert judged["do"] == "use gluon_fa3 for (1,8,128,64)"
    assert judged["headroom_vs"] == "gluon_fa3 0.100 vs sdpa_cudnn 0.350 ms a call, timed side by side; 40% of bf16/fp16 " \
                            "tensor (reached)"
    assert judged["sol_ms_per_step"] == pytest.approx(1.2 - 0.7)


def test_an_attention_kernel_with_no_ceiling_and_no_faster_backend():
    same = {**SAVING, "best_backend": "sdpa_cudnn", "best_ms": 0.863, "saving_ms_per_step": 0.0}
    df = _attention_kernel(3.0)
    df["ceiling"] = ""
    judged = advice.per_shape(df, None, [same]).iloc[0]
    assert judged["headroom_vs"] == "its backend (sdpa_cudnn) is the fastest measured for (1,32/8,4096,128),window=1024; "
    # half its calls covered: half its roofline headroom stays
    half = advice.per_shape(_attention_kernel(3.0, calls=8.0, step_ms=6.904), None, [same]).iloc[0]
    assert half["headroom_ms_per_step"] == pytest.approx(1.5)


def test_the_share_of_an_attention_kernels_time_its_benchmarks_cover():
    # half a call a step of 1 ms (2 ms a call); the benchmark covered a quarter call a step: half its time, so
    # 0.1 measured + 3.0 x 1/2 of the roofline headroom
    quarter = {**SAVING, "calls_per_step": 0.25, "saving_ms_per_step": 0.1}
    judged = advice.per_shape(_attention_kernel(3.0, calls=0.5, step_ms=1.0), None, [quarter]).iloc[0]
    assert judged["headroom_ms_per_step"] == pytest.approx(0.1 + 1.5)
    # more benchmarked calls than the kernel ran: all of it covered, never more
    judged = advice.per_shape(_attention_kernel(3.0, calls=4.0, step_ms=3.452), None,
                              [{**SAVING, "calls_per_step": 8.0}]).iloc[0]
    assert judged["headroom_ms_per_step"] == pytest.approx(2.616)
    # a kernel of no calls and no time: nothing covered, no division by zero
    judged = advice.per_shape(_attention_kernel(3.0, calls=0.0, step_ms=0.0), None, [SAVING]).iloc[0]
    assert judged["headroom_ms_per_step"] == pytest.approx(2.616 + 3.0)


# ---- mutation audit (issue 30): what each judgement says to do, and the edges of the ranking ------------------

def test_each_gemm_judgement_says_what_to_do():
    # as fast as its shape gets (replay 230 > the model's 205 us): nothing to do for the replayed calls; 12 of
    # the kernel's 422 us (2.8%, over the 2% AT_BEST) are in the small shape no replay measured
    fast = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.230))[0]
    # no headroom without an action: the item is the other calls' share, with the roofline's action for them
    assert fast["do"] == ("its other calls (3% of its time): a faster kernel, or less work; the measured ones are "
                          "as fast as they get here")
    # a faster replay (180 us): look at the model's call itself
    replay = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.180))[0]
    assert replay["do"] == "find why the model's call is slower (layout, alignment, its epilogue)"
    # a faster template (190 us, replay 230): recompile
    template = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.230, 0.190))[0]
    assert template["do"] == "compile with mode=max-autotune (Inductor then picks its template for this shape)"


def test_a_gemm_whose_every_call_was_measured_says_nothing_of_other_calls():
    # both shapes replayed slower than the model's own: 0 saving, no unmeasured share, no "(..% in others)"
    calls = _gemm_calls(0.230)
    calls["replay_us"], calls["best_us"] = [230.0, 20.0], [205.0, 12.0]
    item = _ranked(_gemm_kernel(0.422), gemm_shapes=calls)
    assert item == []                                   # no headroom left: not an item
    judged = advice.per_shape(_gemm_kernel(0.422), calls).iloc[0]
    assert (judged["headroom_ms_per_step"], judged["do"]) == (0.0, "nothing for its measured calls")


def test_a_template_as_fast_as_the_replay_leaves_the_item_to_the_replay():
    # replay and template both 180 us, the model 205: the saving is 2 x 25 us = 0.050 ms (+ 0.012 ms unmeasured);
    # a tie needs no recompile, so the replay (the library the model already calls) is what is said
    item = _ranked(_gemm_kernel(0.422), gemm_shapes=_gemm_calls(0.180, 0.180))[0]
    assert item["headroom_ms_per_step"] == pytest.approx(0.062)
    assert item["why"].startswith("a replay of the same call is faster: [4096,3072]x[3072,3072] 180 vs 205 us")


def test_the_covered_share_of_an_attention_kernel_under_a_millisecond():
    # 0.5 ms a step in 0.5 calls (1 ms a call); the benchmark covered 0.25 calls a step = 0.25 ms, half its time:
    # 0.1 measured + 3.0 x 1/2 of the roofline headroom = 1.6 (a floor of 1 ms on the step would give 0.25)
    quarter = {**SAVING, "calls_per_step": 0.25, "saving_ms_per_step": 0.1}
    judged = advice.per_shape(_attention_kernel(3.0, calls=0.5, step_ms=0.5), None, [quarter]).iloc[0]
    assert judged["headroom_ms_per_step"] == pytest.approx(0.1 + 1.5)


def test_a_kernel_without_speed_of_light_says_nothing_and_one_of_no_bound_has_nothing_to_do():
    df = _kernels({"name": "k1", "display": "k1", "headroom_ms_per_step": 0.0, "sol_ms_per_step": float("nan")},
                  {"name": "k2", "display": "k2", "headroom_ms_per_step": 0.5, "bound": "", "ceiling": ""})
    judged = advice.per_shape(df, None, []).set_index("name")
    # k1: neither flops nor bytes, so no speed of light: no "50% of DRAM" and nothing to do, though it has a ceiling
    assert (judged.loc["k1", "headroom_vs"], judged.loc["k1", "do"]) == ("", "")
    # k2: a speed of light but no bound (no bytes) and no ceiling: nothing said either
    assert (judged.loc["k2", "headroom_vs"], judged.loc["k2", "do"]) == ("", "")


def test_a_backend_item_apart_from_the_table_in_full():
    items = _ranked(_attention_kernel(1.0), attention=[{**SAVING, "kernels": ["other"]}])
    assert items[0] == {"what": "attention (1,32/8,4096,128),window=1024", "category": "attention",
                        "headroom_ms_per_step": 2.616,
                        "why": "flex_compiled 0.209 vs sdpa_cudnn 0.863 ms a call, timed side by side",
                        "do": "use flex_compiled instead of sdpa_cudnn"}
    # a saving under 1 ms is still an item; none at all is not
    small = {**SAVING, "kernels": ["other"], "saving_ms_per_step": 0.4}
    none = {**SAVING, "kernels": ["other"], "saving_ms_per_step": 0.0, "shape": "(1,8,64,64)"}
    items = _ranked(_attention_kernel(0.0), attention=[small, none])
    assert [i["headroom_ms_per_step"] for i in items] == [0.4]


def test_no_gap_item_when_the_plain_step_equals_gpu_busy():
    df = _kernels({"name": "k1", "display": "k1", "headroom_ms_per_step": 2.0})
    assert [i["what"] for i in _ranked(df, gap_ms=0.0)] == ["k1"]
    assert [i["what"] for i in _ranked(df, gap_ms=float("nan"))] == ["k1"]


FLEX = {"op": "flex_attention", "B": 1, "H": 2, "Hkv": 2, "Sq": 4, "Sk": 4, "D": 8, "dtype": "bfloat16",
        "causal": False, "mask_kind": "causal"}       # label "(1,2,4,8),causal"
SDPA = {"op": "aten::_cudnn_attention_forward", "B": 1, "H": 24, "Sq": 4608, "Sk": 4608, "D": 128,
        "dtype": "bfloat16", "kernel": "cudnn_fwd"}   # label "(1,24,4608,128)"


def test_flexattention_calls_of_one_shape_take_the_runs_flex_kernels():
    # the eager capture names no kernel for a FlexAttention call: with one flex shape, the run's flex template
    # kernels are its kernels (listed once), whatever call came last
    got = advice.kernels_by_shape([FLEX, FLEX, SDPA], ["triton_tem_flex_0", "triton_tem_flex_1"])
    assert got == {"(1,24,4608,128)": ["cudnn_fwd"], "(1,2,4,8),causal": ["triton_tem_flex_0", "triton_tem_flex_1"]}
    named = {**FLEX, "kernel": "triton_tem_flex_0"}    # a flex call whose kernel is known already
    got = advice.kernels_by_shape([named, FLEX, SDPA], ["triton_tem_flex_0", "triton_tem_flex_1"])
    assert got["(1,2,4,8),causal"] == ["triton_tem_flex_0", "triton_tem_flex_1"]
    # two flex shapes: which kernel ran which is unknown, so neither gets them; no flex kernels: nothing
    other = {**FLEX, "Sq": 8, "Sk": 8}
    assert advice.kernels_by_shape([FLEX, other], ["triton_tem_flex_0"]) == {}
    assert advice.kernels_by_shape([FLEX], []) == {}
