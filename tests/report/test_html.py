"""`report RUN --html FILE` on the recorded runs: the page is self-contained, its numbers are the JSON report's
written the same way (a library kernel's calls by shape in the row that opens under it), a view whose table the
run lacks says so, user text is escaped, and in headless Chromium (Debian's package; skipped only when it is
absent) the page loads with no console message and no request and its charts draw."""
import json
import shutil

import pytest
from markupsafe import escape
from typer.testing import CliRunner

from headless import needs_chromium, open_page, pixels_of
from html_page import Page
from recorded import REPO, data_path, without_age_warning
from inductor_prof.analysis import load_run_tables
from inductor_prof.cli import app
from inductor_prof.errors import UserError
from inductor_prof.report import charts, html
from inductor_prof.report.format import rate

EXAMPLE = REPO / "examples" / "runs" / "flux-h100"
K256 = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT"    # a cuBLAS kernel of 4 addmm shapes
runner = CliRunner()


@pytest.fixture(scope="module")
def flux(flux_html):
    """The FLUX example through the CLI (conftest.py): the page, its parsed form, and the JSON report of all
    kernels."""
    out, obj = flux_html
    text = out.read_text()
    return out, Page(text), obj, text


def test_page_loads_nothing_from_outside(flux):
    _, page, _, _ = flux
    # no element names a resource: an in-page anchor (#...) is the only URL allowed
    assert [u for u in page.urls if not u[2].startswith("#")] == []
    assert not {"link", "iframe", "object", "embed", "img"} & set(page.tags)
    assert all("url(" not in s and "@import" not in s for s in page.styles)
    # Bokeh's inlined bundle names web addresses in code it runs only for features the page does not use
    # (MathJax, web fonts, map tiles): the Chromium test below shows no request is made. Every other
    # script (the plots' data and the page's own sort/filter) names none.
    ours = [s for s in page.scripts if "bokeh.min.js" not in s]
    assert len(ours) == len(page.scripts) - 1
    assert all("http:" not in s and "https:" not in s and "fetch(" not in s for s in ours)


def test_flux_page_is_under_5_mb(flux):
    assert flux[0].stat().st_size < 5_000_000


def test_kernel_table_shows_the_json_numbers(flux):
    _, page, obj, _ = flux
    table = page.tables["kernel-table"]
    assert len(table["rows"]) == len(obj["kernels"]) == 57
    for row, values, k in zip(table["rows"], page.values("kernel-table"), obj["kernels"]):   # both by time
        cells = dict(zip(table["headers"], row))
        assert values["aten_ops"] == k["aten_ops"]          # the whole list, unfolded on a click
        assert cells["kernel"] == k["display"] and cells["kind"] == k["kind"]
        assert cells["fused ATen ops"].startswith(k["aten_ops"].split(", ")[0])   # folded: its first op shown
        assert cells["calls"] == str(k["calls"])
        assert cells["total ms"] == f"{k['total_ns'] / 1e6:.2f}"
        assert cells["avg µs"] == f"{k['avg_us']:.1f}"
        assert cells["% GPU"] == f"{k['pct_of_gpu_time']:.1f}"
        assert cells["TFLOP/s"] == (rate(k["tflops"]) if k["flops"] > 0 else "-")   # as the terminal writes it
        assert cells["GB/s"] == (f"{k['gbps']:.0f}" if k["bytes"] > 0 else "-")
        assert cells["% of peak"] == ("-" if k["pct_of_peak"] is None else f"{k['pct_of_peak']:.1f}")
    # the first row, by hand from the recorded files. proton/steps.hatchet (leaves): 1900 launches, 542,791,108 ns
    # over 10 steps, of 1,286,211,312 ns of all kernels -> 542.79 ms, 285.7 µs a call, 42.2% of GPU time.
    # library_ops.csv, one step: 190 addmm launches with M = 4608 (38 single blocks x to_q/k/v 3072x3072,
    # proj_mlp N = 12288, proj_out K = 15360): 2 x 4608 x 3072 x 3072 = 86,973,087,744 flop x (114 + 38 x 4 +
    # 38 x 5 = 456); bf16 bytes (bias + A + B + out) x 2: 75,503,616 x 114 + 217,079,808 x 38 + 264,247,296 x 38
    # = 26,897,842,176 B. x 10 steps / 0.542791108 s = 730.7 TFLOP/s and 496 GB/s; 1474 flop/B is above the
    # ridge: compute. 730.7 is above the measured 726.0 (the 16384^3 GEMM): the roof is the rate a compute-bound
    # bf16 op reached in the run, the 256x128 nvjet GEMM's FF-down shape at 828.5 (309,237,645,312 flop a call in
    # 373.23 us; tests/analysis/test_timeline.py): 730.7 / 828.5 = 88.2%. TFLOP/s whole from 10 up (format.rate)
    top = page.row("kernel-table", "nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN")
    assert [top[h] for h in ("calls", "total ms", "avg µs", "% GPU", "TFLOP/s", "GB/s", "bound", "% of peak")] == \
        ["1900", "542.79", "285.7", "42.2", "731", "496", "compute", "88.2"]


