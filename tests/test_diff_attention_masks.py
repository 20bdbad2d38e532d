"""`diff` of two runs whose attention.csv differ in mask kind: one run without masks (its `mask` column empty,
read as float NaN), the other with text masks. The recorded decoder runs examples/runs/llama-h100 (causal,
no mask) and llama-padded-h100 (causal + padding) are such a pair."""
import pandas as pd
import pytest
from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.analysis.diff import attention_rows
from inductor_prof.cli import app

RUNS = data_path("..", "..", "examples", "runs")


def test_attention_rows_of_a_run_without_masks_and_one_with():
    a = pd.read_csv(RUNS / "llama-h100" / "attention.csv")
    b = pd.read_csv(RUNS / "llama-padded-h100" / "attention.csv")
    assert a["mask"].isna().all() and (b["mask"] == "causal_padding").all()   # the dtypes that clashed
    rows = attention_rows(a, b)
    # available rows, read from the CSVs: A 9 backends at (2,32/8,2048,64),causal; B 5 at the padded shape
    # (its label: ",causal+padding,kv repeated"); no (backend, shape) in both, so 9 + 5 rows, none paired
    assert len(rows) == 14
    assert rows["ms_a"].notna().sum() == 9 and rows["ms_b"].notna().sum() == 5
    sdpa_b = rows[(rows["backend"] == "sdpa") & rows["ms_b"].notna()].iloc[0]
    assert sdpa_b["ms_b"] == pytest.approx(0.2999, abs=1e-4)     # llama-padded-h100 attention.csv: sdpa 0.2999.. ms
    assert sdpa_b["mask"] == "causal_padding"


def test_diff_cli_of_the_two_decoder_runs():
    r = CliRunner().invoke(app, ["diff", str(RUNS / "llama-h100"), str(RUNS / "llama-padded-h100")])
    assert r.exit_code == 0, r.output
    assert "causal+padding,kv repeated" in r.stdout
