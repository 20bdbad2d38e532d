"""The training advice when a backend fails on the model's q, k, v layout and its contiguous variant runs. The run
is FLUX's training step recorded on the H200 (examples/runs/flux-train-h200: kernels, library calls, captured
calls and attention.csv real). Its attention.csv ran q, k, v contiguous (before the benchmark took the model's
layout); the tests edit a copy of it into what the stage writes now on the lead's finding (H200, torch 2.11, cuDNN
91900, scripts/probe_cudnn_train.py: cuDNN's backward fails on FLUX's (B,S,H,D)-strided q, k, v, runs on
contiguous ones): the sdpa_cudnn forward+backward row failing with that error, and a CONSTRUCTED variant row
"sdpa_cudnn (q,k,v contiguous)" of round times chosen for hand arithmetic, not measurements."""
import json
import shutil

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
VARIANT = "sdpa_cudnn (q,k,v contiguous)"
ERROR = ("RuntimeError: Expected mha_graph.execute(handle, variant_pack, workspace_ptr.get()).is_good() to be true, "
         "but got false.")
VARIANT_MS = {"forward": 0.45, "forward+backward": 1.75}   # constructed


def _rows() -> pd.DataFrame:
    att = pd.read_csv(RUN / "attention.csv", keep_default_na=False, na_values=[""])
    att["qkv_layout"] = "(B,S,H,D)"
    att["qkv_strides"] = "14155776,128,3072,1"
    failing = (att["backend"] == "sdpa_cudnn") & (att["pass"] == "forward+backward")
    att.loc[failing, ["ok", "available", "reason", "ms", "tflops", "speedup_vs_model"]] = \
        [False, False, ERROR, float("nan"), float("nan"), float("nan")]
    variants = att[att["backend"] == "sdpa_cudnn"].copy()
    variants["backend"] = VARIANT
    variants["ok"], variants["available"], variants["reason"] = True, True, ""
    variants["ms"] = variants["pass"].map(VARIANT_MS)
    return pd.concat([att, variants], ignore_index=True)


def test_the_saving_is_the_variants_and_names_the_copies_to_add():
    # FLUX: 57 calls a step, 40 with a backward. The model's flash: forward 0.782304 ms, forward+backward 3.134816.
    # The variant (constructed): 0.45 and 1.75. Forward part 57 x (0.782304 - 0.45) = 57 x 0.332304 = 18.941328;
    # backward part 40 x ((3.134816 - 0.782304) - (1.75 - 0.45)) = 40 x 1.052512 = 42.10048 ms/step.
    # The next best that ran, flex_compiled (0.561888, 2.157696): 57 x 0.220416 + 40 x 0.756704 = 42.83 ms/step.
    # sdpa_cudnn's forward row (0.402208) is the fastest forward, but its forward+backward failed: never said.
    out = attention_saving(_rows(), {SHAPE: ["fwd"]}, {SHAPE: "bwd"}, {SHAPE: 40})
    assert [(s["part"], s["best_backend"]) for s in out] == [("forward", VARIANT), ("backward", VARIANT)]
    assert [s["saving_ms_per_step"] for s in out] == pytest.approx([18.941328, 42.10048], abs=1e-5)
    do = out[0]["do"]
    assert do.startswith(f"use sdpa_cudnn for {SHAPE} (its forward and backward) and make q, k, v contiguous "
                         "before SDPA: sdpa_cudnn's backward fails on the model's layout (q, k, v (B,S,H,D)): "
                         "RuntimeError: Expected mha_graph.execute")
    assert all(s["do"] == do for s in out)


def test_a_variant_that_failed_too_is_never_said():
    rows = _rows()
    rows.loc[(rows["backend"] == VARIANT) & (rows["pass"] == "forward+backward"), "ok"] = False
    out = attention_saving(rows, {SHAPE: ["fwd"]}, {SHAPE: "bwd"}, {SHAPE: 40})
    assert {s["best_backend"] for s in out} == {"flex_compiled"} and not any(s.get("do") for s in out)
    # a backend that is not a variant: no change to name
    assert attention_layout.change("flex_compiled", SHAPE, rows, rows["pass"]) == ""


def test_the_report_says_the_change_and_the_layout(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    _rows().to_csv(run / "attention.csv", index=False)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["files"].pop("attention.csv")   # edited: no longer the file its manifest records
    manifest["stages"]["attention"].pop("last_line", None)
    (run / "manifest.json").write_text(json.dumps(manifest))
    tables = load_run_tables(run)
    nxt = tables.summary["headroom"]["next"]
    bwd = next(i for i in nxt if i["what"].startswith("pytorch_flash::flash_bwd_dq_dk_dv"))
    assert bwd["headroom_ms_per_step"] == pytest.approx(42.10048, abs=1e-3)
    assert "make q, k, v contiguous before SDPA" in bwd["do"] and VARIANT in bwd["why"]
    assert not any(i["do"].startswith("use sdpa_cudnn for") and "contiguous" not in i["do"] for i in nxt)
    r = CliRunner().invoke(app, ["report", str(run), "--width", "240"])
    assert r.exit_code == 0, r.output
    assert f"{SHAPE} ran q, k, v in the model's layout: (B,S,H,D)" in r.output


def test_a_variant_that_copies_dout_too_says_so_and_where_the_forward_failed_too_not_backward():
    rows = _rows()
    both = "sdpa_cudnn (q,k,v,dout contiguous)"
    rows.loc[rows["backend"] == VARIANT, "backend"] = both
    do = attention_layout.change(both, SHAPE, rows, rows["pass"])
    dout = "(B,S,H,D), row pitch 15360 (38 of 40 calls; 2: (B,S,H,D))"   # the run's dout_layout cell
    assert do.startswith(f"use sdpa_cudnn for {SHAPE} (its forward and backward) and make q, k, v and the upstream "
                         "gradient (a hook on SDPA's output: grad.contiguous()) contiguous before SDPA: sdpa_cudnn's "
                         f"backward fails on the model's layout (q, k, v (B,S,H,D); dout {dout}): RuntimeError")
    # its forward row failed as well: the backend fails, not only its backward
    rows.loc[(rows["backend"] == "sdpa_cudnn") & (rows["pass"] == "forward"), "ok"] = False
    assert "contiguous before SDPA: sdpa_cudnn fails on the model's layout" in \
        attention_layout.change(both, SHAPE, rows, rows["pass"])