def test_library_kernels_expand_to_their_calls_by_shape(flux):
    """Each library kernel's row is followed by one (class "sub", shown while the kernel's name is open) holding
    its calls by shape: the JSON's calls_by_shape, the longest first, written as the kernel rows write theirs."""
    _, page, obj, text = flux
    table = page.tables["kernel-table"]
    library = [i for i, k in enumerate(obj["kernels"]) if k["origin"] == "library"]
    assert [i for i, _ in table["sub"]] == library and len(library) == 39
    assert text.count("<details><summary") == 39            # each such name a toggle (sources: <details id=...>)
    for i in library:
        shapes = page.tables[f"kernel-table-shapes-{i}"]
        values = page.values(f"kernel-table-shapes-{i}")
        assert shapes["headers"] == ["shape", "op", "calls/step", "µs/call", "ms/step", "% GPU", "TFLOP/s", "GB/s",
                                     "bound", "% of peak", "best µs/call (replay)", "modules"]
        for row, s in zip(shapes["rows"], obj["kernels"][i]["calls_by_shape"], strict=True):
            cells = dict(zip(shapes["headers"], row))
            assert (cells["shape"], cells["op"], cells["calls/step"]) == (s["shape"], s["op"], str(s["calls_per_step"]))
            assert cells["µs/call"] == f"{s['avg_us']:.1f}" and cells["ms/step"] == f"{s['step_ms']:.3f}"
            assert cells["% GPU"] == f"{s['pct_of_gpu_time']:.1f}"
            assert cells["TFLOP/s"] == (rate(s["tflops"]) if s["flops_per_call"] > 0 else "-")
    # the 256x128 GEMM, by hand from library_ops.csv: 76 calls of [4096,3072]x[3072,3072] a step in 7,599,610 ns
    # (100.0 us a call, 7.600 ms a step), the modules whose extern addmm made them in full; the ceilings stage's
    # replay of the call (115.8 us) was slower: the best time measured for it is the model's own
    i = next(i for i, k in enumerate(obj["kernels"]) if k["name"] == K256)
    shapes = page.tables[f"kernel-table-shapes-{i}"]
    first = dict(zip(shapes["headers"], shapes["rows"][0]))
    assert [first[h] for h in ("shape", "calls/step", "µs/call", "ms/step", "best µs/call (replay)")] == [
        "[4096,3072]x[3072,3072]", "76", "100.0", "7.600", "100.0"]
    # its modules: the first shown, every one in the <details> under it, their common pattern as data-v
    modules = ["transformer_blocks.*.attn.to_q", "transformer_blocks.*.attn.to_k", "transformer_blocks.*.attn.to_v",
               "transformer_blocks.*.attn.to_out.0"]
    assert first["modules"] == f"{modules[0]} +3{''.join(modules[1:])}"
    assert page.values(f"kernel-table-shapes-{i}")[0]["modules"] == \
        "transformer_blocks.*.attn.to_q, to_k, to_v, to_out.0"


