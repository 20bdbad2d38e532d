"""A training run's attention comparison in the analysis and the report. The run is the decoder training step
recorded on the H200 (examples/runs/llama-train-h200: its kernels, library calls and captured attention calls are
real); the tests put an attention.csv of CONSTRUCTED rows with round times in place of its recorded one, in a copy
whose manifest no longer records that file (as a run recorded before the stage timed backward): its numbers are
inputs chosen for hand arithmetic, not measurements."""
import json
import math
import shutil

import pandas as pd
import pytest
from typer.testing import CliRunner

from inductor_prof.analysis import attention_training
from inductor_prof.analysis.headroom import attention_saving
from inductor_prof.analysis.load import load_run_tables
from inductor_prof.cli import app
from recorded import REPO

RUN = REPO / "examples" / "runs" / "llama-train-h200"
SHAPE = "(2,32/8,2048,64),causal"
FWD = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_kernel0_0"
BWD = "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0"
# (pass, backend) -> ms a call: cuDNN is the model's (it ran _cudnn_attention_forward)
MS = {("forward", "sdpa_cudnn"): 0.10, ("forward", "sdpa_flash"): 0.095,
      ("forward+backward", "sdpa_cudnn"): 0.40, ("forward+backward", "sdpa_flash"): 0.30}
FWD_FLOPS, TRAIN_FLOPS = 34_376_515_584, 120_317_804_544   # tests/attention/benchmark/test_backward.py, by hand


def _rows() -> pd.DataFrame:
    rows = []
    for p in ("forward", "forward+backward"):
        for b in ("gluon_fa3", "sdpa_cudnn", "sdpa_flash"):
            ms = MS.get((p, b), 0.09 if p == "forward" else math.nan)
            ran = ms == ms
            flops = FWD_FLOPS if p == "forward" else TRAIN_FLOPS
            rows.append({"backend": b, "origin": "own" if b == "gluon_fa3" else "library", "B": 2, "H": 32,
                         "Hkv": 8, "Sq": 2048, "Sk": 2048, "D": 64, "dtype": "bfloat16", "causal": True, "mask": "",
                         "window": 0, "key_lengths": "", "kv_repeated": False, "scale": 0.125, "flops": flops,
                         "shape": SHAPE, "calls_per_step": 4, "model_backend": "sdpa_cudnn", "available": ran,
                         "reason": "" if ran else "no backward: forward only (its output is not differentiable)",
                         "ms": ms, "tflops": flops / (ms * 1e-3) / 1e12 if ran else math.nan,
                         "pct_of_peak": math.nan, "rel_err": 1e-3 if ran else math.nan, "lse_err": math.nan,
                         "ok": ran, "speedup_vs_model": MS[(p, "sdpa_cudnn")] / ms if ran else math.nan,
                         "config": "", "description": "", "pass": p})
    return pd.DataFrame(rows)


def test_saving_is_judged_forward_and_backward_and_split_by_the_models_own_time():
    # 4 calls a step, each with its backward (the decoder's: backward_calls_by_shape, below). sdpa_flash against
    # cuDNN: forward 0.095 vs 0.10 ms, forward+backward 0.30 vs 0.40. Forward part 4 x (0.10 - 0.095) = 0.02 ms/step;
    # backward part 4 x ((0.40 - 0.10) - (0.30 - 0.095)) = 4 x 0.095 = 0.38; together 4 x (0.40 - 0.30) = 0.4.
    # The forward rows alone would say gluon_fa3 (0.09): not a choice for a training step, it has no backward.
    out = attention_saving(_rows(), {SHAPE: [FWD]}, {SHAPE: BWD}, {SHAPE: 4})
    assert [(s["part"], s["kernels"]) for s in out] == [("forward", [FWD]), ("backward", [BWD])]
    assert [s["saving_ms_per_step"] for s in out] == pytest.approx([0.02, 0.38])
    # each part quotes the times its number comes from: the forward rows', the forward+backward rows'
    assert [(s["best_backend"], s["model_ms"], s["best_ms"]) for s in out] == \
        [("sdpa_flash", 0.10, 0.095), ("sdpa_flash", 0.40, 0.30)]
    assert all(s["call_saving_ms_per_step"] == pytest.approx(0.4) for s in out)
    # no backward calls recorded: every call counts as one with its backward, the same here
    assert [s["saving_ms_per_step"] for s in attention_saving(_rows(), {SHAPE: [FWD]}, {SHAPE: BWD})] == \
        pytest.approx([0.02, 0.38])


FLUX_TRAIN = REPO / "examples" / "runs" / "flux-train-h200"


