"""`diff --markdown` (report/diff_markdown.py): the pull-request comment of the two recorded FLUX runs, each number
checked against the README's shipped diff block (`diff examples/runs/flux-h100 examples/runs/flux-h100-768x1344`),
the gate's verdict derived by hand from them; then the renderer alone on documents changed in one known way
(escaping, rows the gate failed on past --top, new and removed rows, no gate)."""
import copy
import json

import pytest
from typer.testing import CliRunner

from recorded import data_path
from inductor_prof.analysis.diff import compare
from inductor_prof.analysis.diff_inputs import load_side
from inductor_prof.cli import app
from inductor_prof.report.diff_export import to_dict
from inductor_prof.report.diff_markdown import MARKER, code, render_markdown, text

RUNS = data_path("..", "..", "examples", "runs")
A, B = RUNS / "flux-h100", RUNS / "flux-h100-768x1344"
ATTENTION = "_cudnn_attention_forward [1,24,4608→4544,128] ×3"
CUDNN = "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x128_4x1x1_cga1x1x1_kernel0_0"
# The README's block, step table: plain 133.02 -> 133.63 (+0.61, +0.5 %, noise 2.9), under Proton 136.02 ->
# 136.40 (+0.39, +0.3 %, 6.4), GPU time 128.62 -> 128.29 (-0.33, -0.3 %, 1.0): all within noise
STEP_ROWS = ["| step (plain) (gated) | 133.02 | 133.63 | +0.61 | +0.5 | 2.9 | within noise |",
             "| step (under Proton) | 136.02 | 136.40 | +0.39 | +0.3 | 6.4 | within noise |",
             "| GPU kernel time | 128.62 | 128.29 | -0.33 | -0.3 | 1.0 | within noise |"]
# its kernel table, the numbers of the first ten rows (A, B, Δ ms, Δ %, noise, share, verdict); the attention
# call is +8.6 % at noise 1.3: 7.2-7.4 points beyond noise (each rounded to 0.05), above --fail-above 5, so it
# alone fails the gate (every other row is faster, within noise, or below 1 % of the step: rms_norm_cat_view_5's
# B 1.303 ms of B's 133.63 ms step is 0.975 %)
KERNEL_NUMBERS = [
    ["25.597", "27.789", "+2.193", "+8.6", "1.3", "20.8", "❌ slower"],
    ["21.650", "21.004", "-0.646", "-3.0", "1.4", "16.3", "faster"],
    ["18.302", "17.752", "-0.549", "-3.0", "1.4", "13.8", "faster"],
    ["14.328", "13.921", "-0.406", "-2.8", "1.4", "10.8", "faster"],
    ["0.334", "0.077", "-0.257", "-76.9", "1.3", "0.3", "faster"],
    ["4.554", "4.324", "-0.230", "-5.1", "1.5", "3.4", "faster"],
    ["1.122", "1.303", "+0.181", "+16.1", "2.6", "1.0", "slower"],
    ["4.163", "3.992", "-0.171", "-4.1", "1.3", "3.1", "faster"],
    ["7.461", "7.332", "-0.128", "-1.7", "2.5", "5.6", "within noise"],
    ["7.995", "7.900", "-0.095", "-1.2", "2.5", "6.0", "within noise"],
]
FIRST_CELLS = [
    f"`{ATTENTION}`<br>`{CUDNN}`<br><sub>same op, one size differs</sub>",
    "`addmm [4608→4544,15360]x[15360,3072]`<br>`nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN`<br>"
    "<sub>same op, one size differs</sub>",
]


@pytest.fixture(scope="module")
def sides():
    return load_side(A, "A"), load_side(B, "B")


def _doc(sides, **kw) -> dict:
    return to_dict(compare(*sides, **kw))


def _table_rows(md: str, header_start: str, after: str = "") -> list[list[str]]:
    """The cells of the first table whose header starts with `header_start` (| a | b | -> ["a", "b"]), after the
    line starting with `after`."""
    lines = md.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith(after))
    start = next(i for i, ln in enumerate(lines) if i >= first and ln.startswith(header_start))
    rows = []
    for ln in lines[start + 2:]:
        if not ln.startswith("|"):
            break
        rows.append([c.strip() for c in ln.strip("|").split(" | ")])
    return rows


def test_flux_examples_gate_failed_at_5(sides):
    md = render_markdown(_doc(sides, fail_above=5.0), top=10)
    lines = md.splitlines()
    assert lines[0] == MARKER and lines[1] == "## inductor-prof diff: ❌ gate failed"
    assert lines[3].startswith("**Gate failed** (exit 1): 1 regression (`--fail-above 5`: the gated step, and each "
                               "kernel or library call holding ≥ 1% of the step, fails when slower by more than its "
                               "noise + 5%")
    assert f"- `{ATTENTION} ({CUDNN})`: +8.6% (noise 1.3%, 20.8% of the step)" in lines
    for row in STEP_ROWS:
        assert row in lines
    assert ("ms per step, largest \\|Δ\\| first: 10 of 79 matched, 0 new (only in B), 0 removed (only in A); share: % "
            "of the step (the larger of the two runs').") in lines
    rows = _table_rows(md, "| kernel / call |")
    assert [r[1:] for r in rows] == KERNEL_NUMBERS
    assert [r[0] for r in rows[:2]] == FIRST_CELLS
    assert "A (baseline): `" + str(A) + "`  " in lines and "B: `" + str(B) + "`  " in lines
    assert "target `flux`, GPU `NVIDIA H100 80GB HBM3`, inductor-prof `0.1.0`" in lines
    # the README block's changed settings, folded
    assert "- `flux.height: 1024 -> 768`" in lines and "- `flux.width: 1024 -> 1344`" in lines


