"""The training advice when a backend fails on the model's layouts and its contiguous variant runs, on FLUX's
training step recorded on the H200 (examples/runs/flux-train-h200): its attention stage was run again on 2026-11-28
(`inductor-prof attention RUN --backends sdpa_cudnn,sdpa_flash,sdpa_efficient --no-tune`, torch 2.11, cuDNN 91900)
with q, k, v in the model's (B,S,H,D)-strided layout and each of its two dout layouts in turn. cuDNN's
forward+backward failed there (an illegal memory access), so did its variant with q, k, v contiguous; the one with
q, k, v and dout contiguous ran (scripts/probe_cudnn_train.py: the two dout layouts in one process are the
trigger). Every row here is the recorded one."""

import pandas as pd
import pytest
from typer.testing import CliRunner

from inductor_prof.analysis import attention_layout
from inductor_prof.analysis.headroom import attention_saving
from inductor_prof.analysis.load import load_run_tables
from inductor_prof.cli import app
from recorded import REPO

RUN = REPO / "examples" / "runs" / "flux-train-h200"
SHAPE = "(1,24,4608,128)"
QKV_ONLY = "sdpa_cudnn (q,k,v contiguous)"
VARIANT = "sdpa_cudnn (q,k,v,dout contiguous)"
ERROR = "AcceleratorError: CUDA error: an illegal memory access was encountered"
DOUT = "(B,S,H,D), row pitch 15360 (38 of 40 calls; 2: (B,S,H,D))"   # the run's dout_layout cell


def _rows() -> pd.DataFrame:
    return pd.read_csv(RUN / "attention.csv", keep_default_na=False, na_values=[""])


def test_the_recorded_rows_say_which_layout_failed():
    att = _rows()
    both = att[att["pass"] == "forward+backward"].set_index("backend")
    assert not both.loc["sdpa_cudnn", "ok"] and both.loc["sdpa_cudnn", "reason"].startswith(ERROR)
    assert not both.loc[QKV_ONLY, "ok"] and both.loc[QKV_ONLY, "reason"].startswith(ERROR)
    assert both.loc[VARIANT, "ok"] and set(both["qkv_strides"]) == {"14155776,128,3072,1"}


def test_the_saving_is_the_variants_and_names_the_copies_to_add():
    # FLUX: 57 calls a step, 40 with a backward. The model's flash: forward 0.7981280 ms, forward+backward 3.1046081.
    # The variant: 0.5156800 and 1.7279680. Forward part 57 x (0.7981280 - 0.5156800) = 57 x 0.2824480 = 16.0995;
    # backward part 40 x ((3.1046081 - 0.7981280) - (1.7279680 - 0.5156800)) = 40 x 1.0941921 = 43.7677 ms/step.
    # sdpa_cudnn's own forward row (0.4038880) is the fastest forward, but its forward+backward failed: never said.
    out = attention_saving(_rows(), {SHAPE: ["fwd"]}, {SHAPE: "bwd"}, {SHAPE: 40})
    assert [(s["part"], s["best_backend"]) for s in out] == [("forward", VARIANT), ("backward", VARIANT)]
    assert [s["saving_ms_per_step"] for s in out] == pytest.approx([16.0995, 43.7677], abs=1e-3)
    do = out[0]["do"]
    assert do.startswith(f"use sdpa_cudnn for {SHAPE} (its forward and backward) and make q, k, v and the upstream "
                         "gradient (a hook on SDPA's output: grad.contiguous()) contiguous before SDPA: sdpa_cudnn's "
                         f"backward fails on the model's layout (q, k, v (B,S,H,D); dout {DOUT}): {ERROR}")
    assert all(s["do"] == do for s in out)


def test_a_variant_that_failed_too_is_never_said():
    rows = _rows()
    rows.loc[(rows["backend"] == VARIANT) & (rows["pass"] == "forward+backward"), "ok"] = False
    out = attention_saving(rows, {SHAPE: ["fwd"]}, {SHAPE: "bwd"}, {SHAPE: 40})
    # what is left ran slower than the model's flash (efficient 6.591 ms against 3.105): nothing to say
    assert not any("sdpa_cudnn" in str(s.get("best_backend")) for s in out) and not any(s.get("do") for s in out)
    # a backend that is not a variant: no change to name
    assert attention_layout.change("sdpa_efficient", SHAPE, rows, rows["pass"]) == ""


def test_the_report_says_the_change_and_the_layout():
    tables = load_run_tables(RUN)
    nxt = tables.summary["headroom"]["next"]
    bwd = next(i for i in nxt if i["what"].startswith("pytorch_flash::flash_bwd_dq_dk_dv"))
    assert bwd["headroom_ms_per_step"] == pytest.approx(43.7677, abs=1e-3)
    assert "and the upstream gradient" in bwd["do"] and VARIANT in bwd["why"]
    # the variant ran after the shape's other backends, not in their rotated rounds: said so, not "side by side"
    assert "timed in the same process, after the others" in bwd["why"] and "side by side" not in bwd["why"]
    assert not any(i["do"].startswith("use sdpa_cudnn for") and "contiguous" not in i["do"] for i in nxt)
    r = CliRunner().invoke(app, ["report", str(RUN), "--width", "240"])
    assert r.exit_code == 0, r.output
    assert f"{SHAPE} ran q, k, v in the model's layout: (B,S,H,D)" in r.output


def test_where_the_forward_failed_too_the_backend_fails_not_only_its_backward():
    rows = _rows()
    rows.loc[(rows["backend"] == "sdpa_cudnn") & (rows["pass"] == "forward"), "ok"] = False
    assert "contiguous before SDPA: sdpa_cudnn fails on the model's layout" in \
        attention_layout.change(VARIANT, SHAPE, rows, rows["pass"])