def test_calls_without_a_backward_save_only_their_forward():
    """FLUX fine-tuning its last blocks (recorded on the H200): 57 attention calls a step, 40 of them with a
    backward (the 38 single blocks and the 2 trained double blocks). Its attention.csv (the attention stage run
    again on 2026-11-28 at the model's q, k, v and dout layouts): cuDNN's forward+backward fails there (an illegal
    memory access), so the saving is its variant's, with q, k, v and dout made contiguous: flash (the model's)
    0.7981280 ms forward and 3.1046081 forward+backward, the variant 0.5156800 and 1.7279680. Forward part
    57 x (0.7981280 - 0.5156800) = 57 x 0.2824480 = 16.0995 ms/step; backward part
    40 x ((3.1046081 - 0.7981280) - (1.7279680 - 0.5156800)) = 40 x (2.3064801 - 1.2122880) = 40 x 1.0941921 =
    43.7677. Judged as if all 57 ran a backward it would be 57 x 1.3766401 = 78.47: 17 backwards that never ran."""
    tables = load_run_tables(FLUX_TRAIN)
    calls = json.loads((FLUX_TRAIN / "attention_shapes.json").read_text())
    shape = "(1,24,4608,128)"
    assert attention_training.backward_calls_by_shape(tables.library_ops, calls) == {shape: 40}
    att = pd.read_csv(FLUX_TRAIN / "attention.csv")
    out = attention_saving(att, {shape: ["fwd"]}, {shape: "bwd"}, {shape: 40})
    variant = "sdpa_cudnn (q,k,v,dout contiguous)"
    assert [(s["part"], s["best_backend"]) for s in out] == [("forward", variant), ("backward", variant)]
    assert [s["saving_ms_per_step"] for s in out] == pytest.approx([16.0995, 43.7677], abs=1e-3)
    nxt = {i["what"]: i for i in tables.summary["headroom"]["next"]}
    bwd = next(i for w, i in nxt.items() if w.startswith("pytorch_flash::flash_bwd_dq_dk_dv"))
    assert bwd["headroom_ms_per_step"] == pytest.approx(43.7677, abs=1e-3)
    assert "40 of its 57 calls a step run a backward" in bwd["why"]


def test_an_inference_runs_rows_are_judged_as_before():
    fwd = _rows()
    fwd = fwd[fwd["pass"] == "forward"].drop(columns="pass")   # a run recorded before the column
    out = attention_saving(fwd, {SHAPE: [FWD]})
    # gluon_fa3 0.09 vs cuDNN 0.10, 4 calls: 0.04 ms/step
    assert [(s["best_backend"], s["kernels"]) for s in out] == [("gluon_fa3", [FWD])]
    assert out[0]["saving_ms_per_step"] == pytest.approx(0.04)
    assert not attention_training.is_training(fwd)


def test_backward_kernel_of_the_shape_from_the_recorded_library_calls():
    tables = load_run_tables(RUN)
    calls = json.loads((RUN / "attention_shapes.json").read_text())
    # the recorded _cudnn_attention_backward calls ran five kernels; the bprop one takes most of the time
    assert attention_training.backward_kernels_by_shape(tables.library_ops, calls) == {SHAPE: BWD}
    # 4 layers, a backward each: cuDNN launches its reduction twice a call, so a call is its fewest launches
    assert attention_training.backward_calls_by_shape(tables.library_ops, calls) == {SHAPE: 4}


def _copy_with(rows: pd.DataFrame, run) -> None:
    """RUN copied to `run`, its attention.csv these rows and no longer a file (nor a row count) its manifest
    records."""
    shutil.copytree(RUN, run)
    rows.to_csv(run / "attention.csv", index=False)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["files"].pop("attention.csv")
    manifest["stages"]["attention"].pop("last_line")   # "... (11 of 24 ok)": the rows checked against the file
    (run / "manifest.json").write_text(json.dumps(manifest))


@pytest.fixture()
def run_with_training_rows(tmp_path):
    run = tmp_path / "run"
    _copy_with(_rows(), run)
    return run


def test_report_judges_the_backward_kernel_on_the_forward_and_backward_comparison(run_with_training_rows):
    tables = load_run_tables(run_with_training_rows)
    df = tables.kernels.set_index("name")
    # the bprop kernel's headroom is its share of the measured saving, no longer its roofline's
    assert df.at[BWD, "headroom_by"] == "measured"
    assert df.at[BWD, "headroom_ms_per_step"] == pytest.approx(0.38)
    assert df.at[BWD, "do"] == f"use sdpa_flash for {SHAPE} (its forward and backward)"
    assert "forward+backward (95% of the saving is the backward's)" in df.at[BWD, "headroom_vs"]
    assert df.at[FWD, "headroom_ms_per_step"] == pytest.approx(0.02)
    nxt = {i["what"]: i for i in tables.summary["headroom"]["next"]}
    assert any(i["do"].startswith("use sdpa_flash") and i["headroom_ms_per_step"] == pytest.approx(0.38)
               for i in nxt.values())