def test_ncu_table_as_the_readme_shows_it(flux):
    row = flux[1].row("ncu-table", "triton_poi_fused_cat_gelu_permute_view_3")
    # annotated per launch (get_args): reads in_ptr0 (1, 24, 4608, 128) + in_ptr1 (4608, 12288) = 70,778,880 bf16
    # = 141,557,760 B; writes out_ptr0 (1, 4608, 15360) = the same 141,557,760 B; 17.26 x 70,778,880 =
    # 1,221,643,469 flop (annotated_step.hatchet). ncu/ncu.csv (re-recorded): 96,384 ns, read 141,575,168 B
    # (ratio 1.0001), write 122,141,184 B (0.863), dram 263,716,352 / 283,115,520 = 0.931, flops 1,295,368,615 /
    # 1,221,643,469 = 1.060, SOL mem 81.7, SOL SM 82.2, tensor 3.8, occupancy 86.6, 31 registers: nothing off by
    # > 25%
    assert [row[h] for h in ("ncu µs", "read MB", "read MB annotated", "read ratio", "write MB",
                             "write MB annotated", "write ratio", "total ratio", "flops ratio", "SOL mem %",
                             "SOL SM %", "tensor %", "occup. %", "regs", "flag")] == \
        ["96.4", "141.6", "141.6", "1.00", "122.1", "141.6", "0.86", "0.93", "1.06", "81.7", "82.2", "3.8", "86.6",
         "31", ""]
    # the text+image layer norm: in the re-recorded annotated step all 38 launches ran at R0_BLOCK 4096: 4608 rows
    # x 90,114 = 415,245,312 flop each (annotated_step.hatchet; the old recording had 37 at 2048, flagged 1.53).
    # ncu replayed R0_BLOCK 4096 too: 494,272,512 / 415,245,312 = 1.190, within 25%: not flagged.
    # Its reads are right: in_ptr0..2 = arg_1..3, (512 + 4096) x 3072 + 9216 bf16 = 28,329,984 B vs ncu's
    # 28,336,128 -> 1.00
    norm = flux[1].row("ncu-table", "triton_red_fused_add_cat_mul_native_layer_norm_split_unsqueeze_1")
    assert [norm[h] for h in ("read MB annotated", "read ratio", "flops ratio", "flag")] == \
        ["28.3", "1.00", "1.19", ""]
    # reads and writes apart: view_13 loads in_out_ptr0, in_ptr0 and in_ptr2 (3 x 4096 x 3072) and in_ptr1 (18,432)
    # = 37,767,168 bf16 = 75,534,336 B, and stores in_out_ptr0 = 25,165,824 B. ncu: read 75,516,416 (0.9998),
    # write 15,438,080 (0.613: dirty lines left in L2), 90,954,240 / 100,700,160 = 0.903; 50,331,648 flop both
    rmw = flux[1].row("ncu-table", "triton_poi_fused_add_mul_split_unsqueeze_view_13")
    assert [rmw[h] for h in ("read MB annotated", "write MB annotated", "read ratio", "write ratio", "total ratio",
                             "flops ratio", "flag")] == ["75.5", "25.2", "1.00", "0.61", "0.90", "1.00", ""]


def test_attention_table_marks_the_model_backend(flux):
    page = flux[1]
    rows = page.tables["attention-table"]["rows"]
    assert len(rows) == 15                       # attention.csv: 15 backends at one shape
    model = page.row("attention-table", "sdpa_cudnn")
    # 4 x 1 x 24 x 4608 x 4608 x 128 = 260,919,263,232 flop in attention.csv's 0.402016 ms: 649.0 TFLOP/s
    assert model["vs model"] == "1.00x" and model["TFLOP/s"] == "649" and model["ok"] == "yes"
    assert page.row("attention-table", "xformers")["ok"] == "n/a"
    assert "the model's own backend (sdpa_cudnn)" in flux[3]


def test_each_inductor_kernel_source_one_click_away(flux):
    _, page, obj, text = flux
    records = json.loads((EXAMPLE / "kernels" / "kernels.json").read_text())
    assert len(records) == 21
    heat = [t for t in page.tables if "-heat-" in t]
    # a heat table's source column, its cells as the parser gives them (stripped), the file's lines first
    code = [[r[-1] for r in page.tables[t]["rows"]] for t in heat]
    for rec in records:                          # both files of a name Inductor gave two kernels
        source = (EXAMPLE / "kernels" / rec["file"]).read_text()
        lines = [line.strip() for line in source.splitlines()]
        # whole, or line by line beside its counters (the kernels the source pass recorded)
        assert str(escape(source)) in text or lines in [c[:len(lines)] for c in code], rec["file"]
    # the 3 Inductor kernels the source pass recorded; the layer norm's two reports both name its file
    # .cd1b7bc4b5a2.py (the counters files' kernel_file), so its other file is shown without counters
    assert len(heat) == 3
    # the name in the kernel table links to the <details> holding its source and fused ATen ops
    anchor = text.index('class="src-link"><span class="cut" data-full="triton_poi_fused_gelu_view_12">')
    target = text[text.rindex('href="#', 0, anchor) + 7:].split('"')[0]
    details = text[text.index(f'<details id="{target}">'):]
    details = details[:details.index("</details>")]
    assert "<code>triton_poi_fused_gelu_view_12</code>" in details and "aten.view, aten.gelu" in details


