"""A library kernel's calls by shape (analysis/library_calls.py): the calls ncu replays, on library_ops rows written
by hand (the per-shape judgement of a GEMM against its replays is in test_advice.py)."""
import pandas as pd
import pytest

from inductor_prof.analysis import library_calls

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