def test_terminal_json_and_html_show_the_training_comparison(run_with_training_rows, tmp_path):
    runner = CliRunner()
    r = runner.invoke(app, ["report", str(run_with_training_rows), "--width", "240"])
    assert r.exit_code == 0, r.output
    assert "Attention backends, forward+backward at the model's shapes" in r.output
    table = r.output.split("Attention backends, forward+backward")[1].split("Where to look next")[0]
    flash = next(ln for ln in table.splitlines() if "sdpa_flash" in ln)
    # 120,317,804,544 flops in 0.30 ms: 401 TFLOP/s; 0.40 / 0.30 = 1.33x cuDNN
    assert "0.300" in flash and "401" in flash and "1.33x" in flash
    assert "no backward" in next(ln for ln in table.splitlines() if "gluon_fa3" in ln)
    r = runner.invoke(app, ["report", str(run_with_training_rows), "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["attention"]
    assert sorted((a["pass"], a["backend"]) for a in rows if a["ok"]) == sorted(
        [("forward", "gluon_fa3"), ("forward", "sdpa_cudnn"), ("forward", "sdpa_flash"),
         ("forward+backward", "sdpa_cudnn"), ("forward+backward", "sdpa_flash")])
    r = runner.invoke(app, ["report", str(run_with_training_rows), "--html", str(tmp_path / "r.html")])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "r.html").read_text()
    assert 'id="attention-training"' in page and "attention-training-table" in page


def test_diff_pairs_attention_rows_within_their_pass():
    from inductor_prof.analysis.diff import attention_rows

    a, b = _rows(), _rows()
    b.loc[(b["pass"] == "forward+backward") & (b["backend"] == "sdpa_flash"), "ms"] = 0.33
    m = attention_rows(a, b).set_index(["pass", "backend"])
    # 0.30 -> 0.33 ms: +10%; the forward row of the same backend and shape is its own pair, unchanged
    assert m.at[("forward+backward", "sdpa_flash"), "change_pct"] == pytest.approx(10.0)
    assert m.at[("forward", "sdpa_flash"), "change_pct"] == pytest.approx(0.0)
    assert len(m) == 5   # gluon_fa3's forward+backward row did not run: no pair
    # a run recorded before the column: its rows are forward rows, paired with the forward ones only
    old = a[a["pass"] == "forward"].drop(columns="pass")
    m = attention_rows(old, b)
    assert set(m.loc[m["ms_a"].notna(), "pass"]) == {"forward"}


def test_a_backward_kernel_keeps_its_ncu_replay_item_in_a_training_run():
    """The forward+backward rows time no kernel's call alone, so the backward kernel they judge keeps ncu's
    in-model item: 300 us a call in the model vs 250 us replayed, 4 calls a step: (300 - 250) * 4 = 0.2 ms/step."""
    from inductor_prof.analysis.in_model import items

    savings = attention_saving(_rows(), {SHAPE: [FWD]}, {SHAPE: BWD})
    df = pd.DataFrame([{"name": BWD, "display": "bprop", "avg_us": 300.0, "calls_per_step": 4.0,
                        "calls_by_shape": [{"shape": "s", "calls_per_step": 4.0}]}])
    ncu = pd.DataFrame([{"name": BWD, "shape": "s", "model_us": 300.0, "duration_ns": 250_000.0}])
    got = items(df, savings, ncu)
    assert [(i["what"], round(i["headroom_ms_per_step"], 6)) for i in got] == [("bprop in the model vs alone", 0.2)]


DOUT = "(B,S,H,D), row pitch 2560 (3 of 4 calls; 1: (B,S,H,D))"   # a CONSTRUCTED layout cell, grad_layout's words


def test_a_dout_that_is_not_contiguous_is_said_in_the_advice_the_table_and_the_page(tmp_path):
    # the rows as the stage writes them on a dout that is not contiguous (backward.py's dout_layout column):
    # what the advice measured against, a line under the terminal's table and the page's dout column say it
    run = tmp_path / "run"
    rows = _rows()
    rows["dout_layout"] = [""] * 3 + [DOUT] * 3
    _copy_with(rows, run)
    tables = load_run_tables(run)
    why = tables.kernels.set_index("name").at[BWD, "headroom_vs"]
    assert f"(95% of the saving is the backward's, dout {DOUT} as the model's backward got it)" in why
    assert attention_training.dout_lines(rows) == [
        f"{SHAPE} forward+backward ran on the model's upstream gradient: dout {DOUT}"]
    r = CliRunner().invoke(app, ["report", str(run), "--width", "240"])
    assert r.exit_code == 0, r.output
    assert f"{SHAPE} forward+backward ran on the model's upstream gradient: dout {DOUT}" in r.output
    assert CliRunner().invoke(app, ["report", str(run), "--html", str(tmp_path / "r.html")]).exit_code == 0
    assert DOUT in (tmp_path / "r.html").read_text()
    # contiguous (no backward call recorded, or the dense tensor): nothing said anywhere
    rows["dout_layout"] = [""] * 3 + ["contiguous (no backward call recorded)"] * 3
    assert attention_training.dout_lines(rows) == []
    assert not any(s.get("dout") for s in attention_saving(rows, {SHAPE: [FWD]}, {SHAPE: BWD}))