def _tables(run):
    tables = load_run_tables(run)
    return tables, tables.kernels


def test_headroom_absent_says_so():
    tables, df = _tables(EXAMPLE)
    df = df.drop(columns=list(html.HEADROOM_COLUMNS), errors="ignore")
    tables.summary.pop("headroom", None)
    text = html.render(tables, df)
    assert "Not in this run's tables: headroom_ms_per_step, sol_ms_per_step, ceiling, ceiling_why." in text
    assert "The run summary has no headroom per step." in text and 'id="headroom-table"' not in text


def test_headroom_present_is_ranked():
    tables, df = _tables(EXAMPLE)
    # columns as the ceilings analysis will add them; the values here are only inputs to the renderer
    df = df.assign(sol_ms_per_step=df["step_ms"] / 4, headroom_ms_per_step=df["step_ms"] * 3 / 4,
                   ceiling="compute", ceiling_why="GEMM")
    # summary["headroom"] in analysis.headroom's layout; the values are only inputs to the renderer
    tables.summary["headroom"] = {
        "gpu_busy_ms_per_step": 120.5, "sol_step_ms": 80.25, "step_ms_plain": 130.0, "launch_gap_ms_per_step": 9.5,
        "kernels_without_sol": 3, "by_category": {"GEMM": 1.23456}, "attention": [],
        "next": [{"what": "nvjet <bias>", "category": "GEMM", "headroom_ms_per_step": 41.25, "why": "70% of compute",
                  "do": "faster GEMM config"},
                 {"what": "launch overhead and idle", "category": "host", "headroom_ms_per_step": 9.5,
                  "why": "plain step (no profiler) minus GPU-busy time", "do": "CUDA graphs, fewer launches"}]}
    text = html.render(tables, df)
    page = Page(text)
    ranked = page.tables["headroom-table"]
    assert len(ranked["rows"]) == 25             # the top 25 of the 57 kernels, largest headroom first
    first = dict(zip(ranked["headers"], ranked["rows"][0]))
    # the longest kernel (542,791,108 ns over 10 steps = 54.279 ms/step) has 3/4 of it as headroom:
    # SOL 54.2791108 / 4 = 13.570, headroom 54.2791108 x 3 / 4 = 40.709
    assert (first["kernel"], first["ms/step"], first["SOL ms/step"], first["headroom ms/step"]) == \
        ("nvjet_sm90_tst_192x192_64x4_2x1_v_bz_coopB_bias_TNN", "54.279", "13.570", "40.709")
    assert first["ceiling"] == "compute" and first["why this ceiling"] == "GEMM"
    headroom = [float(r[ranked["headers"].index("headroom ms/step")]) for r in ranked["rows"]]
    assert headroom == sorted(headroom, reverse=True)
    # the per-step figures under labels (3 decimals), never the raw keys; the next list as its own table
    rows = [r for t in page.tables.values() for r in [t["headers"], *t["rows"]]]
    for row in (["GPU busy, ms/step", "120.500"], ["speed of light, ms/step", "80.250"], ["plain step, ms", "130.000"],
                ["launch overhead and idle, ms/step", "9.500"],
                ["kernels without a speed of light (counted at their time)", "3"],
                ["headroom in GEMM, ms/step", "1.235"]):
        assert row in rows
    nxt = page.tables["next-table"]
    # what to do, and what the headroom is measured against, each its own column
    assert nxt["headers"] == ["what", "headroom ms/step", "do", "measured against", "category"]
    assert nxt["rows"] == [["nvjet <bias>", "41.250", "faster GEMM config", "70% of compute", "GEMM"],
                           ["launch overhead and idle", "9.500", "CUDA graphs, fewer launches",
                            "plain step (no profiler) minus GPU-busy time", "host"]]
    assert "gpu_busy_ms_per_step" not in text and "kernels_without_sol" not in text