def test_flux_examples_gate_passed_at_7_5_and_not_gated(sides):
    # 7.2-7.4 points beyond noise: under 7.5 it passes, and no row is marked
    md = render_markdown(_doc(sides, fail_above=7.5), top=10)
    assert md.splitlines()[1] == "## inductor-prof diff: ✅ gate passed"
    assert "**Gate passed** (exit 0): no regression (`--fail-above 7.5`:" in md
    assert "❌" not in md
    assert _table_rows(md, "| kernel / call |")[0][-1] == "slower"
    md = render_markdown(_doc(sides), top=10)   # no --fail-above
    assert md.splitlines()[1] == "## inductor-prof diff: not gated"
    assert "**Not gated** (exit 0): `--fail-above` was not given, so nothing fails" in md
    assert "| step (plain) | 133.02 |" in md and "(gated)" not in md


def test_min_share_below_one_percent_gates_a_second_row(sides):
    # --min-share 0.9 takes in rms_norm_cat_view_5 (0.975 % of the step): +16.1 % at noise 2.6 is 13.5 points
    # beyond noise, above 5
    md = render_markdown(_doc(sides, fail_above=5.0, min_share=0.9), top=10)
    assert "**Gate failed** (exit 1): 2 regressions" in md
    assert ("- `triton_poi_fused__fused_rms_norm_cat_view_5`: +16.1% (noise 2.6%, 1.0% of the step)"
            in md.splitlines())
    verdicts = [r[-1] for r in _table_rows(md, "| kernel / call |")]
    assert verdicts[0] == verdicts[6] == "❌ slower" and verdicts.count("❌ slower") == 2


def test_cli_markdown_is_rendered_from_the_json_document(tmp_path):
    """`--markdown` writes what the renderer makes of the very document `--json` prints (read back from JSON)."""
    runner = CliRunner()
    out = tmp_path / "summary.md"
    args = ["diff", str(A), str(B), "--fail-above", "5", "--top", "14"]
    r = runner.invoke(app, [*args, "--json", "--markdown", str(out)])
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    assert out.read_text() == render_markdown(doc, top=14)
    r = runner.invoke(app, [*args, "--markdown", "-"])
    assert r.exit_code == 1 and r.stdout == out.read_text()    # on stdout, instead of the tables
    # the 14th row of the README's block: one call on two kernels
    cell = _table_rows(r.stdout, "| kernel / call |")[13][0]
    assert cell.startswith("`addmm [4096→4032,3072]x[3072,12288]`<br>A: `nvjet_sm90_tst_256x128_")
    assert "<br>B: `nvjet_sm90_tst_192x192_" in cell
    r = runner.invoke(app, [*args, "--json", "--markdown", "-"])
    assert r.exit_code == 2 and r.stderr == ("error: --markdown - and --json both print to stdout; give --markdown "
                                             "a file\n")


# ---- the renderer alone, on the examples' document changed in one known way

def test_a_failing_row_past_top_is_listed(sides):
    d = _doc(sides, fail_above=5.0)
    d["kernels"][12]["fails_gate"] = True   # triton_poi_fused_gelu_view_10, the 13th row
    rows = _table_rows(render_markdown(d, top=3), "| kernel / call |")
    assert [r[0].split("<br>")[0] for r in rows] == [
        f"`{ATTENTION}`", "`addmm [4608→4544,15360]x[15360,3072]`", "`addmm [4608→4544,3072]x[3072,12288]`",
        "`triton_poi_fused_gelu_view_10`"]
    assert rows[3][1:] == ["0.191", "0.253", "+0.061", "+32.1", "2.0", "0.2", "❌ slower"]


def test_new_and_removed_rows_and_user_text_escaped(sides):
    d = copy.deepcopy(_doc(sides, fail_above=5.0))
    new = dict(d["kernels"][4], status="new", verdict="new", name_a=None, ms_a=None, change_pct=None,
               noise_pct=None, delta_ms=0.077, display="k|<b>`x`", matched_by="", fails_gate=True)
    d["new_kernels"] = [new]
    d["warnings"] = ["runs on <b>different</b> GPUs | *"]
    md = render_markdown(d, top=10)
    assert len(_table_rows(md, "| kernel / call |")) == 10   # the ten matched, then new and removed
    rows = _table_rows(md, "| kernel / call |", after="New (only in B) and removed (only in A): 1 of 1")
    assert rows == [["`` k\\|<b>`x` ``", "-", "0.077", "+0.077", "-", "-", "0.3", "❌ new"]]
    assert "- **warning:** runs on \\<b\\>different\\</b\\> GPUs \\| \\*" in md.splitlines()


def test_text_and_code_escape_markup():
    assert text("a_b *c* [d](e) <f> `g` | h & i") == "a\\_b \\*c\\* \\[d\\](e) \\<f\\> \\`g\\` \\| h \\& i"
    assert text("+8.6% (noise)") == "+8.6% (noise)"              # mid-line: as it is
    assert text("+1", start=True) == "\\+1" and text("12. x", start=True) == "12\\. x"
    assert text("two\nlines") == "two lines"
    assert code("a`b") == "``a`b``" and code("`a") == "`` `a ``" and code("x|y", cell=True) == "`x\\|y`"


def test_refused_runs_have_no_document_but_gaps_gated_anyway_are_said(sides, tmp_path):
    d = _doc(sides, fail_above=5.0)
    d["gate"].update(gaps=["runs on different GPUs (A: H100, B: A100; manifest.json env.gpu)"], allow_different=True)
    md = render_markdown(d)
    assert ("Gated anyway (`--allow-different`), though: runs on different GPUs (A: H100, B: A100; manifest.json "
            "env.gpu).") in md.splitlines()
