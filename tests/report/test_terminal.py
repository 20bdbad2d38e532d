"""The attention table (report/terminal.py) of a recorded run: each column's header, alignment and cells, and which
columns a narrow console keeps. Data: examples/runs/flux-h100/attention.csv (FLUX.1-dev on an H100). The kernel
table's sub-rows of a library kernel's calls by shape (shape_lines), on constructed rows."""
import pandas as pd
import pytest
from inductor_prof.report.terminal import attention_table, shape_lines
from recorded import REPO


ROOT = REPO


@pytest.fixture
def att():
    return pd.read_csv(ROOT / "examples" / "runs" / "flux-h100" / "attention.csv")


def cells(table):
    return {str(c.header): list(c._cells) for c in table.columns}


def test_full_width(att):
    att.loc[att["backend"] == "sdpa_flash", "ok"] = False     # a failed check, to show its cell
    t = attention_table(att)
    assert str(t.title) == "Attention backends"
    assert [(str(c.header), c.justify) for c in t.columns] == [
        ("backend", "left"), ("origin", "left"), ("shape", "left"), ("dtype", "left"), ("calls/step", "right"),
        ("ms", "right"), ("TFLOP/s", "right"), ("% peak", "right"), ("vs model", "right"), ("rel err", "right"),
        ("ok", "left"), ("config / why not", "left")]
    got = cells(t)
    i = att.index[att["backend"] == "triton_fa2"][0]
    # triton_fa2's row in the re-recorded run: 0.4780 ms, so 260,919,263,232 flop / 0.4780 ms = 545.8 TFLOP/s;
    # 75.18% of peak as attention.csv stores it (of the measured bf16 ceiling 726.0: 545.8 / 726.0); cuDNN's
    # 0.4020 ms / 0.4780 = 0.84x; rel err 0.00228, 57 calls a step
    assert {h: str(v[i]) for h, v in got.items()} == {
        "backend": "triton_fa2", "origin": "own", "shape": "(1,24,4608,128)", "dtype": "bfloat16",
        "calls/step": "57", "ms": "0.478", "TFLOP/s": "546", "% peak": "75.2", "vs model": "0.84x",
        "rel err": "2.3e-03", "ok": "yes", "config / why not": "M128xN128/split1/w8/s3"}
    assert got["ok"][i].style == "green"
    j = att.index[att["backend"] == "sdpa_flash"][0]
    assert (str(got["ok"][j]), got["ok"][j].style) == ("NO", "red")
    k = att.index[att["backend"] == "xformers"][0]      # not installed there: its reason instead of numbers
    assert [str(got[h][k]) for h in ("ms", "TFLOP/s", "% peak", "vs model", "rel err", "ok", "config / why not")] == \
        ["-", "-", "-", "-", "-", "n/a", "ModuleNotFoundError: No module named 'xformers'"]
    assert got["ok"][k].style == ""        # plain, not coloured


def test_a_narrow_console_keeps_the_timing_columns(att):
    # width 51: "backend" 18 cells (transformer_engine) + 3 edges, from 1: 22; ms 7 (303.376) -> 32; TFLOP/s 7 (its
    # header) -> 42; vs model 5 ("model", "0.87x") -> 50; nothing else fits in the 1 left
    assert [str(c.header) for c in attention_table(att, width=51).columns] == ["backend", "ms", "TFLOP/s", "vs model"]


def test_a_shape_that_varies_comes_right_after_the_backend(att):
    other = pd.read_csv(ROOT / "examples" / "runs" / "flux-h100-768x1344" / "attention.csv")
    both = pd.concat([att, other], ignore_index=True)
    # the shapes differ (4608 and 4544 tokens): shape, 15 cells, goes in second: 22 + 18 = 40, ms -> 50
    assert [str(c.header) for c in attention_table(both, width=51).columns] == ["backend", "shape", "ms"]


def test_a_varying_dtype_comes_after_the_shape():
    sweep = pd.read_csv(ROOT / "examples" / "sweeps" / "attention-h100.csv")     # bf16 and fp16 rows
    # width 52: backend 10 cells (triton_fa2) + 3, from 1: 14; shape 24 ((2,32/8,16384,64),causal) -> 41; dtype 8
    # (bfloat16) -> 52: full
    assert [str(c.header) for c in attention_table(sweep, width=52).columns] == ["backend", "shape", "dtype"]


def test_reasons_wrap_in_at_most_60_cells():
    llama = pd.read_csv(ROOT / "examples" / "runs" / "llama-h100" / "attention.csv")   # reasons up to 300 chars
    t = attention_table(llama, width=250)
    (why,) = [c for c in t.columns if str(c.header) == "config / why not"]
    assert why.width == 60


def test_number_columns_without_a_number_are_left_out(att):
    # no model backend to compare with: every "vs model" cell would read "-"
    att["speedup_vs_model"] = float("nan")
    assert "vs model" not in [str(c.header) for c in attention_table(att).columns]


def test_where_no_backend_ran_the_reasons_fit_in_80_columns(att):
    att["available"] = False    # as on a machine where none of them could run: every number cell is "-"
    att["reason"] = "needs a CUDA GPU"
    headers = [str(c.header) for c in attention_table(att, width=80).columns]
    # backend 18 + origin/shape/dtype/ok/reason columns: the reason column is what tells the user why
    assert "config / why not" in headers
    assert not {"ms", "TFLOP/s", "% peak", "vs model", "rel err"} & set(headers)


# ---- a library kernel's calls by shape (shape_lines) --------------------------------------------------------

def _shape(shape, ms, op="aten::addmm", module="*.attn.to_q, to_k"):
    return {"shape": shape, "op": op, "calls_per_step": 4, "avg_us": ms * 250, "step_ms": ms,
            "pct_of_gpu_time": ms, "module": module}


def _kernel(pct, shapes):
    return pd.Series({"aten_ops": "aten::addmm", "pct_of_gpu_time": pct, "calls_by_shape": shapes})


def test_shape_lines_of_a_kernel_of_two_shapes_or_more():
    shapes = [_shape("[8,4]x[4,2]", 2.0), _shape("[8,2]x[2,2]", 1.0, op="aten::mm", module="-")]
    lines = shape_lines(_kernel(3.0, shapes))
    # the modules on a line of their own; the op only where it is not the kernel's
    assert [ln["label"] for ln in lines] == ["↳ [8,4]x[4,2] 4/step\n  *.attn.to_q, to_k", "↳ [8,2]x[2,2] 4/step"]
    assert [ln["other_op"] for ln in lines] == ["", "aten::mm"]
    assert shape_lines(_kernel(0.9, shapes)) == []            # under SHAPE_ROWS_MIN_PCT (1%) of GPU time
    assert shape_lines(_kernel(3.0, shapes[:1])) == []        # one shape: the kernel row says it
    assert shape_lines(_kernel(3.0, [])) == []


def test_shape_lines_say_the_rest_in_one():
    shapes = [_shape(f"[{n},4]x[4,2]", 5.0 - n) for n in range(5)]     # 5, 4, 3, 2, 1 ms a step
    lines = shape_lines(_kernel(20.0, shapes))
    assert len(lines) == 4 and lines[-1] == {"label": "↳ 2 more shapes, 3.00 ms/step", "pct_of_gpu_time": 3.0}