def test_missing_tables_each_view_says_what(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(data_path("flux_small"), run)
    (run / "ncu" / "ncu.csv").unlink()
    (run / "kernels" / "kernels.json").unlink()
    text = html.render(*_tables(run))
    assert "No Nsight Compute data in this run (ncu/ncu.csv absent" in text
    assert "No harvested kernels in this run (kernels/kernels.json absent)." in text
    assert "no attention benchmark in this run (attention.csv absent" in text    # flux_small has none
    page = Page(text)
    assert len(page.tables["kernel-table"]["rows"]) > 0 and text.count('class="bk-Figure"') == 0
    assert text.count("data-root-id") == 2       # the category and roofline charts still drawn


def test_user_text_is_escaped():
    tables, df = _tables(data_path("flux_small"))
    evil = "<script>alert('x')</script>&\"name"
    df.loc[0, "display"] = evil
    text = html.render(tables, df)
    page = Page(text)
    assert page.tables["kernel-table"]["rows"][0][0] == evil
    assert "<script>alert(" not in text
    assert len(page.scripts) == len(Page(html.render(*_tables(data_path("flux_small")))).scripts)


def test_html_replaces_the_tables_with_one_line(tmp_path):
    out = tmp_path / "run.html"
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--html", str(out)])
    assert r.exit_code == 0 and r.stdout == ""
    assert without_age_warning(r.stderr.splitlines()) == [f"HTML report written to {out}"]
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_html_to_unwritable_path_is_one_line_before_any_work(tmp_path):
    # checked before the run is read (rundir.check_output, as --csv): a missing run folder is not reached
    r = runner.invoke(app, ["report", str(tmp_path / "no-run"), "--html", str(tmp_path), "--json"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"error: cannot write --html {tmp_path}: it is a folder\n"
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    r = runner.invoke(app, ["report", str(data_path("flux_small")), "--html", str(blocker / "run.html")])
    assert r.exit_code == 2
    assert r.stderr == f"error: cannot write --html {blocker / 'run.html'}: Not a directory\n"


def test_html_write_failure_names_the_folder(tmp_path):
    # html.write's own message, for what the early check cannot see (the folder made a file in between)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(UserError) as e:
        html.write(*_tables(data_path("flux_small")), blocker / "run.html")
    assert str(e.value) == f"cannot write the HTML report to {blocker / 'run.html'}: File exists ({blocker})"


def test_without_bokeh_says_how_to_install(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "bokeh.embed", None)
    with pytest.raises(UserError, match=r"pip install 'inductor-prof\[html\]'"):
        html.render(*_tables(data_path("flux_small")))


@needs_chromium
def test_opens_in_chromium_and_charts_draw(flux, tmp_path):
    load = open_page(flux[0], tmp_path, height=9000)   # the whole page down to the summary's chart
    assert load.console == [] and load.requests == []
    assert load.dom.count('class="bk-Figure"') == 3          # BokehJS built the three charts
    # each chart drew: its solid colours are on the screenshot (exact pixels; no other element uses them)
    assert pixels_of(load.screenshot, charts.CATEGORY_BAR) > 5000         # time by category
    assert pixels_of(load.screenshot, charts.OTHER_BACKEND) > 5000        # the other attention backends
    assert pixels_of(load.screenshot, charts.ROOF_COLOURS["flops16"]) > 150   # the bf16 roofs (~480 px)
    assert pixels_of(load.screenshot, charts.MODEL_BACKEND) > 1000     # the model's attention backend bar


@needs_chromium
def test_chromium_check_sees_requests_and_errors(tmp_path):
    """The check above can fail: a page that loads an image from the network and throws is caught."""
    bad = tmp_path / "bad.html"
    bad.write_text('<html><body><img src="http://127.0.0.1:9/x.png"><script>undefinedFn()</script></body></html>')
    load = open_page(bad, tmp_path / "chromium")
    assert load.requests == ["http://127.0.0.1:9/x.png"]
    assert any("Uncaught ReferenceError: undefinedFn is not defined" in line for line in load.console)


# Run in the page after its own scripts: sort the kernel table by avg µs (two clicks: descending, then
# ascending), show only pointwise kernels, open a kernel's source through its link; the result goes to the DOM.
PROBE = """<script>
var table = document.getElementById("kernel-table");
var header = Array.prototype.slice.call(table.tHead.rows[0].cells);
var col = header.findIndex(function (th) { return th.textContent === "avg \\u00b5s"; });
function visible() {
  return Array.prototype.slice.call(table.tBodies[0].rows).filter(function (r) { return r.style.display !== "none"; })
    .map(function (r) { return [r.cells[0].textContent.trim(), r.cells[col].textContent]; });
}
var probe = {};
var kind = document.getElementById("kind-filter");
kind.value = "pointwise";
kind.dispatchEvent(new Event("change"));
header[col].click();
probe.desc = visible();
header[col].click();
probe.asc = visible();
var link = table.querySelector("a.src-link");
link.click();
probe.opened = document.getElementById(link.getAttribute("href").slice(1)).open;
var pre = document.createElement("pre");
pre.id = "probe";
pre.textContent = JSON.stringify(probe);
document.body.appendChild(pre);
</script>
"""


@needs_chromium
def test_sort_filter_and_source_link_work_in_chromium(flux, tmp_path):
    import html as std_html
    import re

    page = tmp_path / "probed.html"
    page.write_text(flux[3].replace("</body>", PROBE + "</body>"))
    load = open_page(page, tmp_path / "chromium")
    assert load.console == []
    probe = json.loads(std_html.unescape(re.search(r'<pre id="probe">(.*?)</pre>', load.dom).group(1)))
    pointwise = [k for k in flux[2]["kernels"] if k["kind"] == "pointwise"]
    by_avg = sorted(pointwise, key=lambda k: k["avg_us"], reverse=True)
    assert len(pointwise) == 10                  # the run's 10 Inductor pointwise kernels
    assert probe["desc"] == [[k["display"], f"{k['avg_us']:.1f}"] for k in by_avg]
    assert probe["asc"] == probe["desc"][::-1]
    assert probe["opened"] is True


# Run in the page after its own scripts: a library kernel's calls-by-shape row before and after its name is
# clicked, where each such row sits after the kernel table is sorted by avg µs, and once kernels are filtered.
SHAPES_PROBE = """<script>
var table = document.getElementById("kernel-table");
var header = Array.prototype.slice.call(table.tHead.rows[0].cells);
var col = header.findIndex(function (th) { return th.textContent === "avg \\u00b5s"; });
function subs() { return Array.prototype.slice.call(table.querySelectorAll(":scope > tbody > tr.sub")); }
function owner(sub) { return sub.previousElementSibling.cells[0].textContent.trim(); }
var probe = {};
var before = {};
subs().forEach(function (s) { before[s.querySelector("table").id] = owner(s); });
var row = Array.prototype.slice.call(table.tBodies[0].rows).find(function (r) {
  return r.cells[0].textContent.trim() === "NAME"; });
var sub = row.nextElementSibling;
probe.hidden = getComputedStyle(sub).display;
row.querySelector("summary").click();
probe.opened = getComputedStyle(sub).display;
probe.rows = sub.querySelector("table").tBodies[0].rows.length;
header[col].click();
probe.owners_kept = subs().every(function (s) { return before[s.querySelector("table").id] === owner(s); });
probe.moved = table.tBodies[0].rows[0].cells[0].textContent.trim() !== "NAME_FIRST";
var kind = document.getElementById("kind-filter");
kind.value = "pointwise";
kind.dispatchEvent(new Event("change"));
probe.filtered = subs().map(function (s) { return s.style.display; });
kind.value = "";
var byName = document.getElementById("name-filter");
byName.value = "256x128";
byName.dispatchEvent(new Event("input"));
probe.named = getComputedStyle(sub).display;
var pre = document.createElement("pre");
pre.id = "probe";
pre.textContent = JSON.stringify(probe);
document.body.appendChild(pre);
</script>
"""


@needs_chromium
def test_calls_by_shape_open_and_move_with_their_kernel_in_chromium(flux, tmp_path):
    import html as std_html
    import re

    kernels = flux[2]["kernels"]
    probe_js = SHAPES_PROBE.replace("NAME_FIRST", kernels[0]["display"]).replace("NAME", K256)
    page = tmp_path / "probed.html"
    page.write_text(flux[3].replace("</body>", probe_js + "</body>"))
    load = open_page(page, tmp_path / "chromium")
    assert load.console == []
    probe = json.loads(std_html.unescape(re.search(r'<pre id="probe">(.*?)</pre>', load.dom).group(1)))
    assert probe["hidden"] == "none" and probe["opened"] == "table-row" and probe["rows"] == 4
    # sorted by avg µs, the 192x192 GEMM (285.7 µs) is no longer first, and each row of shapes follows its kernel
    assert probe["moved"] is True and probe["owners_kept"] is True
    assert probe["filtered"] == ["none"] * 39     # only pointwise kernels shown: no library kernel, no shapes
    assert probe["named"] == "table-row"          # a kernel found by name keeps its open row of shapes


def test_roofline_draws_the_measured_l2_roof():
    # the example measured L2 at manifest ceilings.l2_gbps (64 copies of 8 MB in one CUDA graph); its roof is
    # the one the report judges kernels whose inputs were in L2 against
    from inductor_prof.analysis import load_run_tables
    from inductor_prof.report import charts

    run = REPO / "examples" / "runs" / "flux-h100"
    l2 = json.loads((run / "manifest.json").read_text())["ceilings"]["l2_gbps"]
    tables = load_run_tables(run)
    fig = charts.roofline_chart(tables.kernels, tables.summary["peaks"])
    labels = [item.label.value for item in fig.legend[0].items]
    assert f"L2: {l2:.0f} GB/s (measured)" in labels


def test_attention_chart_legend_beside_the_bars():
    # inside the plot (top right) the legend covered flex_compiled's bar, the tallest, in the padded decoder run
    from inductor_prof.analysis import load_run_tables
    from inductor_prof.report import charts

    run = REPO / "examples" / "runs" / "llama-padded-h100"
    fig = charts.attention_chart(load_run_tables(run).attention)
    assert len(fig.right) == 1 and fig.right[0] is fig.legend[0]
    assert [item.label.value for item in fig.legend[0].items] == ["other backend", "the model's backend"]


# ---- per-line counters (the source pass's reports): a section per inspected kernel ---------------------------

def test_a_section_per_inspected_kernel(tmp_path):
    from recorded import NVJET_KERNEL, RMS_KERNEL, source_run

    run = source_run(tmp_path / "run")
    out = tmp_path / "page.html"
    r = runner.invoke(app, ["report", str(run), "--html", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    page = Page(text)
    # in the kernel table's order (time): cuBLAS's GEMM, then the RMS-norm+RoPE kernel
    assert text.index(f"<summary><code>{NVJET_KERNEL}</code></summary>") < \
        text.index(f"<summary><code>{RMS_KERNEL}</code></summary>")
    gemm, rms = page.tables["inspect-0-rows-0"], page.tables["inspect-1-rows-0"]
    assert rms["headers"] == ["#", "line", "% samples", "% inst", "L2 MB", "excess %", "top stalls", "source"]
    assert rms["rows"][0][:6] == ["1", "73", "15.2", "2.9", "56.6", "0"]
    assert rms["rows"][0][6].startswith("long_scoreboard 87%, mio_throttle 4%")
    assert rms["rows"][0][7].startswith("tmp92 = tl.load(in_ptr5 + (r0_1 + 128*x5)")
    assert len(rms["rows"]) == html.SHOWN_ROWS and "25 of 51 rows." in text
    assert gemm["headers"][1] == "region" and gemm["headers"][-1] == "hottest instruction"
    assert gemm["rows"][0][:2] == ["1", "+0x09c0..+0x0d20"]
    assert "global accesses not coalesced (up to 50% of their L2 sectors excess): lines 81, 99, 114, 127" in text


def test_a_damaged_counters_file_is_one_warning_and_the_section_stays(tmp_path):
    pytest.importorskip("ncu_report")   # the section comes from the report itself then (the ncu extra)
    from recorded import RMS_KERNEL, source_run

    run = source_run(tmp_path / "run")
    sidecar = run / "ncu" / "source" / f"{RMS_KERNEL}.counters.json"
    sidecar.write_text("{}")
    out = tmp_path / "page.html"
    r = runner.invoke(app, ["report", str(run), "--html", str(out)])
    assert r.exit_code == 0, r.output
    assert r.stderr.count(f"warning: {sidecar} is damaged (no 'counters' object and 'report_bytes' size); "
                          f"read {RMS_KERNEL}.ncu-rep instead\n") == 1
    assert Page(out.read_text()).tables["inspect-1-rows-0"]["rows"][0][:6] == ["1", "73", "15.2", "2.9", "56.6", "0"]


def test_a_run_without_source_counters_says_so(tmp_path):
    # the 768x1344 example was recorded without the source pass
    out = tmp_path / "run.html"
    r = runner.invoke(app, ["report", str(REPO / "examples" / "runs" / "flux-h100-768x1344"), "--html", str(out)])
    assert r.exit_code == 0, r.output
    assert "No per-line counters in this run" in out.read_text()
